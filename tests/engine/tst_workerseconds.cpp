// Issue 49: a worker's seconds as an object of their own (run/workerseconds.h), on given times: each second is
// handed on once it is over, in order, none skipped, with the gauges read as it ends; the last is marked; a plan
// of several scenarios counts at its places; a connection's events count on its step.
#include "compiledplan.h"
#include "run/workerseconds.h"

#include <QTest>

#include <vector>

using namespace stampede;

namespace {

struct Sink final : SecondSink
{
    struct Got
    {
        std::uint32_t worker = 0;
        IntervalMetricsPtr second;
        bool last = false;
    };
    std::vector<Got> got;
    void deliver(std::uint32_t worker, IntervalMetricsPtr second, bool last) override
    {
        got.push_back({worker, std::move(second), last});
    }
};

ScenarioPlan twoSteps()
{
    ScenarioPlan plan;
    plan.steps.resize(2);
    plan.steps[1].checks.resize(3);
    plan.groups.resize(1);
    return plan;
}

} // namespace

class TestWorkerSeconds : public QObject
{
    Q_OBJECT

private slots:
    // Issue 51: the plan's last second holds what lands after the plan's end (an answer still on its way), so a
    // run of N seconds has N in every output, not an N + 1st that looks like a drop; handed on by finish(), marked
    // last, with everything counted after the end in it.
    void thePlansLastSecondTakesTheRest()
    {
        const ScenarioPlan plan = twoSteps();
        Sink sink;
        WorkerSeconds seconds(plan, {}, 0, sink, [] { return WorkerSeconds::Gauges{}; });
        constexpr Nanos s = kNanosPerSecond;
        seconds.begin(1, s, 2); // a 2 s plan: its last second ends at 2 s
        ++seconds.step(0, s / 2).counters.requests;
        ++seconds.step(0, s + s / 2).counters.requests;
        QCOMPARE(sink.got.size(), std::size_t(1));
        ++seconds.step(0, 2 * s + s / 10).counters.requests; // after the plan's end
        ++seconds.step(1, 4 * s).counters.requests;          // long after
        seconds.roll(5 * s);
        QCOMPARE(sink.got.size(), std::size_t(1)); // no third second
        seconds.finish();
        QCOMPARE(sink.got.size(), std::size_t(2));
        QCOMPARE(sink.got[1].second->second, std::uint32_t(2));
        QVERIFY(sink.got[1].last);
        QCOMPARE(sink.got[1].second->steps[0].counters.requests, std::uint64_t(2));
        QCOMPARE(sink.got[1].second->steps[1].counters.requests, std::uint64_t(1));
    }

    // A second is handed on when a later time is asked for, with what was counted in it and the gauges as it
    // ended; a jump of three seconds hands on the empty ones between; GOAWAYs are each second's own.
    void secondsGoInOrderNoneSkipped()
    {
        const ScenarioPlan plan = twoSteps();
        Sink sink;
        WorkerSeconds::Gauges gauges{4, 2, 0};
        WorkerSeconds seconds(plan, {}, 7, sink, [&] { return gauges; });
        constexpr Nanos s = kNanosPerSecond;
        seconds.begin(1, 10 * s); // the first second ends at 10 s on the clock
        ++seconds.step(0, 9 * s).counters.requests;
        ++seconds.step(1, 9 * s + s / 2).counters.requests;
        QVERIFY(sink.got.empty());
        gauges.goaways = 1;
        ++seconds.step(0, 10 * s).counters.requests; // the second second
        QCOMPARE(sink.got.size(), std::size_t(1));
        const IntervalMetrics& first = *sink.got[0].second;
        QCOMPARE(sink.got[0].worker, std::uint32_t(7));
        QCOMPARE(first.second, std::uint32_t(1));
        QCOMPARE(first.steps[0].counters.requests + first.steps[1].counters.requests, std::uint64_t(2));
        QCOMPARE(first.steps[1].checks.size(), std::size_t(3));
        QCOMPARE(first.openConnections, std::uint32_t(4));
        QCOMPARE(first.activeUsers, std::uint32_t(2));
        QCOMPARE(first.steps[0].counters.goaways, std::uint64_t(1));
        QVERIFY(!sink.got[0].last);
        gauges.goaways = 3;
        seconds.at(13 * s + 1); // seconds 2, 3 and 4 are over
        QCOMPARE(sink.got.size(), std::size_t(4));
        QCOMPARE(sink.got[1].second->second, std::uint32_t(2));
        QCOMPARE(sink.got[1].second->steps[0].counters.requests, std::uint64_t(1));
        QCOMPARE(sink.got[1].second->steps[0].counters.goaways, std::uint64_t(2)); // 3 seen, 1 counted before
        QCOMPARE(sink.got[3].second->second, std::uint32_t(4));
        QCOMPARE(sink.got[3].second->steps[0].counters.goaways, std::uint64_t(0));
        QCOMPARE(seconds.end(), 14 * s);
        ++seconds.group(0, 13 * s + 2).counters.requests;
        seconds.readGauges();
        seconds.finish();
        QCOMPARE(sink.got.size(), std::size_t(5));
        QVERIFY(sink.got[4].last);
        QCOMPARE(sink.got[4].second->second, std::uint32_t(5));
        QCOMPARE(sink.got[4].second->groups[0].counters.requests, std::uint64_t(1));
    }

