// Issue 49: the verdict and checks of a step as an object of their own (run/checktally.h), tested without a
// worker: what an answer's checks and its test script said is kept until the outcome is counted, forgotten for
// a try that is retried, and the verdict the status, the checks and the script make together.
#include "run/checktally.h"

#include <QTest>

using namespace stampede;

namespace {

Check statusCheck(std::vector<int> codes)
{
    Check c;
    c.name = "status";
    c.statuses = std::move(codes);
    return c;
}

Check scriptCheck(const std::string& name)
{
    Check c;
    c.name = name;
    c.subject = Check::Subject::Script;
    return c;
}

StepMetrics metricsFor(std::size_t checks)
{
    StepMetrics m;
    m.checks.resize(checks);
    return m;
}

} // namespace

class TestCheckTally : public QObject
{
    Q_OBJECT
    JsonReader m_reader;
    HeaderPairs m_headers;

    AnswerView answer(int status)
    {
        AnswerView a;
        a.status = status;
        a.headers = &m_headers;
        return a;
    }

private slots:
    // A status check that accepts 404 makes a 404 the answer the user expected: no status error.
    void aStatusCheckAcceptsAnErrorStatus()
    {
        PlannedStep st;
        st.checks = {statusCheck({404})};
        CheckTally tally;
        const AnswerView a = answer(404);
        AnswerJson json(m_reader, a.body);
        std::string why;
        const CheckTally::Judged j = tally.judge(st, a, json, why);
        QVERIFY(j.accepted);
        QCOMPARE(j.failed, -1);
        QCOMPARE(answerVerdict(true, j, Verdict::Pass, false), Verdict::Pass);
        StepMetrics m = metricsFor(1);
        tally.countInto(m);
        QCOMPARE(m.checks[0].passed, std::uint64_t(1));
        QCOMPARE(m.checks[0].failed, std::uint64_t(0));
    }

    // A failed check says what it saw; counted once, with its message; a second count adds nothing.
    void aFailedCheckIsCountedOnceWithItsMessage()
    {
        PlannedStep st;
        st.checks = {statusCheck({200, 201})};
        CheckTally tally;
        const AnswerView a = answer(302);
        AnswerJson json(m_reader, a.body);
        std::string why;
        const CheckTally::Judged j = tally.judge(st, a, json, why);
        QCOMPARE(j.failed, 0);
        QCOMPARE(why, std::string("check \"status\": status 302, expected one of 200, 201"));
        QCOMPARE(answerVerdict(false, j, Verdict::Pass, false), Verdict::CheckFailed);
        StepMetrics m = metricsFor(1);
        tally.countInto(m);
        tally.countInto(m);
        QCOMPARE(m.checks[0].failed, std::uint64_t(1));
        QCOMPARE(m.checkMessages.at(0), std::string("status 302, expected one of 200, 201"));
    }

    // A try that is retried is not counted, nor what its checks said.
    void aRetriedTryIsForgotten()
    {
        PlannedStep st;
        st.checks = {statusCheck({200})};
        CheckTally tally;
        const AnswerView a = answer(500);
        AnswerJson json(m_reader, a.body);
        std::string why;
        tally.judge(st, a, json, why);
        tally.drop();
        StepMetrics m = metricsFor(1);
        tally.countInto(m);
        QCOMPARE(m.checks[0].passed + m.checks[0].failed, std::uint64_t(0));
    }

    // A script's pm.tests count as the checks of their names: a test the script did not run is not counted, two
    // tests of one name fail it when one fails, a name the plan did not know is counted by name; the first that
    // failed is the verdict's reason.
    void aScriptsTestsCountUnderTheirNames()
    {
        PlannedStep st;
        st.checks = {statusCheck({200}), scriptCheck("ok"), scriptCheck("never run")};
        StepScriptPlan sp;
        sp.firstCheck = 1;
        sp.tests = {"ok", "never run"};
        CheckTally tally;
        const AnswerView a = answer(200);
        AnswerJson json(m_reader, a.body);
        std::string why;
        const CheckTally::Judged j = tally.judge(st, a, json, why);
        const std::vector<ScriptRun::Test> run = {
            {"ok", true, ""}, {"ok", false, "expected 1 to equal 2"}, {"id 7", false, "no id"}, {"id 8", true, ""}};
        const ScriptRun::Test* failed = tally.tests(sp, run);
        QVERIFY(failed);
        QCOMPARE(failed->error, std::string("expected 1 to equal 2"));
        QCOMPARE(answerVerdict(false, j, Verdict::CheckFailed, true), Verdict::CheckFailed);
        StepMetrics m = metricsFor(3);
        tally.countInto(m);
        QCOMPARE(m.checks[0].passed, std::uint64_t(1));
        QCOMPARE(m.checks[1].failed, std::uint64_t(1));
        QCOMPARE(m.checks[1].passed, std::uint64_t(0));
        QCOMPARE(m.checks[2].passed + m.checks[2].failed, std::uint64_t(0)); // not run: not counted
        QCOMPARE(m.namedCount("id 7").failed, std::uint64_t(1));
        QCOMPARE(m.namedCount("id 8").passed, std::uint64_t(1));
    }

    // Pre-request tests are counted as they ran, and judge nothing.
    void preRequestTestsAreCountedAtOnce()
    {
        StepScriptPlan sp;
        sp.firstCheck = 0;
        sp.tests = {"before"};
        StepMetrics m = metricsFor(1);
        CheckTally::countTests(sp, {{"before", false, "no token"}, {"other", true, ""}}, m);
        QCOMPARE(m.checks[0].failed, std::uint64_t(1));
        QCOMPARE(m.checkMessages.at(0), std::string("no token"));
        QCOMPARE(m.namedCount("other").passed, std::uint64_t(1));
    }

    // The verdict's order: a script that threw fails a collection's run whatever the status; then the status
    // its protocol calls an error, unless accepted; then a failed check of the step's; then the script's.
    void theVerdictsOrder()
    {
        const CheckTally::Judged none, accepted{-1, true}, failedCheck{0, false};
        QCOMPARE(answerVerdict(true, none, Verdict::ScriptFailed, true), Verdict::ScriptFailed);
        QCOMPARE(answerVerdict(true, none, Verdict::ScriptFailed, false), Verdict::StatusError);
        QCOMPARE(answerVerdict(true, accepted, Verdict::ScriptFailed, false), Verdict::ScriptFailed);
        QCOMPARE(answerVerdict(true, failedCheck, Verdict::Pass, false), Verdict::StatusError);
        QCOMPARE(answerVerdict(false, failedCheck, Verdict::ScriptFailed, false), Verdict::CheckFailed);
        QCOMPARE(answerVerdict(false, none, Verdict::CheckFailed, false), Verdict::CheckFailed);
        QCOMPARE(answerVerdict(false, none, Verdict::Pass, true), Verdict::Pass);
    }
};

QTEST_GUILESS_MAIN(TestCheckTally)
#include "tst_checktally.moc"
