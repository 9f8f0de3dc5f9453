// Issue 49: the worker's waits, its early end, its calendar and a step's request made ready, each an object of
// its own (run/userwaits.h, run/workerend.h, run/workercalendar.h, run/requestprep.h), tested without a loop or a
// clock: times are given, plans are real scenarios compiled, scripts are real (SpiderMonkey).
#include "compiledplan.h"
#include "run/requestprep.h"
#include "run/userwaits.h"
#include "run/workercalendar.h"
#include "run/workerend.h"

#include <QTest>

#include <memory>

using namespace stampede;

namespace {

std::string step(const std::string& name, const std::string& url, const std::string& extra = {})
{
    return "{\"name\": \"" + name + "\", \"request\": {\"url\": \"" + url + "\"}" + extra + "}";
}

std::string targetOf(const RenderedRequest& r)
{
    return std::string(requestTarget(r));
}

// A plan of `steps` for one user, its values, requests, scripts and a RequestPrep over them.
struct Prep
{
    explicit Prep(const std::string& steps)
        : plan(compiledPlan("{\"steps\": [" + steps + "], \"load\": {\"closed\": {\"users\": 1}}}")), own(*plan),
          requests(*plan, own, 0, 1, 1), prep(*plan, requests, own), second(std::make_unique<IntervalMetrics>())
    {
        own.reset(1);
        requests.reset(1, true);
        second->steps.resize(plan->steps.size());
        for (std::size_t i = 0; i < plan->steps.size(); ++i)
            second->steps[i].checks.resize(plan->steps[i].checks.size());
        if (ScriptStep::needed(*plan)) {
            scripts = std::make_unique<ScriptStep>(*plan, 1, own, requests.cursors(), tally);
            prep.setScripts(scripts.get());
        }
        std::size_t exhausted = 0;
        QVERIFY(requests.beginIteration(0, exhausted));
        own.newIteration(0, false, requests.cursors());
        if (scripts)
            scripts->newIteration(0, false);
    }
    RequestPrep::Ready ready(std::size_t i, Outgoing& o)
    {
        o.request = &requests.request(0, i);
        why.clear();
        return prep.ready(0, i, o, *second, error, why);
    }

    std::unique_ptr<ScenarioPlan> plan;
    UserValues own;
    StepRequests requests;
    RequestPrep prep;
    IntervalMetricsPtr second;
    CheckTally tally;
    std::unique_ptr<ScriptStep> scripts;
    ErrorClass error = ErrorClass::Protocol;
    std::string why;
};

} // namespace

class TestWorkerParts : public QObject
{
    Q_OBJECT

private slots:
    // Users come out of their waits in order of their time, ties in the order they went in; a pause is over at
    // its time and not before; the loop wakes for the earliest of both kinds; a stop takes every waiting user
    // out, the pausing ones first.
    void waitsComeOutInOrderOfTheirTime()
    {
        UserWaits w(7);
        QVERIFY(w.empty());
        QCOMPARE(w.wakeBy(1000), Nanos(1000));
        w.goOnAt(3, 500);
        w.goOnAt(1, 200);
        w.goOnAt(2, 200); // a tie: after user 1, put in before it
        w.retryAt(4, 100);
        QVERIFY(!w.empty());
        QCOMPARE(w.wakeBy(1000), Nanos(100));
        QCOMPARE(w.wakeBy(50), Nanos(50));
        std::uint32_t user = 99;
        Nanos due = 0;
        QVERIFY(!w.thinkerDue(199, user, due));
        QVERIFY(w.thinkerDue(200, user, due));
        QCOMPARE(user, 1u);
        QCOMPARE(due, Nanos(200));
        QVERIFY(w.thinkerDue(450, user, due));
        QCOMPARE(user, 2u);
        QVERIFY(!w.thinkerDue(450, user, due));
        QVERIFY(w.retryDue(450, user));
        QCOMPARE(user, 4u);
        QVERIFY(!w.retryDue(450, user));
        w.retryAt(5, 900);
        w.goOnAt(6, 950);
        const std::vector<std::uint32_t> all = w.takeAll();
        QCOMPARE(all, (std::vector<std::uint32_t>{3, 6, 5}));
        QVERIFY(w.empty());
    }

