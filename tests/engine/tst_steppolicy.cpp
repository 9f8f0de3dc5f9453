// Issue 49: a step's plan between its sends (retry, onError, repeat) as an object of its own
// (run/steppolicy.h), tested without a worker or a clock: the times are given.
#include "run/steppolicy.h"

#include <QTest>

using namespace stampede;

namespace {

PlannedStep step(std::uint32_t retries = 0, Nanos backoff = 0, std::uint32_t repeat = 1,
                 OnError onError = OnError::NextIteration)
{
    PlannedStep st;
    st.retries = retries;
    st.backoff = backoff;
    st.repeat = repeat;
    st.onError = onError;
    return st;
}

constexpr Nanos kEnd = 10 * kNanosPerSecond;

} // namespace

class TestStepPolicy : public QObject
{
    Q_OBJECT

private slots:
    // A step with two retries and a 100 ms backoff: two more tries, each due 100 ms after its failure, then none;
    // a pass is never tried again.
    void retriesAreCountedAndSpent()
    {
        const std::vector<PlannedStep> steps{step(2, 100 * kNanosPerMilli)};
        StepPolicy p(steps, 1);
        p.begin(0, false);
        QVERIFY(!p.lastTry(0, 0));
        QCOMPARE(p.retryAt(0, 0, Verdict::Pass, ErrorClass::Protocol, 0, kEnd), StepPolicy::kNever);
        QCOMPARE(p.retryAt(0, 0, Verdict::Failed, ErrorClass::Connect, 1000, kEnd), 1000 + 100 * kNanosPerMilli);
        p.begin(0, true); // the retry keeps its count
        QCOMPARE(p.retryAt(0, 0, Verdict::StatusError, ErrorClass::Http5xx, 2000, kEnd), 2000 + 100 * kNanosPerMilli);
        p.begin(0, true);
        QVERIFY(p.lastTry(0, 0));
        QCOMPARE(p.retryAt(0, 0, Verdict::CheckFailed, ErrorClass::Check, 3000, kEnd), StepPolicy::kNever);
        p.begin(0, false); // the step's next send (a repeat, the next iteration) has its retries again
        QVERIFY(!p.lastTry(0, 0));
        QVERIFY(p.retryAt(0, 0, Verdict::Failed, ErrorClass::Timeout, 4000, kEnd) != StepPolicy::kNever);
    }

    // What would fail the same way again is not retried: a value the request cannot carry, a name never
    // extracted, a script; a try that could not go before the plan's end is not made.
    void whatWouldFailAgainIsNotRetried()
    {
        const std::vector<PlannedStep> steps{step(5, kNanosPerSecond)};
        StepPolicy p(steps, 1);
        p.begin(0, false);
        for (const ErrorClass c : {ErrorClass::Render, ErrorClass::Extract, ErrorClass::Script})
            QCOMPARE(p.retryAt(0, 0, Verdict::Failed, c, 0, kEnd), StepPolicy::kNever);
        QCOMPARE(p.retryAt(0, 0, Verdict::Failed, ErrorClass::Connect, kEnd - kNanosPerSecond, kEnd),
                 StepPolicy::kNever);
        QVERIFY(!p.lastTry(0, 0)); // none of those counted a try
        QCOMPARE(p.retryAt(0, 0, Verdict::ScriptFailed, ErrorClass::Script, 0, kEnd), kNanosPerSecond);
    }

    // Each user's tries are its own.
    void usersKeepTheirOwnTries()
    {
        const std::vector<PlannedStep> steps{step(1)};
        StepPolicy p(steps, 2);
        p.begin(0, false);
        p.begin(1, false);
        QCOMPARE(p.retryAt(0, 0, Verdict::Failed, ErrorClass::Connect, 5, kEnd), 5);
        QVERIFY(p.lastTry(0, 0));
        QVERIFY(!p.lastTry(1, 0));
        QCOMPARE(p.retryAt(1, 0, Verdict::Failed, ErrorClass::Connect, 6, kEnd), 6);
    }

    // onError: the table of what an error counted does.
    void onErrorSaysWhatFollows_data()
    {
        QTest::addColumn<int>("onError");
        QTest::addColumn<bool>("transport");
        QTest::addColumn<int>("after");
        using A = StepPolicy::AfterError;
        QTest::newRow("continue") << int(OnError::Continue) << false << int(A::GoOn);
        QTest::newRow("continue, failed in its send") << int(OnError::Continue) << true << int(A::GoOnNextTurn);
        QTest::newRow("nextIteration") << int(OnError::NextIteration) << true << int(A::EndIteration);
        QTest::newRow("stopUser") << int(OnError::StopUser) << false << int(A::StopUser);
        QTest::newRow("stopRun") << int(OnError::StopRun) << true << int(A::StopRun);
    }
    void onErrorSaysWhatFollows()
    {
        QFETCH(int, onError);
        QFETCH(bool, transport);
        QFETCH(int, after);
        QCOMPARE(int(StepPolicy::afterError(step(0, 0, 1, OnError(onError)), transport)), after);
    }

    // Three steps, the second repeated three times: 0, 1, 1, 1, 2, then the end; the next iteration the same.
    void repeatsThenTheNextStep()
    {
        const std::vector<PlannedStep> steps{step(), step(0, 0, 3), step()};
        StepPolicy p(steps, 1);
        for (int iteration = 0; iteration < 2; ++iteration) {
            p.newIteration(0);
            std::vector<std::size_t> order{0};
            for (std::size_t s = 0; (s = p.next(0, s, StepPolicy::kNoJump)) != StepPolicy::kEnd;)
                order.push_back(s);
            QCOMPARE(order, (std::vector<std::size_t>{0, 1, 1, 1, 2}));
        }
    }

    // A script's jump (postman.setNextRequest) goes where it says, before the step's own repeats; a jump to no
    // step or past the last ends the iteration; the step jumped to starts its repeats anew.
    void aJumpGoesBeforeRepeats()
    {
        const std::vector<PlannedStep> steps{step(0, 0, 2), step(0, 0, 2), step()};
        StepPolicy p(steps, 1);
        p.newIteration(0);
        QCOMPARE(p.next(0, 0, 2), std::size_t(2)); // not step 0's second send
        QCOMPARE(p.next(0, 2, 1), std::size_t(1));
        QCOMPARE(p.next(0, 1, StepPolicy::kNoJump), std::size_t(1)); // step 1's own second send
        QCOMPARE(p.next(0, 1, StepPolicy::kNoJump), std::size_t(2));
        QCOMPARE(p.next(0, 2, StepScripts::kEndIteration), StepPolicy::kEnd);
        QCOMPARE(p.next(0, 0, 7), StepPolicy::kEnd);
    }
};

QTEST_APPLESS_MAIN(TestStepPolicy)
#include "tst_steppolicy.moc"
