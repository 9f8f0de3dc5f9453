// Issue 49: an answer judged for its step as an object of its own (run/answerjudge.h), tested without a worker, a
// session or a clock: real plans compiled from scenario JSON, real scripts, the answers given. The verdict, what
// it extracts, what it counts and what a sample keeps are what a user reads in the summary.
#include "compiledplan.h"
#include "plan/scenarioplan.h"
#include "run/answerjudge.h"
#include "run/scriptstep.h"

#include "stampede/v1/scenario.pb.h"

#include <QByteArray>
#include <QTest>

#include <memory>

using namespace stampede;

namespace {

std::unique_ptr<ScenarioPlan> compile(const std::string& steps)
{
    return compiledPlan("{\"steps\": [" + steps + "], \"load\": {\"closed\": {\"users\": 1}}}");
}

// A plan, its users' values, a judge over them (and the scripts, when the plan has some), and the second that
// counts.
struct Bench
{
    explicit Bench(const std::string& steps, bool collection = false)
        : plan(compile(steps)), values(*plan), judge(*plan, values), second(std::make_unique<IntervalMetrics>())
    {
        plan->testsVerdict = collection;
        values.reset(1);
        second->steps.resize(plan->steps.size());
        for (std::size_t i = 0; i < plan->steps.size(); ++i)
            second->steps[i].checks.resize(plan->steps[i].checks.size());
        if (ScriptStep::needed(*plan)) {
            scripts = std::make_unique<ScriptStep>(*plan, 1, values, cursors, judge.tally());
            judge.setScripts(scripts.get());
            scripts->newIteration(0, false);
        }
        values.newIteration(0, false, cursors);
    }
    // An HTTP answer of `status` with `headers` and `body`, as a session hands it over.
    Verdict judged(std::size_t step, int status, const std::string& body, std::string& why,
                   HeaderPairs headers = {{"Content-Type", "application/json"}})
    {
        m_headers = std::move(headers);
        m_body = body;
        Answer answer;
        answer.setHttpStatus(status);
        answer.headers = &m_headers;
        answer.body = &m_body;
        view = judge.view(plan->steps[step], answer, 7 * kNanosPerMilli);
        const Verdict v = judge.judge({0, step, nullptr, {}, *second}, view, answer.statusFailed(), why);
        judge.countInto(second->steps[step]);
        return v;
    }
    std::string valueOf(const std::string& name) { return ownValue(*plan, values, 0, name); }

    std::unique_ptr<ScenarioPlan> plan;
    UserValues values;
    std::vector<SourceCursorPtr> cursors;
    AnswerJudge judge;
    IntervalMetricsPtr second;
    std::unique_ptr<ScriptStep> scripts;
    AnswerView view;
    HeaderPairs m_headers;
    std::string m_body;
};

const std::string kLogin = "{\"name\": \"login\", \"request\": {\"url\": \"http://127.0.0.1:9/login\"}, "
                           "\"checks\": [{\"name\": \"ok\", \"status\": [200]}, "
                           "{\"name\": \"code\", \"jsonPath\": \"$.code\", \"equals\": \"0\"}], "
                           "\"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.data.token\"}]}";
const std::string kUse = "{\"name\": \"use\", \"request\": {\"url\": \"http://127.0.0.1:9/use?t=${token}\"}}";

} // namespace

class TestAnswerJudge : public QObject
{
    Q_OBJECT

private slots:
    // An answer that passes every check gives the user its values; one that fails a check gives none, says which
    // check and what it saw, and each check is counted once.
    void aPassingAnswerExtractsAFailingOneDoesNot()
    {
        Bench b(kLogin + ", " + kUse);
        std::string why;
        QCOMPARE(b.judged(0, 200, "{\"code\": 0, \"data\": {\"token\": \"abc\"}}", why), Verdict::Pass);
        QVERIFY(why.empty());
        QCOMPARE(b.valueOf("token"), std::string("abc"));
        QCOMPARE(b.judged(0, 200, "{\"code\": 3, \"data\": {\"token\": \"xyz\"}}", why), Verdict::CheckFailed);
        QVERIFY2(why.find("check \"code\"") != std::string::npos, why.c_str());
        QCOMPARE(b.valueOf("token"), std::string("abc")); // the failed answer's token is not taken
        const StepMetrics& m = b.second->steps[0];
        QCOMPARE(m.checks[0].passed, std::uint64_t(2));
        QCOMPARE(m.checks[1].passed, std::uint64_t(1));
        QCOMPARE(m.checks[1].failed, std::uint64_t(1));
    }

