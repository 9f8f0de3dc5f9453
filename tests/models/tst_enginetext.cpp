// The engine's messages in the user's language: each message here is made by
// the engine itself (a scenario's faults, a Send that cannot connect, a failed
// check's sample, a run's verdict), so a change of the engine's wording that
// the workbench no longer knows fails here instead of showing English in the
// Chinese workbench.
#include "enginetext.h"
#include "scenariocheck.h"

#include "check/checks.h"
#include "plan/scenarioplan.h"
#include "report/runsummary.h"
#include "send/sendonce.h"
#include "stampede/v1/scenario.pb.h"

#include <QCoreApplication>
#include <QTest>
#include <QTranslator>

#include <memory>

namespace {

// "field: message" of the first fault of `json` whose field is `field`.
QString faultOf(const QByteArray& json, const QString& field)
{
    for (const auto& [f, message] : ScenarioCheck::validate(json))
        if (f == field)
            return f + QStringLiteral(": ") + message;
    return QString();
}

QString scenario(const char* steps, const char* load = "\"load\": {\"closed\": {\"users\": 1}}")
{
    return QStringLiteral("{\"name\": \"s\", \"steps\": %1, %2}")
        .arg(QString::fromUtf8(steps), QString::fromUtf8(load));
}

std::string checkWhy(stampede::Check c, const stampede::AnswerView& a)
{
    stampede::JsonReader reader;
    stampede::AnswerJson json(reader, a.body);
    std::string why;
    if (c.evaluate(a, json, why))
        return "(passed)";
    return "check \"" + c.name + "\": " + why; // as the worker keeps a failed check's sample
}

bool hasCjk(const QString& s)
{
    for (const QChar c : s)
        if (c.unicode() >= 0x4e00 && c.unicode() <= 0x9fff)
            return true;
    return false;
}

} // namespace

class TestEngineText : public QObject
{
    Q_OBJECT

    // What the engine said, with the code it must be known by and parts that
    // must stay as they are in any language.
    struct Said
    {
        QString text;
        QString code;
        QStringList kept;
    };
    QList<Said> m_said;

private Q_SLOTS:
    void initTestCase()
    {
        using namespace stampede;
        const auto json = [](const QString& s) { return s.toUtf8(); };
        m_said << Said{faultOf(json(scenario("[]")), QStringLiteral("steps")), QStringLiteral("no-steps"), {}};
        m_said << Said{faultOf(json(scenario("[{\"request\": {\"url\": \"http://127.0.0.1:9/${nowhere}\"}}]")),
                               QStringLiteral("steps[0].request.url")),
                       QStringLiteral("unknown-variable"),
                       {QStringLiteral("${nowhere}"), QStringLiteral("steps[0].request.url")}};
        m_said << Said{faultOf(json(scenario("[{\"request\": {\"url\": \"http://127.0.0.1:9/\", \"headers\": "
                                             "[{\"name\": \"bad name\", \"value\": \"v\"}]}}]")),
                               QStringLiteral("steps[0].request.headers[0].name")),
                       QStringLiteral("not-header-name"),
                       {QStringLiteral("bad name")}};
        m_said << Said{faultOf(json(scenario("[{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}]", "\"load\": {}")),
                               QStringLiteral("load")),
                       QStringLiteral("choose-model"),
                       {}};
        m_said << Said{faultOf(json(scenario("[{\"request\": {}}]")), QStringLiteral("steps[0].request.url")),
                       QStringLiteral("needs-url"),
                       {}};
        const QStringList warned = ScenarioCheck::warnings(json(
            scenario("[{\"request\": {\"url\": \"http://127.0.0.1:9/\", \"headers\": [{\"name\": \"A\", \"value\": "
                     "\"${token}\"}]}}, {\"request\": {\"url\": \"http://127.0.0.1:9/\"}, \"extract\": "
                     "[{\"name\": \"token\", \"jsonPath\": \"$.t\"}]}]")));
        m_said << Said{warned.value(0), QStringLiteral("used-before-extracted"), {QStringLiteral("${token}")}};

        // Send to a port nothing listens on
        SendOnceRequest rq;
        rq.stepJson = R"({"request": {"url": "http://127.0.0.1:1/x"}})";
        const SendOnceResult r = sendOnce(rq);
        m_said << Said{
            QString::fromStdString(r.http.error), QStringLiteral("cannot-connect"), {QStringLiteral("127.0.0.1:1")}};

        // failed checks' samples
        HeaderPairs headers{{"Content-Type", "text/plain"}};
        AnswerView a;
        a.status = 503;
        a.headers = &headers;
        a.body = R"({"code": "7"})";
        a.elapsedNanos = 900'000'000;
        Check status;
        status.name = "ok";
        status.statuses = {200, 201};
        m_said << Said{QString::fromStdString(checkWhy(status, a)),
                       QStringLiteral("check-failed"),
                       {QStringLiteral("ok"), QStringLiteral("503"), QStringLiteral("200, 201")}};
        Check fast;
        fast.name = "fast";
        fast.subject = Check::Subject::MaxTime;
        fast.maxNanos = 500'000'000;
        m_said << Said{QString::fromStdString(checkWhy(fast, a)),
                       QStringLiteral("check-failed"),
                       {QStringLiteral("900"), QStringLiteral("500")}};
        std::string error;
        Check code;
        code.name = "biz code";
        code.subject = Check::Subject::JsonPath;
        code.path = *JsonPath::compile("$.code", error);
        code.test = Check::Test::Equals;
        code.equals = "0";
        m_said << Said{QString::fromStdString(checkWhy(code, a)),
                       QStringLiteral("check-failed"),
                       {QStringLiteral("$.code"), QStringLiteral("\"7\""), QStringLiteral("\"0\"")}};
        Check header;
        header.name = "traced";
        header.subject = Check::Subject::Header;
        header.text = "X-Trace";
        header.test = Check::Test::Exists;
        m_said << Said{
            QString::fromStdString(checkWhy(header, a)), QStringLiteral("check-failed"), {QStringLiteral("X-Trace")}};
        Check body;
        body.name = "says ok";
        body.subject = Check::Subject::BodyContains;
        body.text = "ok";
        m_said << Said{QString::fromStdString(checkWhy(body, a)), QStringLiteral("check-failed"), {}};

        // verdicts
        RunSummary stopped;
        judgeRun(stopped, "stopped", 1.9, 6);
        m_said << Said{QString::fromStdString(stopped.reason),
                       QStringLiteral("stopped-when-asked"),
                       {QStringLiteral("1.900 s"), QStringLiteral("6.000 s")}};
        RunSummary aborted;
        judgeRun(aborted, "aborted", 1, 6);
        m_said << Said{QString::fromStdString(aborted.reason), QStringLiteral("aborted"), {}};
        RunSummary interrupted;
        judgeRun(interrupted, "interrupted", 1, 6);
        m_said << Said{QString::fromStdString(interrupted.reason), QStringLiteral("interrupted"), {}};
        RunSummary none;
        judgeRun(none, "completed", 6, 6);
        m_said << Said{QString::fromStdString(none.reason), QStringLiteral("no-request-completed"), {}};
        RunSummary failing;
        failing.status = "completed";
        failing.total.requests = 12;
        failing.total.errors = 12;
        judgeAsPlanned(failing, ScenarioPlan{});
        m_said << Said{
            QString::fromStdString(failing.reason), QStringLiteral("no-request-succeeded"), {QStringLiteral("12")}};
        // a plan's scenario that made a tenth of its plan
        v1::Scenario plan;
        std::string why;
        QVERIFY(parseScenarioJson("{\"scenarios\": [{\"name\": \"browse\", \"steps\": [{\"request\": {\"url\": "
                                  "\"http://127.0.0.1:9/\"}}], \"load\": {\"open\": {\"rate\": 100}}, "
                                  "\"duration\": \"2s\"}]}",
                                  plan, why));
        std::vector<PlanError> planErrors;
        PlanOptions o;
        const auto compiled = compileScenario(plan, o, planErrors);
        QVERIFY(compiled);
        RunSummary slow;
        slow.status = "completed";
        slow.total.requests = 20;
        slow.steps.resize(1);
        slow.steps[0].requests = 20;
        judgeAsPlanned(slow, *compiled);
        m_said << Said{QString::fromStdString(slow.reason),
                       QStringLiteral("not-as-planned-scenario"),
                       {QStringLiteral("browse"), QStringLiteral("20"), QStringLiteral("200")}};
    }