    // A plan's scenario counts at its places among the run's steps and groups; a taken-over share starts at the
    // second that holds its start.
    void aScenarioCountsAtItsPlaces()
    {
        const ScenarioPlan plan = twoSteps();
        Sink sink;
        WorkerSeconds seconds(plan, {5, 2, 3, 1}, 0, sink, [] { return WorkerSeconds::Gauges{}; });
        seconds.begin(9, kNanosPerSecond);
        ++seconds.step(1, 0).counters.requests;
        ++seconds.group(0, 0).counters.requests;
        seconds.finish();
        const IntervalMetrics& m = *sink.got.at(0).second;
        QCOMPARE(m.second, std::uint32_t(9));
        QCOMPARE(m.steps.size(), std::size_t(5));
        QCOMPARE(m.groups.size(), std::size_t(2));
        QCOMPARE(m.steps[4].counters.requests, std::uint64_t(1));
        QCOMPARE(m.steps[4].checks.size(), std::size_t(3));
        QCOMPARE(m.groups[1].counters.requests, std::uint64_t(1));
    }
    // What a session tells of a connection is counted at the step's place: a connection set up in the current
    // second; stray bytes as one protocol error and a stray, no request, with a sample of them.
    void aConnectionsEventsCountOnItsStep()
    {
        const ScenarioPlan plan = twoSteps();
        Sink sink;
        WorkerSeconds seconds(plan, {5, 2, 3, 1}, 0, sink, [] { return WorkerSeconds::Gauges{}; });
        seconds.begin(1, kNanosPerSecond);
        seconds.connected(1, 2'000'000, 5'000'000, true, false);
        seconds.stray(0, "HTTP/1.1 200 OK\r\n\r\n", 0);
        seconds.finish();
        const IntervalMetrics& m = *sink.got.at(0).second;
        QCOMPARE(m.steps[4].counters.connects, std::uint64_t(1));
        QCOMPARE(m.steps[4].counters.handshakes, std::uint64_t(1));
        QCOMPARE(m.steps[3].counters.stray, std::uint64_t(1));
        QCOMPARE(m.steps[3].counters.errorsByClass[std::size_t(ErrorClass::Protocol)], std::uint64_t(1));
        QCOMPARE(m.steps[3].counters.requests, std::uint64_t(0));
        QCOMPARE(m.samples.size(), std::size_t(1));
        QCOMPARE(m.samples[0].step, std::uint32_t(3));
        QCOMPARE(m.samples[0].head, std::string("HTTP/1.1 200 OK"));
        QVERIFY(m.samples[0].detail.find("19 bytes from the server") == 0);
    }
    // A send is counted where its step is; its lag behind its intended time is measured only when the load is
    // paced (an open model's arrivals), never for users that go on at their own pace.
    void aSendsLagIsMeasuredWhenPaced()
    {
        Sink sink;
        const auto open = compiledPlan("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}], "
                                       "\"load\": {\"open\": {\"rate\": 10}}, \"connections\": 1}");
        const auto closed = compiledPlan("{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}], "
                                         "\"load\": {\"closed\": {\"users\": 1}}}");
        for (const ScenarioPlan* plan : {open.get(), closed.get()}) {
            WorkerSeconds seconds(*plan, {}, 0, sink, [] { return WorkerSeconds::Gauges{}; });
            seconds.begin(1, kNanosPerSecond);
            seconds.sent(0, 1'000'000, 4'000'000); // 3 ms late
            seconds.sent(0, 5'000'000, 5'000'000);
            seconds.finish();
        }
        QCOMPARE(sink.got.size(), std::size_t(2));
        const StepMetrics& paced = sink.got[0].second->steps[0];
        QCOMPARE(paced.counters.sent, std::uint64_t(2));
        QCOMPARE(paced.sendLag.count(), std::uint64_t(2));
        QCOMPARE(paced.sendLag.max(), std::uint64_t(3000));
        const StepMetrics& users = sink.got[1].second->steps[0];
        QCOMPARE(users.counters.sent, std::uint64_t(2));
        QCOMPARE(users.sendLag.count(), std::uint64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestWorkerSeconds)
#include "tst_workerseconds.moc"