    // A status its protocol calls an error is a status error, with no account of the checks' (its status is its
    // account), unless a status check accepts it.
    void anErrorStatusIsAStatusErrorUnlessAccepted()
    {
        Bench plain("{\"name\": \"a\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}}");
        std::string why = "left over";
        QCOMPARE(plain.judged(0, 503, "busy", why), Verdict::StatusError);
        QVERIFY(why.empty());
        Bench accepted("{\"name\": \"a\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}, "
                       "\"checks\": [{\"name\": \"gone\", \"status\": [404]}]}");
        QCOMPARE(accepted.judged(0, 404, "", why), Verdict::Pass);
        QCOMPARE(accepted.second->steps[0].checks[0].passed, std::uint64_t(1));
    }

    // Checks read the body as the server meant it: a deflate'd answer is decoded for them (and for the sample);
    // a step whose checks read no body leaves it as it came.
    void aCompressedBodyIsReadDecoded()
    {
        Bench b(kLogin);
        const QByteArray zlib = qCompress(QByteArray("{\"code\": 0, \"data\": {\"token\": \"z1\"}}")).mid(4);
        std::string why;
        QCOMPARE(b.judged(0, 200, zlib.toStdString(), why,
                          {{"Content-Type", "application/json"}, {"Content-Encoding", "deflate"}}),
                 Verdict::Pass);
        QCOMPARE(b.valueOf("token"), std::string("z1"));
        QCOMPARE(std::string(b.view.body), std::string("{\"code\": 0, \"data\": {\"token\": \"z1\"}}"));
        QCOMPARE(b.view.elapsedNanos, std::int64_t(7 * kNanosPerMilli));

        Bench status("{\"name\": \"a\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}, "
                     "\"checks\": [{\"name\": \"ok\", \"status\": [200]}]}");
        QCOMPARE(status.judged(0, 200, zlib.toStdString(), why, {{"Content-Encoding", "deflate"}}), Verdict::Pass);
        QCOMPARE(status.view.body.size(), std::size_t(zlib.size())); // nothing reads it: not decoded
    }

    // The test script runs on every answer: its failed pm.test fails the step with the test's name, after the
    // step's own checks passed; a throw is a script failure.
    void theTestScriptJudgesAfterTheChecks()
    {
        Bench b("{\"name\": \"a\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}, "
                "\"checks\": [{\"name\": \"ok\", \"status\": [200]}], "
                "\"testScript\": \"pm.test('has id', () => pm.expect(pm.response.json().id).to.equal(5));\"}");
        std::string why;
        QCOMPARE(b.judged(0, 200, "{\"id\": 5}", why), Verdict::Pass);
        QCOMPARE(b.judged(0, 200, "{\"id\": 6}", why), Verdict::CheckFailed);
        QVERIFY2(why.find("has id") != std::string::npos, why.c_str());
        const StepMetrics& m = b.second->steps[0];
        QCOMPARE(b.plan->steps[0].checks.size(), std::size_t(2)); // the pm.test is a check of the step
        QCOMPARE(m.checks[0].passed, std::uint64_t(2));
        QCOMPARE(m.checks[1].passed, std::uint64_t(1));
        QCOMPARE(m.checks[1].failed, std::uint64_t(1));

        Bench throws("{\"name\": \"a\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}, "
                     "\"testScript\": \"nope();\"}");
        QCOMPARE(throws.judged(0, 200, "", why), Verdict::ScriptFailed);
        QVERIFY2(why.find("nope") != std::string::npos, why.c_str());
    }

    // A try that is retried is forgotten: nothing of what its checks said is counted.
    void aDroppedTryCountsNothing()
    {
        Bench b(kLogin);
        std::string why;
        Answer answer;
        answer.setHttpStatus(500);
        const AnswerView v = b.judge.view(b.plan->steps[0], answer, 0);
        QCOMPARE(b.judge.judge({0, 0, nullptr, {}, *b.second}, v, true, why), Verdict::StatusError);
        b.judge.drop();
        b.judge.countInto(b.second->steps[0]);
        QCOMPARE(b.second->steps[0].checks[0].failed + b.second->steps[0].checks[0].passed, std::uint64_t(0));
    }

