#include "enginetext.h"

#include <QCoreApplication>
#include <QList>
#include <QRegularExpression>

namespace {

struct Form
{
    const char* code;
    QRegularExpression pattern; // the whole message; its groups are the template's %1, %2...
    const char* text;           // the English template, translated in context "EngineText"
};

const QList<Form>& forms()
{
    static const QList<Form> list = [] {
        const auto f = [](const char* code, const char* pattern, const char* text) {
            return Form{code,
                        QRegularExpression(QStringLiteral("^") + QString::fromUtf8(pattern) + QStringLiteral("$"),
                                           QRegularExpression::DotMatchesEverythingOption),
                        text};
        };
        return QList<Form>{
            f("unknown-variable", R"re(unknown variable \$\{([^}]*)\})re",
              QT_TRANSLATE_NOOP("EngineText", "unknown variable ${%1}")),
            f("unknown-column", R"re(unknown column \$\{([^}]*)\})re",
              QT_TRANSLATE_NOOP("EngineText", "unknown column ${%1}")),
            f("unclosed-variable", R"re(unclosed \$\{ at offset (\d+))re",
              QT_TRANSLATE_NOOP("EngineText", "unclosed ${ at offset %1")),
            f("needs-url", R"re(a request needs a URL)re", QT_TRANSLATE_NOOP("EngineText", "a request needs a URL")),
            f("not-header-name", R"re("(.*)" is not a header name)re",
              QT_TRANSLATE_NOOP("EngineText", "\"%1\" is not a header name")),
            f("not-method", R"re("(.*)" is not an HTTP method)re",
              QT_TRANSLATE_NOOP("EngineText", "\"%1\" is not an HTTP method")),
            f("must-be-positive", R"re(must be positive)re", QT_TRANSLATE_NOOP("EngineText", "must be positive")),
            f("rate-never-positive", R"re(the rate must be positive at some point of the run)re",
              QT_TRANSLATE_NOOP("EngineText", "the rate must be positive at some point of the run")),
            f("no-virtual-user", R"re(at least one virtual user is needed)re",
              QT_TRANSLATE_NOOP("EngineText", "at least one virtual user is needed")),
            f("stage-needs-target", R"re(a ramp, step or spike stage needs a target)re",
              QT_TRANSLATE_NOOP("EngineText", "a ramp, step or spike stage needs a target")),
            f("iterations-closed", R"re(iterations per virtual user are the closed model's \(load\.closed\.users\))re",
              QT_TRANSLATE_NOOP("EngineText", "iterations per virtual user are the closed model's "
                                              "(load.closed.users)")),
            f("must-not-be-negative", R"re(must not be negative)re",
              QT_TRANSLATE_NOOP("EngineText", "must not be negative")),
            f("must-not-be-negative-got", R"re(must not be negative \(got (.*)\))re",
              QT_TRANSLATE_NOOP("EngineText", "must not be negative (got %1)")),
            f("within-an-hour", R"re(must be from 0 to 1h \(got (.*)\))re",
              QT_TRANSLATE_NOOP("EngineText", "must be from 0 to 1h (got %1)")),
            f("no-steps", R"re(at least one step is needed)re",
              QT_TRANSLATE_NOOP("EngineText", "at least one step is needed")),
            f("choose-model",
              R"re(choose an open model \(load\.open\.rate\) or a closed model \(load\.closed\.users\))re",
              QT_TRANSLATE_NOOP("EngineText",
                                "choose an open model (load.open.rate) or a closed model (load.closed.users)")),
            f("body-or-form", R"re(a request has a body or a form, not both)re",
              QT_TRANSLATE_NOOP("EngineText", "a request has a body or a form, not both")),
            f("used-before-extracted",
              R"re(\$\{([^}]*)\} is used before any step extracts it(.*): every request of this step fails as an extract error, and the iteration ends there)re",
              QT_TRANSLATE_NOOP("EngineText", "${%1} is used before any step extracts it%2: every request of this "
                                              "step fails as an extract error, and the iteration ends there")),
            f("cannot-connect", R"re(cannot connect to (.*): Connection refused)re",
              QT_TRANSLATE_NOOP("EngineText", "cannot connect to %1: the connection was refused")),
            f("connect-failed", R"re(cannot connect to (.*): (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "cannot connect to %1: %2")),
            f("connect-timed-out", R"re(connect to (.*) timed out)re",
              QT_TRANSLATE_NOOP("EngineText", "connect to %1 timed out")),
            f("no-complete-response", R"re(no complete response within (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "no complete response within %1")),
            f("no-answer", R"re(no answer within (.*))re", QT_TRANSLATE_NOOP("EngineText", "no answer within %1")),
            f("not-sent", R"re(not sent: (.*))re", QT_TRANSLATE_NOOP("EngineText", "not sent: %1")),
            f("no-request-succeeded", R"re(no request succeeded \((\d+) failed\))re",
              QT_TRANSLATE_NOOP("EngineText", "no request succeeded (%1 failed)")),
            f("not-as-planned", R"re(not as planned: (\d+) of (\d+) planned iterations were made \(([^)]*)\)(.*))re",
              QT_TRANSLATE_NOOP("EngineText", "not as planned: %1 of %2 planned iterations were made (%3)%4")),
            f("stopped-when-asked", R"re(stopped when asked, at (.*) of (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "stopped when asked, at %1 of %2")),
            f("aborted", R"re(aborted: (.*))re", QT_TRANSLATE_NOOP("EngineText", "aborted: %1")),
            f("agent-lost-abort", R"re(an agent was lost and the policy is abort)re",
              QT_TRANSLATE_NOOP("EngineText", "an agent was lost and the policy is abort")),
            f("engine-lost-abort", R"re(an engine was lost and the policy is abort)re",
              QT_TRANSLATE_NOOP("EngineText", "an engine was lost and the policy is abort")),
            f("ended-as", R"re(the run ended as (.*))re", QT_TRANSLATE_NOOP("EngineText", "the run ended as %1")),
            f("no-request-completed", R"re(no request completed)re",
              QT_TRANSLATE_NOOP("EngineText", "no request completed")),
            f("errors-unjudged",
              R"re(([0-9.e+]+) % of the requests failed \((\d+) of (\d+)\) and no threshold judges the error rate)re",
              QT_TRANSLATE_NOOP("EngineText",
                                "%1 % of the requests failed (%2 of %3) and no threshold judges the error rate")),
            f("arrivals-dropped",
              R"re((\d+) arrivals were dropped \(the engines fell behind, or every connection was busy\))re",
              QT_TRANSLATE_NOOP("EngineText",
                                "%1 arrivals were dropped (the engines fell behind, or every connection was busy)")),
            f("engines-behind", R"re(the engines fell behind the plan)re",
              QT_TRANSLATE_NOOP("EngineText", "the engines fell behind the plan")),
            f("stopped-by-breaker", R"re(stopped by breaker(.*))re",
              QT_TRANSLATE_NOOP("EngineText", "stopped by breaker%1")),
            f("interrupted", R"re(interrupted: the controller ended before the run did)re",
              QT_TRANSLATE_NOOP("EngineText", "interrupted: the controller ended before the run did")),
            f("completed-passed", R"re(completed and passed)re",
              QT_TRANSLATE_NOOP("EngineText", "completed and passed")),
            f("completed-failed-why", R"re(completed and failed: (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "completed and failed: %1")),
            f("completed-failed", R"re(completed and failed)re",
              QT_TRANSLATE_NOOP("EngineText", "completed and failed")),
            f("named-threshold-failed", R"re(threshold (.*) failed \((.*)\))re",
              QT_TRANSLATE_NOOP("EngineText", "threshold %1 failed (%2)")),
            // a scenario file's parse faults (ScenarioCheck::parseFault)
            f("not-a-time", R"re(not a time such as 300ms or 1\.5s)re",
              QT_TRANSLATE_NOOP("EngineText", "not a time such as 300ms or 1.5s")),
            f("not-whole", R"re((".*") is not a whole number)re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is not a whole number")),
            f("not-number", R"re((".*") is not a number)re", QT_TRANSLATE_NOOP("EngineText", "%1 is not a number")),
            f("not-list", R"re(not a list such as \[200, 201\])re",
              QT_TRANSLATE_NOOP("EngineText", "not a list such as [200, 201]")),
            f("not-bool", R"re((".*") is not true or false)re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is not true or false")),
            f("not-enum", R"re((".*") is not one of the values this field takes)re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is not one of the values this field takes")),
            f("not-value", R"re((".*") is not a value this field takes)re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is not a value this field takes")),
            f("no-such-field", R"re(no field named (".*") here)re",
              QT_TRANSLATE_NOOP("EngineText", "no field named %1 here")),
            f("threshold-failed", R"re(threshold failed: (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "threshold failed: %1")),
            // test plans
            f("stopped-by-step", R"re(stopped by a step: (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "stopped by a step: %1")),
            f("step-stopped-run", R"re(an error of step "(.*)" at (.*) stopped the run \(its onError is stopRun\))re",
              QT_TRANSLATE_NOOP("EngineText",
                                "an error of step \"%1\" at %2 stopped the run (its onError is stopRun)")),
            f("setup-failed", R"re(setup failed: (.*))re", QT_TRANSLATE_NOOP("EngineText", "setup failed: %1")),
            f("requests-failed", R"re((\d+) of (\d+) requests failed)re",
              QT_TRANSLATE_NOOP("EngineText", "%1 of %2 requests failed")),
            f("phase-done", R"re((\d+) requests? in (\d+) ms(.*))re",
              QT_TRANSLATE_NOOP("EngineText", "%1 request(s) in %2 ms%3")),
            f("values", R"re(values:( .*))re", QT_TRANSLATE_NOOP("EngineText", "values:%1")),
            f("took-no-value", R"re(\$\{(.*)\} took no value)re",
              QT_TRANSLATE_NOOP("EngineText", "${%1} took no value")),
            f("not-as-planned-scenario",
              R"re(not as planned: scenario "([^"]*)": (\d+) of (\d+) planned iterations were made \(([^)]*)\)(.*))re",
              QT_TRANSLATE_NOOP("EngineText",
                                "not as planned: scenario \"%1\": %2 of %3 planned iterations were made (%4)%5")),
            f("must-be-positive-got", R"re(must be positive \(got (.*)\))re",
              QT_TRANSLATE_NOOP("EngineText", "must be positive (got %1)")),
            f("engine-failed", R"re(an engine failed: (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "an engine failed: %1")),
            // scripts (plan/scriptplan.cpp, run/stepscripts.cpp)
            f("script-not-run", R"re(line (\d+): (.*) is not run by Stampede)re",
              QT_TRANSLATE_NOOP("EngineText", "line %1: %2 is not run by Stampede")),
            f("script-http-only", R"re(scripts run on HTTP steps; a gRPC step takes checks and extract)re",
              QT_TRANSLATE_NOOP("EngineText", "scripts run on HTTP steps; a gRPC step takes checks and extract")),
            f("script-other-server",
              R"re(pm\.request\.url goes to another server \((.*)\): a step's server is the one its URL named when the run was planned)re",
              QT_TRANSLATE_NOOP("EngineText", "pm.request.url goes to another server (%1): a step's server is the "
                                              "one its URL named when the run was planned")),
            f("script-skipped", R"re(the pre-request script skipped the request \(pm\.execution\.skipRequest\(\)\))re",
              QT_TRANSLATE_NOOP("EngineText",
                                "the pre-request script skipped the request (pm.execution.skipRequest())")),
            // a failed check's sample: the check's name, then why (checks.cpp)
            f("check-failed", R"re(check "([^"]*)": (.*))re", QT_TRANSLATE_NOOP("EngineText", "check \"%1\": %2")),
            f("status-expected-one-of", R"re(status (\d+), expected one of (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "status %1, expected one of %2")),
            f("status-expected", R"re(status (\d+), expected (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "status %1, expected %2")),
            f("grpc-status-expected-one-of", R"re(grpc-status (\d+), expected one of (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "grpc-status %1, expected one of %2")),
            f("grpc-status-expected", R"re(grpc-status (\d+), expected (.*))re",
              QT_TRANSLATE_NOOP("EngineText", "grpc-status %1, expected %2")),
            f("took-too-long", R"re(took (\d+) ms, more than (\d+) ms)re",
              QT_TRANSLATE_NOOP("EngineText", "took %1 ms, more than %2 ms")),
            f("body-lacks", R"re(the body does not contain (".*))re",
              QT_TRANSLATE_NOOP("EngineText", "the body does not contain %1")),
            f("body-not-json", R"re(the body is not JSON \(reading (.*)\))re",
              QT_TRANSLATE_NOOP("EngineText", "the body is not JSON (reading %1)")),
            f("negated-held", R"re(the opposite held \(negate\))re",
              QT_TRANSLATE_NOOP("EngineText", "the opposite held (negate)")),
            f("value-not-matching", R"re((\S+(?: \S+)?) is (".*"), which does not match /(.*)/)re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is %2, which does not match /%3/")),
            f("value-not-expected", R"re((\S+(?: \S+)?) is (".*"), expected (".*"))re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is %2, expected %3")),
            f("value-absent-expected", R"re((\S+(?: \S+)?) is absent, expected (".*"))re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is absent, expected %2")),
            f("value-present", R"re((\S+(?: \S+)?) is present: (".*"))re",
              QT_TRANSLATE_NOOP("EngineText", "%1 is present: %2")),
            f("value-absent", R"re((\S+(?: \S+)?) is absent)re", QT_TRANSLATE_NOOP("EngineText", "%1 is absent")),
        };
    }();
    return list;
}

const Form* formOf(const QString& text, QRegularExpressionMatch& match)
{
    for (const Form& f : forms()) {
        match = f.pattern.match(text);
        if (match.hasMatch())
            return &f;
    }
    return nullptr;
}

QString listText(const QString& list)
{
    QStringList pieces = list.split(QLatin1String("; "));
    for (QString& piece : pieces)
        piece = engineText(piece);
    return pieces.join(QLatin1String("; "));
}

QString translated(const QString& message)
{
    QRegularExpressionMatch m;
    const Form* f = formOf(message, m);
    if (!f)
        return message;
    // %1…%9 filled in one pass, so a part that holds "%2" stays as it is
    const QString text = QCoreApplication::translate("EngineText", f->text);
    QString out;
    out.reserve(text.size() + message.size());
    for (qsizetype i = 0; i < text.size(); ++i) {
        const int n = text[i] == u'%' && i + 1 < text.size() ? text[i + 1].digitValue() : -1;
        if (n < 1 || n > m.lastCapturedIndex()) {
            out += text[i];
            continue;
        }
        const QString part = m.captured(n);
        // a part may be a form of its own ("not sent: …") or a list of them ("; 3 arrivals were dropped…");
        // a quoted value is the user's, shown as it is
        if (part.startsWith(u'"'))
            out += part;
        else if (part.startsWith(QLatin1String("; ")))
            for (const QString& piece : part.mid(2).split(QLatin1String("; ")))
                out += QLatin1String("; ") + engineText(piece);
        else if (QRegularExpressionMatch whole; !formOf(part, whole) && part.contains(QLatin1String("; ")))
            out += listText(part); // "threshold … failed (…); not as planned: …": each piece a form of its own
        else
            out += engineText(part);
        ++i;
    }
    return out;
}

// "steps[1].request.url: unknown variable ${x}": the field, then the message.
const QRegularExpression& fieldPrefix()
{
    static const QRegularExpression re(
        QStringLiteral("^([A-Za-z_][A-Za-z0-9_]*(?:\\[\\d+\\])?(?:\\.[A-Za-z_][A-Za-z0-9_]*(?:\\[\\d+\\])?)*): (.*)$"),
        QRegularExpression::DotMatchesEverythingOption);
    return re;
}

} // namespace

QString engineText(const QString& text)
{
    QRegularExpressionMatch m;
    if (formOf(text, m)) // a whole form first: "aborted: …" is not a field
        return translated(text);
    const QRegularExpressionMatch field = fieldPrefix().match(text);
    if (field.hasMatch() && formOf(field.captured(2), m))
        return field.captured(1) + QStringLiteral(": ") + translated(field.captured(2));
    return text;
}

QString engineTextCode(const QString& text)
{
    QRegularExpressionMatch m;
    if (const Form* f = formOf(text, m))
        return QString::fromLatin1(f->code);
    const QRegularExpressionMatch field = fieldPrefix().match(text);
    if (field.hasMatch())
        if (const Form* f = formOf(field.captured(2), m))
            return QString::fromLatin1(f->code);
    return QString();
}

QString eventKindText(const QString& kind)
{
    static const QList<QPair<const char*, const char*>> kinds{
        {"paused", QT_TRANSLATE_NOOP("EngineText", "paused")},
        {"resumed", QT_TRANSLATE_NOOP("EngineText", "resumed")},
        {"scaled", QT_TRANSLATE_NOOP("EngineText", "load scaled")},
        {"breaker", QT_TRANSLATE_NOOP("EngineText", "breaker")},
        {"breaker_recovered", QT_TRANSLATE_NOOP("EngineText", "recovered")},
        {"stopped_by_breaker", QT_TRANSLATE_NOOP("EngineText", "stopped by the breaker")},
        {"capacity_level", QT_TRANSLATE_NOOP("EngineText", "capacity level")},
        {"capacity_settle", QT_TRANSLATE_NOOP("EngineText", "capacity: settled")},
        {"capacity_draining", QT_TRANSLATE_NOOP("EngineText", "capacity: draining, run again")},
        {"capacity_generator", QT_TRANSLATE_NOOP("EngineText", "capacity: the generator lagged, run again")},
        {"server_metric", QT_TRANSLATE_NOOP("EngineText", "server metric")},
        {"agent_lost", QT_TRANSLATE_NOOP("EngineText", "agent lost")},
        {"agent_error", QT_TRANSLATE_NOOP("EngineText", "agent error")},
        {"run_aborted", QT_TRANSLATE_NOOP("EngineText", "run aborted")},
        {"sent_after_loss", QT_TRANSLATE_NOOP("EngineText", "sent after loss")},
        {"rebalanced", QT_TRANSLATE_NOOP("EngineText", "share taken over")},
        {"share_joined", QT_TRANSLATE_NOOP("EngineText", "share went on")},
        {"rebalance_failed", QT_TRANSLATE_NOOP("EngineText", "share not taken over")},
        {"generator_limited", QT_TRANSLATE_NOOP("EngineText", "generator saturated")},
        {"stop_requested", QT_TRANSLATE_NOOP("EngineText", "stop asked")},
        {"lease_expired", QT_TRANSLATE_NOOP("EngineText", "lease expired")},
        {"data_exhausted", QT_TRANSLATE_NOOP("EngineText", "data set exhausted")},
        {"bad_data", QT_TRANSLATE_NOOP("EngineText", "bad data")},
        {"output", QT_TRANSLATE_NOOP("EngineText", "output")},
        {"stopped_by_step", QT_TRANSLATE_NOOP("EngineText", "stopped by a step")},
        {"setup", QT_TRANSLATE_NOOP("EngineText", "setup")},
        {"setup_failed", QT_TRANSLATE_NOOP("EngineText", "setup failed")},
        {"teardown", QT_TRANSLATE_NOOP("EngineText", "teardown")},
        {"teardown_failed", QT_TRANSLATE_NOOP("EngineText", "teardown failed")},
        {"console", QT_TRANSLATE_NOOP("EngineText", "console")},
        {"console_dropped", QT_TRANSLATE_NOOP("EngineText", "console lines not kept")},
    };
    for (const auto& [code, text] : kinds)
        if (kind == QLatin1String(code))
            return QCoreApplication::translate("EngineText", text);
    return kind;
}