    // A fixed think time pauses a user exactly that long; a uniform one within its bounds.
    void aThinkTimeIsSampledFromTheStep()
    {
        UserWaits w(1);
        w.think(0, ThinkTime{ThinkTime::Kind::Fixed, 300, 0}, 1000);
        std::uint32_t user = 9;
        Nanos due = 0;
        QVERIFY(!w.thinkerDue(1299, user, due));
        QVERIFY(w.thinkerDue(1300, user, due));
        QCOMPARE(due, Nanos(1300));
        for (int i = 0; i < 100; ++i)
            w.think(std::uint32_t(i), ThinkTime{ThinkTime::Kind::Uniform, 100, 200}, 0);
        QCOMPARE(w.wakeBy(kNanosPerSecond) >= 100, true);
        int out = 0;
        for (; w.thinkerDue(200, user, due); ++out)
            QVERIFY(due >= 100 && due <= 200);
        QCOMPARE(out, 100);
    }

    // An explicit stop halts the worker; a lease halts it once the time passes it, noted once at the first time
    // seen; a lease of 0 is none.
    void aStopOrALeaseHaltsTheWorker()
    {
        std::atomic<bool> stop{false};
        std::atomic<Nanos> lease{0};
        WorkerEnd end({&stop, &lease, nullptr});
        QVERIFY(!end.halted(5'000));
        lease = 10'000;
        QVERIFY(!end.halted(10'000));
        QVERIFY(end.halted(10'001));
        QVERIFY(end.halted(20'000));
        QCOMPARE(end.leaseExpiredAt(), Nanos(10'001));
        WorkerEnd stopped({&stop, nullptr, nullptr});
        QVERIFY(!stopped.halted(1));
        stop = true;
        QVERIFY(stopped.halted(1));
        QCOMPARE(stopped.leaseExpiredAt(), Nanos(0));
    }

    // A step that stops the run is noted once (the first) and tells every worker of the run through the flag
    // they share; a data set that ran out is noted once, its variable named.
    void aStepThatStopsTheRunTellsTheOthers()
    {
        std::atomic<bool> stop{false}, stopRun{false};
        WorkerEnd mine({&stop, nullptr, &stopRun}), other({&stop, nullptr, &stopRun});
        QVERIFY(!mine.runStopped() && !other.runStopped());
        mine.stepStopsRun(3, 700);
        mine.stepStopsRun(1, 900);
        QCOMPARE(mine.stopRunAt(), Nanos(700));
        QCOMPARE(mine.stopRunStep(), 3u);
        QVERIFY(mine.runStopped());
        QVERIFY(other.runStopped());           // told
        QCOMPARE(other.stopRunAt(), Nanos(0)); // but not its own
        QVERIFY(!other.halted(1000));          // it ends as the plan ends (beginStop), not at once
        mine.dataRanOut("users", 50);
        mine.dataRanOut("items", 60);
        QCOMPARE(mine.exhausted(), std::string("users"));
        QCOMPARE(mine.exhaustedAt(), Nanos(50));
    }

    // A scenario that starts after the run, a share taken over later still: the load starts at the later of the
    // two and ends a duration after the scenario's start; the loop wakes for the start, then for the end, and for a
    // release the controller set; a stopping worker waits for neither.
    void theCalendarSaysWhenTheLoadRuns()
    {
        std::atomic<Nanos> release{0};
        WorkerCalendar c({1000, 5000, 2500, nullptr, &release});
        QCOMPARE(c.end(), Nanos(6000));
        QVERIFY(!c.started(1500)); // the scenario's start, not yet the share's
        QVERIFY(c.started(2500));
        QCOMPARE(c.wakeBy(99'999, 100, false), Nanos(2500));
        QCOMPARE(c.wakeBy(99'999, 3000, false), Nanos(6000));
        QCOMPARE(c.wakeBy(4000, 3000, false), Nanos(4000));
        QCOMPARE(c.wakeBy(99'999, 3000, true), Nanos(99'999));
        QCOMPARE(c.releasedBy(3000), Nanos(0));
        release = 4500;
        QCOMPARE(c.wakeBy(99'999, 3000, false), Nanos(4500));
        QCOMPARE(c.releasedBy(4499), Nanos(0));
        QCOMPARE(c.releasedBy(4600), Nanos(4500));
    }

    // The controller's level is read once a change: the same factor again is no change; without a controller
    // there is none. A tick is due once per kTick from when ticks start.
    void theLevelAndTheTick()
    {
        std::atomic<double> level{1};
        WorkerCalendar c({0, kNanosPerSecond, 0, &level, nullptr});
        double f = 0;
        QVERIFY(!c.levelChanged(f));
        level = 0.5;
        QVERIFY(c.levelChanged(f));
        QCOMPARE(f, 0.5);
        QVERIFY(!c.levelChanged(f));
        WorkerCalendar none({0, kNanosPerSecond, 0, nullptr, nullptr});
        QVERIFY(!none.levelChanged(f));
        c.startTicks(100);
        QVERIFY(c.tick(100));
        QVERIFY(!c.tick(100 + WorkerCalendar::kTick - 1));
        QVERIFY(c.tick(100 + WorkerCalendar::kTick));
        QCOMPARE(c.nextTick(), 100 + 2 * WorkerCalendar::kTick);
    }

    // A plain step goes as its iteration began; one that uses an extracted value is rendered now with it, and
    // refused, naming the variable, while no answer gave it.
    void aStepOfExtractedValuesIsRenderedWhenSent()
    {
        Prep p(step("login", "http://127.0.0.1:9/login",
                    ", \"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.token\"}]") +
               ", " + step("me", "http://127.0.0.1:9/me?t=${token}"));
        Outgoing o;
        QCOMPARE(p.ready(0, o), RequestPrep::Ready::Send);
        QCOMPARE(targetOf(*o.request), std::string("/login"));
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Refused);
        QCOMPARE(p.error, ErrorClass::Extract);
        QVERIFY2(p.why.find("${token} has no value") != std::string::npos, p.why.c_str());
        const std::uint16_t token = p.plan->steps[0].extractors[0].variable;
        p.own.values(0)[token] = "abc";
        p.own.isSet(0)[token] = true;
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Send);
        QCOMPARE(targetOf(*o.request), std::string("/me?t=abc"));
    }

    // A pre-request script runs first: one that throws refuses the step as a script error; one that skips it
    // skips it; one that changes the request changes the user's own copy; and one that ran before a value the
    // step needs was extracted still refuses it (nothing is sent that cannot be rendered).
    void aPreRequestScriptRunsBeforeTheRequestIsMade()
    {
        Prep p(step("boom", "http://127.0.0.1:9/a", ", \"preRequestScript\": \"boom();\"") + ", " +
               step("skip", "http://127.0.0.1:9/b", ", \"preRequestScript\": \"pm.execution.skipRequest();\"") + ", " +
               step("add", "http://127.0.0.1:9/c",
                    ", \"preRequestScript\": \"pm.request.url.query.add({key: 'q', value: '1'});\", "
                    "\"extract\": [{\"name\": \"token\", \"jsonPath\": \"$.token\"}]") +
               ", " + step("late", "http://127.0.0.1:9/d?t=${token}", ", \"preRequestScript\": \"console.log(1);\""));
        Outgoing o;
        QCOMPARE(p.ready(0, o), RequestPrep::Ready::Refused);
        QCOMPARE(p.error, ErrorClass::Script);
        QVERIFY2(p.why.find("boom") != std::string::npos, p.why.c_str());
        QCOMPARE(p.ready(1, o), RequestPrep::Ready::Skip);
        QCOMPARE(p.ready(2, o), RequestPrep::Ready::Send);
        QCOMPARE(targetOf(*o.request), std::string("/c?q=1"));
        QCOMPARE(targetOf(p.requests.request(0, 2)), std::string("/c")); // the plan's own request is unchanged
        QCOMPARE(p.ready(3, o), RequestPrep::Ready::Refused);
        QCOMPARE(p.error, ErrorClass::Extract);
        QVERIFY2(p.why.find("${token} has no value") != std::string::npos, p.why.c_str());
    }
};

QTEST_GUILESS_MAIN(TestWorkerParts)
#include "tst_workerparts.moc"
