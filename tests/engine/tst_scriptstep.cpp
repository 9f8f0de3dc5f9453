// Issue 49: a step's Postman scripts as an object of their own (run/scriptstep.h), tested without a worker, a
// session or a clock: the scripts are real (SpiderMonkey), the answers given.
#include "compiledplan.h"
#include "plan/scenarioplan.h"
#include "run/requestrenderer.h"
#include "run/scriptstep.h"

#include "stampede/v1/scenario.pb.h"

#include <QTest>

#include <memory>

using namespace stampede;

namespace {

std::unique_ptr<ScenarioPlan> compile(const std::string& json)
{
    return compiledPlan(json.substr(0, json.size() - 1) + ", \"load\": {\"closed\": {\"users\": 1}}}");
}

// A step of `url` with its scripts (JavaScript, quoted here for JSON).
std::string step(const std::string& name, const std::string& url, const std::string& pre, const std::string& test)
{
    std::string s = "{\"name\": \"" + name + "\", \"request\": {\"url\": \"" + url + "\"}";
    if (!pre.empty())
        s += ", \"preRequestScript\": \"" + pre + "\"";
    if (!test.empty())
        s += ", \"testScript\": \"" + test + "\"";
    return s + "}";
}

// The plan, two users' values and a ScriptStep over them, and the second that counts.
struct Bench
{
    explicit Bench(const std::string& json, std::uint32_t users = 1)
        : plan(compile(json)), values(*plan), second(std::make_unique<IntervalMetrics>())
    {
        values.reset(users);
        second->steps.resize(plan->steps.size());
        for (std::size_t i = 0; i < plan->steps.size(); ++i)
            second->steps[i].checks.resize(plan->steps[i].checks.size());
        scripts = std::make_unique<ScriptStep>(*plan, users, values, cursors, tally);
        for (std::uint32_t u = 0; u < users; ++u)
            newIteration(u);
    }
    void newIteration(std::uint32_t user)
    {
        values.newIteration(user, false, cursors);
        scripts->newIteration(user, false);
    }
    // The test script of `step` on an answer of `status` with `body`; what the tally then counted.
    Verdict test(std::uint32_t user, std::size_t step, int status, const std::string& body, std::string& why,
                 std::string_view cookies = {}, Verdict verdict = Verdict::Pass)
    {
        static const HeaderPairs none;
        AnswerView a;
        a.status = status;
        a.headers = &none;
        a.body = body;
        tally.open(plan->steps[step].checks.size());
        scripts->runTest(user, step, a, cookies, nullptr, *second, verdict, why);
        tally.countInto(second->steps[step]);
        return verdict;
    }
    std::string valueOf(std::uint32_t user, const std::string& name) { return ownValue(*plan, values, user, name); }

    std::unique_ptr<ScenarioPlan> plan;
    UserValues values;
    std::vector<SourceCursorPtr> cursors;
    CheckTally tally;
    IntervalMetricsPtr second;
    std::unique_ptr<ScriptStep> scripts;
};

const std::string kUrl = "http://127.0.0.1:9/a";

} // namespace

class TestScriptStep : public QObject
{
    Q_OBJECT

private slots:
    // A plan without scripts needs none; one step with a script makes the plan need them.
    void onlyAPlanWithScriptsNeedsThem()
    {
        QVERIFY(!ScriptStep::needed(*compile("{\"steps\": [" + step("a", kUrl, "", "") + "]}")));
        QVERIFY(ScriptStep::needed(*compile("{\"steps\": [" + step("a", kUrl, "", "") + ", " +
                                            step("b", kUrl, "", "pm.test('t', () => {});") + "]}")));
    }

    // A pre-request script's pm.tests are counted with its step, as newman lists them, and its console lines are
    // kept with the second; the request goes.
    void aPreRequestScriptsTestsAndConsoleAreKept()
    {
        Bench b("{\"steps\": [" +
                step("a", kUrl, "console.log('before'); pm.test('pre', () => pm.expect(1).to.equal(2));", "") + "]}");
        std::string why;
        QCOMPARE(b.scripts->runPre(0, 0, *b.second, why), ScriptStep::Pre::Send);
        QVERIFY(why.empty());
        const StepMetrics& m = b.second->steps[0];
        QCOMPARE(b.plan->steps[0].checks.size(), std::size_t(1)); // pm.test('pre') is a check of the step
        QCOMPARE(b.plan->steps[0].checks[0].name, std::string("pre"));
        QCOMPARE(m.checks[0].failed, std::uint64_t(1));
        QCOMPARE(m.checks[0].passed, std::uint64_t(0));
        QVERIFY(m.named.empty());
        QCOMPARE(b.second->console.size(), std::size_t(1));
        QCOMPARE(b.second->console[0].text, std::string("before"));
        QVERIFY(!b.scripts->changesRequest(0));
    }

