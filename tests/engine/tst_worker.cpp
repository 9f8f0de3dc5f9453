// A worker driven on simulated time against a scripted target (simulatedio.h):
// pacing, think time, checks and what a step does on an error, each decided
// by the worker alone, with the seconds simulated.
#include "plan/scenarioplan.h"
#include "run/worker.h"
#include "simulatedio.h"
#include "stampede/v1/scenario.pb.h"

#include <QTest>

#include <algorithm>
#include <memory>

using namespace stampede;
using sim::Answer;
using sim::Sent;

namespace {

constexpr Nanos kMs = kNanosPerMilli;
constexpr Nanos kS = kNanosPerSecond;
constexpr Nanos kT0 = 1000 * kS; // the simulated clock's start

class Seconds final : public SecondSink
{
public:
    void deliver(std::uint32_t, IntervalMetricsPtr second, bool last) override
    {
        if (!total)
            total = std::make_unique<IntervalMetrics>(*second);
        else
            total->merge(*second);
        perSecond.push_back(std::move(second));
        ended |= last;
    }
    std::unique_ptr<IntervalMetrics> total;
    std::vector<IntervalMetricsPtr> perSecond;
    bool ended = false;
};

// JSON written with single quotes (a test reads better without escapes).
std::string q(std::string json)
{
    std::replace(json.begin(), json.end(), '\'', '"');
    return json;
}

std::unique_ptr<ScenarioPlan> compile(const std::string& json)
{
    v1::Scenario s;
    std::string error;
    if (!parseScenarioJson(json, s, error))
        qFatal("%s", error.c_str());
    std::vector<PlanError> errors;
    PlanOptions o;
    o.resolveHosts = false;
    o.runId = "st-test";
    auto plan = compileScenario(s, o, errors);
    if (!plan)
        qFatal("%s", errors.front().text().c_str());
    auto out = std::make_unique<ScenarioPlan>(std::move(*plan));
    out->threads = 1;
    return out;
}

// One worker, the whole run, on simulated time.
struct Simulation
{
    explicit Simulation(const std::string& json, sim::SimulatedIo::Script script)
        : plan(compile(json)), io(clock, std::move(script))
    {
    }
    void run() { sim::runWorker(*plan, io, clock, kT0, seconds, stop); }
    const StepCounters& counters(std::size_t step) const { return seconds.total->steps[step].counters; }

    FakeClock clock{kT0};
    std::unique_ptr<ScenarioPlan> plan;
    sim::SimulatedIo io;
    Seconds seconds;
    std::atomic<bool> stop{false};
};

Answer after(Nanos delay, int status = 200, std::string body = {})
{
    Answer a;
    a.delay = delay;
    a.status = status;
    a.body = std::move(body);
    return a;
}

} // namespace

class TestWorker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // 100 arrivals a second for 2 s, each sent at its intended time and
    // answered 5 ms later: the latency is the target's, whatever the pace.
    void openArrivalsGoOutOnTime()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'open': {'rate': 100}}, 'duration': '2s', 'connections': 10}"),
                     [](const Sent&) { return after(5 * kMs); });
        s.run();
        QVERIFY(s.seconds.ended);
        const auto& sent = s.io.sent();
        QCOMPARE(sent.size(), std::size_t(200));
        for (std::size_t i = 0; i < sent.size(); ++i)
            QCOMPARE(sent[i].at, kT0 + Nanos(i) * 10 * kMs);
        QCOMPARE(s.counters(0).requests, std::uint64_t(200));
        QCOMPARE(s.counters(0).errors, std::uint64_t(0));
        const LatencyHistogram& lat = s.seconds.total->steps[0].latency;
        QVERIFY(std::abs(double(lat.percentile(50)) - 5000) < 50); // microseconds
        QCOMPARE(s.seconds.total->steps[0].sendLag.max(), std::uint64_t(0));
    }

    // A slow target: 10 connections at 100/s with answers after 200 ms can
    // carry only 50/s; the rest wait (late) and are measured from their
    // intended time, so the latency shows the queue.
    void aSlowTargetIsMeasuredFromTheIntendedTime()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'open': {'rate': 100, 'backlogLimit': 1000}}, 'duration': '2s', 'connections': 10}"),
                     [](const Sent&) { return after(200 * kMs); });
        s.run();
        QVERIFY(s.counters(0).late > 0);
        QVERIFY(s.seconds.total->steps[0].latency.percentile(99) > 900 * 1000); // queued close to a second
        QVERIFY(s.seconds.total->steps[0].serviceTime.max() <= 201 * 1000);     // the target's own time
    }

    // Closed users: each runs its iteration, thinks (the step's think time)
    // and runs again; 2 users, 2 steps answered in 10 ms, 80 ms of think time
    // after the second: an iteration every 100 ms per user.
    void closedUsersThinkBetweenIterations()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}},"
                       "{'request': {'url': 'http://127.0.0.1:9/b'}, 'thinkTime': {'fixed': '80ms'}}],"
                       "'load': {'closed': {'users': 2}}, 'duration': '1s'}"),
                     [](const Sent&) { return after(10 * kMs); });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(20)); // 10 iterations each
        QCOMPARE(s.counters(1).requests, std::uint64_t(20));
        std::vector<Nanos> user0;
        for (const Sent& x : s.io.sent())
            if (x.slot == 0 && x.step == 0)
                user0.push_back(x.at - kT0);
        QCOMPARE(user0.size(), std::size_t(10));
        for (std::size_t i = 1; i < user0.size(); ++i)
            QCOMPARE(user0[i] - user0[i - 1], 100 * kMs);
    }

    // Per-user iterations: 3 users make 4 iterations each, then the run ends
    // by itself, long before its bound.
    void perUserIterationsEndTheRun()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/a'}}],"
                       "'load': {'closed': {'users': 3}}, 'iterations': 4}"),
                     [](const Sent&) { return after(10 * kMs); });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(12));
        QVERIFY(s.clock.now() - kT0 < kS);
    }

    // A failed check ends the iteration: the next step is not sent.
    void aFailedCheckEndsTheIteration()
    {
        Simulation s(q("{'steps': [{'request': {'url': 'http://127.0.0.1:9/login'},"
                       "'checks': [{'name': 'code', 'jsonPath': '$.code', 'equals': '0'}]},"
                       "{'request': {'url': 'http://127.0.0.1:9/order'}}],"
                       "'load': {'closed': {'users': 1}}, 'duration': '1s'}"),
                     [](const Sent&) { return after(100 * kMs, 200, q("{'code': 1}")); });
        s.run();
        QCOMPARE(s.counters(0).requests, std::uint64_t(10));
        QCOMPARE(s.counters(0).errorsByClass[std::size_t(ErrorClass::Check)], std::uint64_t(10));
        QCOMPARE(s.counters(1).sent, std::uint64_t(0));
    }
};

QTEST_GUILESS_MAIN(TestWorker)
#include "tst_worker.moc"