    // A collection's test script runs also when no answer came (newman's), its tests counted; outside a
    // collection run it does not run.
    void aCollectionsTestsRunOnNoAnswer()
    {
        const std::string step = "{\"name\": \"a\", \"request\": {\"url\": \"http://127.0.0.1:9/\"}, "
                                 "\"testScript\": \"pm.test('ran', () => {});\"}";
        Bench collection(step, true);
        collection.judge.judgeNoAnswer({0, 0, nullptr, {}, *collection.second}, 0);
        collection.judge.countInto(collection.second->steps[0]);
        QCOMPARE(collection.second->steps[0].checks[0].passed, std::uint64_t(1));
        Bench run(step, false);
        run.judge.judgeNoAnswer({0, 0, nullptr, {}, *run.second}, 0);
        run.judge.countInto(run.second->steps[0]);
        QCOMPARE(run.second->steps[0].checks[0].passed + run.second->steps[0].checks[0].failed, std::uint64_t(0));
    }

    // A sample keeps the head and the first KiB of the body, the account and the trace; no more than the budget
    // of a class per step and second.
    void samplesKeepTheStartAndAreBudgeted()
    {
        IntervalMetrics second;
        second.second = 4;
        const std::string raw = "HTTP/1.1 503 Busy\r\nRetry-After: 1\r\n\r\n" + std::string(3000, 'x');
        for (int i = 0; i < 100; ++i)
            keepRawSample(second, 2, ErrorClass::Http5xx, 503, raw, "busy", "trace-1");
        QVERIFY(!second.samples.empty());
        QVERIFY(second.samples.size() < 100);
        const ErrorSample& e = second.samples.front();
        QCOMPARE(e.head, std::string("HTTP/1.1 503 Busy\r\nRetry-After: 1"));
        QCOMPARE(e.body.size(), kSampleBodyLimit);
        QCOMPARE(e.step, std::uint32_t(2));
        QCOMPARE(e.second, std::uint32_t(4));
        QCOMPARE(e.trace, std::string("trace-1"));
        const std::size_t kept = second.samples.size();
        keepRawSample(second, 3, ErrorClass::Http5xx, 503, raw, "busy"); // another step has its own budget
        QCOMPARE(second.samples.size(), kept + 1);

        HeaderPairs headers{{"grpc-status", "5"}};
        AnswerView a;
        a.status = 5;
        a.statusName = "grpc-status";
        a.codeName = "NOT_FOUND";
        a.headers = &headers;
        a.body = "{\"id\": 1}";
        keepAnswerSample(second, 0, ErrorClass::Check, a, "check \"found\"", {});
        const ErrorSample& c = second.samples.back();
        QCOMPARE(c.status, 0); // a protocol's own code is in the head, not taken for HTTP's
        QCOMPARE(c.head, std::string("grpc-status: 5 NOT_FOUND\r\ngrpc-status: 5"));
        QCOMPARE(c.body, std::string("{\"id\": 1}"));
        QCOMPARE(c.detail, std::string("check \"found\""));
    }

    // A status error's account: a protocol's own code by its name with the server's words (gRPC's); HTTP's has
    // none (the answer's start is its sample).
    void aStatusErrorsAccountNamesTheCode()
    {
        Answer call;
        call.setHttpStatus(200);
        call.code = 5;
        call.statusError = ErrorClass::Grpc;
        call.statusName = "grpc-status";
        call.codeName = "NOT_FOUND";
        call.statusMessage = "no user 7";
        QCOMPARE(statusAccount(call), std::string("grpc-status 5 NOT_FOUND: no user 7"));
        call.statusMessage = {};
        QCOMPARE(statusAccount(call), std::string("grpc-status 5 NOT_FOUND"));
        Answer http;
        http.setHttpStatus(503);
        QCOMPARE(statusAccount(http), std::string());
    }
};

QTEST_APPLESS_MAIN(TestAnswerJudge)
#include "tst_answerjudge.moc"