    // A pre-request script that throws is not sent: why says where, with what it printed; nothing of it is
    // applied. pm.execution.skipRequest() skips the step.
    void aThrowingScriptFailsAndASkippedOneIsSkipped()
    {
        Bench b("{\"steps\": [" +
                step("a", kUrl, "console.log('seen'); pm.request.headers.add({key: 'X-A', value: '1'}); boom();", "") +
                ", " + step("b", kUrl, "pm.execution.skipRequest();", "") + "]}");
        std::string why;
        QCOMPARE(b.scripts->runPre(0, 0, *b.second, why), ScriptStep::Pre::Failed);
        QVERIFY2(why.find("steps[0].preRequestScript") != std::string::npos, why.c_str());
        QVERIFY2(why.find("boom") != std::string::npos, why.c_str());
        QVERIFY2(why.find("seen") != std::string::npos, why.c_str());
        QVERIFY(!b.scripts->changesRequest(0));
        why.clear();
        QCOMPARE(b.scripts->runPre(0, 1, *b.second, why), ScriptStep::Pre::Skip);
        QVERIFY(why.empty());
    }

    // What a pre-request script changed goes into the user's own copy of the request as rendered, and only there:
    // the header it added, the query it set.
    void aScriptsChangesGoIntoTheUsersCopy()
    {
        Bench b("{\"steps\": [" +
                step("a", kUrl,
                     "pm.request.headers.add({key: 'X-Order', value: '42'}); pm.request.url = pm.request.url + '?q=1';",
                     "") +
                "]}");
        std::string why;
        QVERIFY2(b.scripts->runPre(0, 0, *b.second, why) == ScriptStep::Pre::Send, why.c_str());
        QVERIFY(b.scripts->changesRequest(0));
        RequestRenderer renderer(*b.plan, false);
        RenderedRequest mine = renderer.fixed(0);
        QVERIFY2(b.scripts->change(0, 0, mine, why), why.c_str());
        QVERIFY2(mine.wire.find("GET /a?q=1 HTTP/1.1\r\n") == 0, mine.wire.c_str());
        QVERIFY2(mine.wire.find("\r\nX-Order: 42\r\n") != std::string::npos, mine.wire.c_str());
        QVERIFY(renderer.fixed(0).wire.find("X-Order") == std::string::npos); // the plan's request is untouched
    }