    void everyMessageHasItsCode()
    {
        for (const Said& s : std::as_const(m_said)) {
            QVERIFY2(!s.text.isEmpty(), qPrintable(s.code + QStringLiteral(": the engine said nothing")));
            QVERIFY2(engineTextCode(s.text) == s.code,
                     qPrintable(s.text + QStringLiteral(" -> ") + engineTextCode(s.text) + QStringLiteral(", not ") +
                                s.code));
            if (s.code != QLatin1String("cannot-connect")) // the system's "Connection refused" is reworded
                QCOMPARE(engineText(s.text), s.text);      // no translator: as the engine said it
        }
    }

    void chineseKeepsTheParts()
    {
        QTranslator zh;
        QVERIFY(zh.load(QStringLiteral(":/i18n/stampede_zh_CN.qm"))); // built into the widgets library
        QCoreApplication::installTranslator(&zh);
        for (const Said& s : std::as_const(m_said)) {
            const QString shown = engineText(s.text);
            QVERIFY2(hasCjk(shown), qPrintable(s.text + QStringLiteral(" -> ") + shown));
            for (const QString& part : s.kept)
                QVERIFY2(shown.contains(part), qPrintable(shown + QStringLiteral(" lacks ") + part));
        }
        QCOMPARE(eventKindText(QStringLiteral("agent_lost")), QStringLiteral("代理丢失"));
        QCOMPARE(eventKindText(QStringLiteral("no_such_kind")), QStringLiteral("no_such_kind"));
        QCoreApplication::removeTranslator(&zh);
    }

    // A part that holds "%2" is the user's text and stays as it is.
    void partsAreNotReadAsPlaceholders()
    {
        const QString text = QStringLiteral("check \"a %2 b\": the body does not contain \"%1\"");
        QCOMPARE(engineTextCode(text), QStringLiteral("check-failed"));
        QCOMPARE(engineText(text), text);
    }
};

QTEST_GUILESS_MAIN(TestEngineText)
#include "tst_enginetext.moc"