    // pm.request.url as Postman's Url: its parts read from the URL as written (a name of the scenario's left as
    // written), a change to its query written back into the request that goes. Shapes: values missing or empty,
    // no path, a template in the path and the query.
    void theUrlObjectReadsAndChangesItsParts_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("parts"); // host, port, path, getPath(), getQueryString(), query.get('x')
        QTest::addColumn<QString>("sent");  // the request line after query.upsert({key: 'x', value: '2'})
        QTest::newRow("values missing and empty")
            << QStringLiteral("http://127.0.0.1:9/a/b?x=1&y&z=")
            << QStringLiteral("[[\"127\",\"0\",\"0\",\"1\"],\"9\",[\"a\",\"b\"],\"/a/b\",\"x=1&y&z=\",\"1\"]")
            << QStringLiteral("GET /a/b?x=2&y&z= HTTP/1.1");
        QTest::newRow("no path, no query") << QStringLiteral("http://127.0.0.1:9")
                                           << QStringLiteral("[[\"127\",\"0\",\"0\",\"1\"],\"9\",null,\"/\",\"\",null]")
                                           << QStringLiteral("GET /?x=2 HTTP/1.1");
        QTest::newRow("names of the scenario")
            << QStringLiteral("http://127.0.0.1:9/${p}?x=${v}&k=1")
            << QStringLiteral("[[\"127\",\"0\",\"0\",\"1\"],\"9\",[\"${p}\"],\"/${p}\",\"x=${v}&k=1\",\"${v}\"]")
            << QStringLiteral("GET /pp?x=2&k=1 HTTP/1.1");
    }
    void theUrlObjectReadsAndChangesItsParts()
    {
        QFETCH(QString, url);
        QFETCH(QString, parts);
        QFETCH(QString, sent);
        const std::string script = "const u = pm.request.url; console.log(JSON.stringify([u.host, u.port ?? null, "
                                   "u.path ?? null, u.getPath(), u.getQueryString(), u.query.get('x') ?? null])); "
                                   "u.query.upsert({key: 'x', value: '2'});";
        Bench b("{\"variables\": [{\"name\": \"p\", \"constant\": {\"value\": \"pp\"}}, {\"name\": \"v\", "
                "\"constant\": {\"value\": \"vv\"}}], \"steps\": [" +
                step("a", url.toStdString(), script, "") + "]}");
        std::string why;
        QVERIFY2(b.scripts->runPre(0, 0, *b.second, why) == ScriptStep::Pre::Send, why.c_str());
        QCOMPARE(b.second->console.size(), std::size_t(1));
        QCOMPARE(QString::fromStdString(b.second->console[0].text), parts);
        RequestRenderer renderer(*b.plan, false);
        RenderedRequest mine = renderer.fixed(0);
        QVERIFY2(b.scripts->change(0, 0, mine, why), why.c_str());
        QCOMPARE(QString::fromStdString(mine.wire.substr(0, mine.wire.find("\r\n"))), sent);
    }

    // The test script: a pm.test that fails makes a passing answer CheckFailed, named; one that throws makes it
    // ScriptFailed; a verdict that already failed stays; each pm.test is tallied as the check of its name.
    void theTestScriptJudgesAndIsTallied()
    {
        Bench b("{\"steps\": [" +
                step("a", kUrl, "",
                     "pm.test('small', () => pm.expect(pm.response.json().n).to.be.below(3));"
                     "if (pm.response.json().n === 9) undefinedThing();") +
                "]}");
        std::string why;
        QCOMPARE(b.test(0, 0, 200, "{\"n\": 1}", why), Verdict::Pass);
        QVERIFY(why.empty());
        QCOMPARE(b.test(0, 0, 200, "{\"n\": 5}", why), Verdict::CheckFailed);
        QVERIFY2(why.find("check \"small\"") == 0, why.c_str());
        why.clear();
        QCOMPARE(b.test(0, 0, 500, "{\"n\": 5}", why, {}, Verdict::StatusError), Verdict::StatusError);
        why.clear();
        QCOMPARE(b.test(0, 0, 200, "{\"n\": 9}", why), Verdict::ScriptFailed);
        QVERIFY2(why.find("undefinedThing") != std::string::npos, why.c_str());
        const StepMetrics& m = b.second->steps[0];
        QCOMPARE(m.checks.size(), std::size_t(1)); // the plan knows pm.test('small') as the step's check
        QCOMPARE(m.checks[0].passed, std::uint64_t(1));
        QCOMPARE(m.checks[0].failed, std::uint64_t(3));
    }

    // A value the script sets of a name the plan uses is the user's own, for the requests that send it; each user
    // keeps its own; pm.cookies reads the Cookie header it is given.
    void aScriptSetsTheUsersOwnValues()
    {
        Bench b(
            "{\"steps\": [" +
                step("a", kUrl, "", "pm.environment.set('u', pm.cookies.get('sid') + '-' + pm.response.json().id);") +
                ", " + step("b", "http://127.0.0.1:9/b?u=${u}", "", "") + "]}",
            2);
        std::string why;
        QCOMPARE(b.test(0, 0, 200, "{\"id\": 7}", why, "sid=abc"), Verdict::Pass);
        QCOMPARE(b.test(1, 0, 200, "{\"id\": 8}", why, "sid=def; x=1"), Verdict::Pass);
        QCOMPARE(b.valueOf(0, "u"), std::string("abc-7"));
        QCOMPARE(b.valueOf(1, "u"), std::string("def-8"));
    }

    // postman.setNextRequest: where the user goes after its step (by name; null ends the iteration), once.
    void setNextRequestIsTakenOnce()
    {
        Bench b("{\"steps\": [" +
                step("a", kUrl, "", "postman.setNextRequest(pm.response.code === 200 ? 'c' : null);") + ", " +
                step("b", kUrl, "", "") + ", " + step("c", kUrl, "", "") + "]}");
        std::string why;
        QCOMPARE(b.scripts->takeJump(0), StepScripts::kNoJump);
        b.test(0, 0, 200, "", why);
        QCOMPARE(b.scripts->takeJump(0), 2);
        QCOMPARE(b.scripts->takeJump(0), StepScripts::kNoJump);
        b.test(0, 0, 404, "", why);
        QCOMPARE(b.scripts->takeJump(0), StepScripts::kEndIteration);
        b.test(0, 0, 200, "", why);
        b.newIteration(0); // a new iteration asks for no jump
        QCOMPARE(b.scripts->takeJump(0), StepScripts::kNoJump);
    }
};

QTEST_GUILESS_MAIN(TestScriptStep)
#include "tst_scriptstep.moc"
