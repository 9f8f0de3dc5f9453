// The pacers with simulated time: the worker's part that decides when
// iterations start, driven through a scripted host that records each start.
#include "core/random.h"
#include "load/closedload.h"
#include "load/openload.h"
#include "load/replayload.h"
#include "load/thinktime.h"

#include <QTest>

#include <cmath>
#include <set>

using namespace stampede;

namespace {

constexpr Nanos kMs = kNanosPerMilli;
constexpr Nanos kS = kNanosPerSecond;

struct Start
{
    std::uint32_t slot;
    Nanos intended;
    Nanos at;
};

class ScriptedHost final : public PacerHost
{
public:
    bool startIteration(std::uint32_t slot, Nanos intended, Nanos now, const IterationStart& what) override
    {
        if (starts.size() >= dataRows) {
            pacer->abandon(); // as the worker does when the data ran out
            return false;
        }
        if (what.record) // "/r<record>" and its copy's "?copy=<k>" (the offsets the test replays give)
            replays.push_back({std::size_t(std::stoul(what.record->target.substr(2))), copyOf(what.record->target)});
        starts.push_back({slot, intended, now});
        if (failAtOnce && starts.size() < 1000) // as a refused connect answers within the send
            pacer->iterationDone(slot, now, true);
        return true;
    }
    void countLate(Nanos) override { ++late; }
    void countDropped(std::uint64_t n, Nanos) override { dropped += n; }

    static std::uint32_t copyOf(const std::string& target)
    {
        const std::size_t at = target.find("copy=");
        return at == std::string::npos ? 0 : std::uint32_t(std::stoul(target.substr(at + 5)));
    }

    std::vector<Start> starts;
    std::vector<std::pair<std::size_t, std::uint32_t>> replays; // record, copy
    std::uint64_t late = 0, dropped = 0;
    bool failAtOnce = false;
    std::size_t dataRows = 1u << 30;
    Pacer* pacer = nullptr;
};

// An open model at `rate` for `duration`, or closed with `users` (a backlog of 4).
OpenLoad openLoad(double rate, Nanos duration)
{
    OpenLoad l;
    l.profile = StageProfile::build(rate, {}, duration);
    l.backlogLimit = 4;
    return l;
}

ClosedLoad closedLoad(double users, Nanos duration)
{
    ClosedLoad l;
    l.profile = StageProfile::build(users, {}, duration);
    return l;
}

// A replay of requests at `times` (milliseconds), each by `clients[i]` (or one
// client); copy k of record i goes to "/r<i>?copy=<k>" (the record itself: copy=0).
ReplayPlan replayPlan(const std::vector<int>& timesMs, double speed, std::uint32_t amplify,
                      std::vector<std::string> clients = {})
{
    ReplayPlan r;
    for (std::size_t i = 0; i < timesMs.size(); ++i) {
        TrafficRecord t;
        t.atNanos = 1700000000 * kS + timesMs[i] * kMs;
        t.client = clients.empty() ? "c" : clients[i];
        t.target = "/r" + std::to_string(i) + "?copy=0";
        r.records.push_back(t);
    }
    r.options.speed = speed;
    r.options.amplify = amplify;
    std::string why;
    r.options.offsets.push_back(*ReplayOffset::parse("query:copy+1", why));
    r.stepOf.assign(timesMs.size(), 0);
    return r;
}

} // namespace

class TestPacer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // The loop wakes at an arrival's time, except that arrivals closer than kPacingBatch share one wake-up
    // kPacingBatch from now; never past its limit; one due already (or none before the limit) is as it is.
    void arrivalsCloseTogetherShareAWakeUp()
    {
        const OpenLoad p = openLoad(100000, kS); // one every 10 us
        ScriptedHost host;
        OpenPacer pacer(p, kS, host, 1000, 0, 1);
        host.pacer = &pacer;
        const Nanos t0 = 1000 * kS;
        pacer.begin(t0);
        pacer.onTime(t0); // the first is started; the next is due 10 us on
        const Nanos next = pacer.wakeBy(t0 + kS);
        QCOMPARE(next, t0 + 10 * kNanosPerMicro);
        QCOMPARE(batchedWake(pacer, t0, t0 + kS), t0 + kPacingBatch);
        QCOMPARE(batchedWake(pacer, t0, t0 + 20 * kNanosPerMicro), t0 + 20 * kNanosPerMicro); // its limit
        QCOMPARE(batchedWake(pacer, next, t0 + kS), next);                                    // due now
        QCOMPARE(batchedWake(pacer, t0, next), next);                                         // none before the limit

        const OpenLoad slow = openLoad(10, kS); // one every 100 ms: each has a wake-up of its own
        OpenPacer paced(slow, kS, host, 4, 0, 1);
        paced.begin(t0);
        paced.onTime(t0);
        QCOMPARE(batchedWake(paced, t0, t0 + kS), t0 + 100 * kMs);
    }

    void openArrivalsAtTheirIntendedTimes()
    {
        const OpenLoad p = openLoad(10, kS); // 10/s for 1 s
        ScriptedHost host;
        OpenPacer pacer(p, kS, host, 4, 0, 1);
        host.pacer = &pacer;
        const Nanos t0 = 1000 * kS;
        pacer.begin(t0);
        QCOMPARE(pacer.wakeBy(t0 + kS), t0); // the first arrival is due at once
        for (Nanos t = t0; t < t0 + 2 * kS; t += kMs) {
            pacer.onTime(t);
            std::vector<std::uint32_t> answered;
            for (const auto& s : host.starts)
                if (s.at == t)
                    answered.push_back(s.slot);
            for (const std::uint32_t slot : answered)
                pacer.iterationDone(slot, t + kMs / 2, false); // answered within the millisecond
        }
        QCOMPARE(host.starts.size(), std::size_t(10));
        for (std::size_t i = 0; i < host.starts.size(); ++i) {
            QCOMPARE(host.starts[i].intended, t0 + Nanos(i) * 100 * kMs);
            QCOMPARE(host.starts[i].at, host.starts[i].intended);
        }
        QCOMPARE(host.late, std::uint64_t(0));
        QVERIFY(pacer.drained());
        QCOMPARE(pacer.wakeBy(t0 + 5 * kS), t0 + 5 * kS); // nothing more planned
    }

    void busySlotsMakeABacklogThenDrops()
    {
        // 2 slots, a backlog of 4, 10 arrivals in the first second and no answers
        const OpenLoad p = openLoad(10, kS);
        ScriptedHost host;
        OpenPacer pacer(p, kS, host, 2, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTime(kS - 1);
        QCOMPARE(host.starts.size(), std::size_t(2));
        QCOMPARE(host.late, std::uint64_t(4));
        QCOMPARE(host.dropped, std::uint64_t(4));
        QCOMPARE(pacer.activeUsers(), 2u);
        QVERIFY(!pacer.drained());
        // a slot frees: the oldest waiting arrival starts, measured from its intended time
        pacer.iterationDone(host.starts[0].slot, kS, false);
        QCOMPARE(host.starts.size(), std::size_t(3));
        QCOMPARE(host.starts[2].intended, 200 * kMs);
        QCOMPARE(host.starts[2].at, kS);
        // a transport failure does not start the next at once: the loop's next turn does
        pacer.iterationDone(host.starts[1].slot, kS, true);
        QCOMPARE(host.starts.size(), std::size_t(3));
        pacer.onTime(kS + 1);
        QCOMPARE(host.starts.size(), std::size_t(4));
        QCOMPARE(host.starts[3].intended, 300 * kMs);
        // the end (or an explicit stop) drops what still waits: counted, never sent late
        QCOMPARE(pacer.abandon(), std::uint64_t(2));
        QVERIFY(pacer.drained());
        pacer.iterationDone(host.starts[2].slot, kS + 2, false);
        pacer.onTime(5 * kS);
        QCOMPARE(host.starts.size(), std::size_t(4));
    }

    void openLevelChangesTheRate()
    {
        const OpenLoad p = openLoad(10, 2 * kS);
        ScriptedHost host;
        OpenPacer pacer(p, 2 * kS, host, 100, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTime(kS - 1);
        QCOMPARE(host.starts.size(), std::size_t(10));
        pacer.setLevel(0, kS); // paused
        pacer.onTime(kS + 500 * kMs);
        QCOMPARE(host.starts.size(), std::size_t(10));
        pacer.setLevel(2, kS + 500 * kMs); // 20/s for the last half second
        pacer.onTime(2 * kS - 1);
        QCOMPARE(host.starts.size(), std::size_t(20));
    }

    // Pacing: a user's iterations start at least this far apart, whatever
    // they took; a think time after a slow one still applies in full.
    void closedPacingSpacesIterations()
    {
        ClosedLoad p = closedLoad(1, 10 * kS);
        p.pacing = kS;
        p.thinkTime = 100 * kMs;
        ScriptedHost host;
        ClosedPacer pacer(p, 10 * kS, host, 1, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTick(0);
        QCOMPARE(host.starts.size(), std::size_t(1));
        pacer.iterationDone(0, 200 * kMs, false); // quick: waits for the pacing
        QCOMPARE(pacer.wakeBy(10 * kS), kS);
        pacer.onTime(kS - 1);
        QCOMPARE(host.starts.size(), std::size_t(1));
        pacer.onTime(kS);
        QCOMPARE(host.starts.size(), std::size_t(2));
        QCOMPARE(host.starts[1].at, kS);
        pacer.iterationDone(0, kS + 1500 * kMs, false); // slow: past the pacing, the think time still counts
        QCOMPARE(pacer.wakeBy(10 * kS), kS + 1600 * kMs);
    }

    // An iteration that fails within its own start (a refused connect on
    // loopback, a value its request refuses) starts again on the loop's next
    // turn, not within the same call for ever.
    void aFailureAtOnceWaitsForTheNextTurn()
    {
        const ClosedLoad p = closedLoad(2, 10 * kS);
        ScriptedHost host;
        host.failAtOnce = true;
        ClosedPacer pacer(p, 10 * kS, host, 2, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTick(0);
        QCOMPARE(host.starts.size(), std::size_t(2));
        pacer.onTime(0);
        QCOMPARE(host.starts.size(), std::size_t(2));
        QCOMPARE(pacer.wakeBy(10 * kS), Nanos(1)); // the next turn, at once
        pacer.onTime(1);
        QCOMPARE(host.starts.size(), std::size_t(4));
    }

    // Think-time distributions: their bounds and moments over many samples.
    void thinkTimeDistributions()
    {
        FastRandom random(42);
        auto moments = [&](const ThinkTime& t, double& mean, double& sd, Nanos& lo, Nanos& hi) {
            const int n = 200000;
            double sum = 0, sq = 0;
            lo = ThinkTime::kMax;
            hi = 0;
            for (int i = 0; i < n; ++i) {
                const Nanos v = t.sample(random);
                sum += double(v);
                sq += double(v) * double(v);
                lo = std::min(lo, v);
                hi = std::max(hi, v);
            }
            mean = sum / n / double(kMs);
            sd = std::sqrt(sq / n - (sum / n) * (sum / n)) / double(kMs);
        };
        double mean = 0, sd = 0;
        Nanos lo = 0, hi = 0;
        moments({ThinkTime::Kind::Fixed, 200 * kMs, 0}, mean, sd, lo, hi);
        QCOMPARE(lo, 200 * kMs);
        QCOMPARE(hi, 200 * kMs);
        moments({ThinkTime::Kind::Uniform, 100 * kMs, 300 * kMs}, mean, sd, lo, hi);
        QVERIFY(lo >= 100 * kMs && hi <= 300 * kMs);
        QVERIFY2(std::abs(mean - 200) < 2, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(sd - 57.7) < 1.5, qPrintable(QString::number(sd))); // (300 - 100) / sqrt(12)
        moments({ThinkTime::Kind::Normal, 200 * kMs, 50 * kMs}, mean, sd, lo, hi);
        QVERIFY2(std::abs(mean - 200) < 2, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(sd - 50) < 1.5, qPrintable(QString::number(sd)));
        QVERIFY(lo >= 0);
        moments({ThinkTime::Kind::Exponential, 200 * kMs, 0}, mean, sd, lo, hi);
        QVERIFY2(std::abs(mean - 200) < 4, qPrintable(QString::number(mean)));
        QVERIFY2(std::abs(sd - 200) < 6, qPrintable(QString::number(sd))); // an exponential's sd is its mean
        QVERIFY(lo >= 0 && hi <= ThinkTime::kMax);
    }

    void closedUsersFollowTheLevelAndThink()
    {
        ClosedLoad p = closedLoad(3, 10 * kS);
        p.thinkTime = 200 * kMs;
        ScriptedHost host;
        ClosedPacer pacer(p, 10 * kS, host, 5, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTick(0);
        QCOMPARE(host.starts.size(), std::size_t(3)); // users 0, 1, 2
        QCOMPARE(pacer.activeUsers(), 3u);
        pacer.iterationDone(0, 50 * kMs, false);
        QCOMPARE(pacer.wakeBy(kS), 250 * kMs); // thinking until then
        pacer.onTime(249 * kMs);
        QCOMPARE(host.starts.size(), std::size_t(3));
        pacer.onTime(250 * kMs);
        QCOMPARE(host.starts.size(), std::size_t(4));
        QCOMPARE(host.starts.back().slot, 0u);
        // the level falls to 1: users 1 and 2 finish their iteration, then rest
        pacer.setLevel(1.0 / 3.0, 300 * kMs);
        QCOMPARE(pacer.activeUsers(), 1u);
        pacer.iterationDone(1, 310 * kMs, false);
        pacer.onTime(kS);
        QCOMPARE(host.starts.size(), std::size_t(4));
        // and it rises to 5: every idle user starts at once
        pacer.setLevel(5.0 / 3.0, kS);
        QCOMPARE(pacer.activeUsers(), 5u);
        QCOMPARE(host.starts.size(), std::size_t(7)); // users 1 (idle again), 3 and 4; 0 and 2 are busy
    }

    // Iterations per user: each of the users makes exactly that many, and
    // the pacer says it has finished once the last one has ended.
    void closedUsersMakeTheirIterations()
    {
        ClosedLoad p = closedLoad(2, 3600 * kS);
        p.iterations = 3;
        ScriptedHost host;
        ClosedPacer pacer(p, 3600 * kS, host, 2, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTick(0);
        QCOMPARE(host.starts.size(), std::size_t(2));
        for (int round = 1; round <= 3; ++round) {
            QVERIFY(!pacer.finished());
            pacer.iterationDone(0, round * kMs, false);
            pacer.iterationDone(1, round * kMs, false);
        }
        QCOMPARE(host.starts.size(), std::size_t(6)); // 3 each, no more
        for (const auto& s : host.starts)
            QVERIFY(s.slot < 2);
        QVERIFY(pacer.finished());
        pacer.onTick(10 * kMs);
        pacer.onTime(20 * kMs);
        QCOMPARE(host.starts.size(), std::size_t(6));
        const ClosedLoad unbounded = closedLoad(1, 10 * kS);
        ScriptedHost other;
        ClosedPacer always(unbounded, 10 * kS, other, 1, 0, 1);
        other.pacer = &always;
        always.begin(0);
        always.onTick(0);
        for (int i = 0; i < 10; ++i)
            always.iterationDone(0, (i + 1) * kMs, false);
        QVERIFY(!always.finished()); // without iterations, the duration ends it
        QCOMPARE(other.starts.size(), std::size_t(11));
    }

    void closedStopsWhenTheDataRunsOut()
    {
        ClosedLoad p = closedLoad(2, 10 * kS);
        ScriptedHost host;
        host.dataRows = 3;
        ClosedPacer pacer(p, 10 * kS, host, 2, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTick(0);
        QCOMPARE(host.starts.size(), std::size_t(2));
        pacer.iterationDone(0, kMs, false); // no think time: starts again at once
        QCOMPARE(host.starts.size(), std::size_t(3));
        pacer.iterationDone(1, 2 * kMs, false); // the data ran out: nothing more starts
        pacer.iterationDone(0, 3 * kMs, false);
        pacer.onTick(10 * kMs);
        QCOMPARE(host.starts.size(), std::size_t(3));
        QVERIFY(pacer.drained());
    }

    void closedShareOfUsersAcrossParts()
    {
        // 5 users over 2 parts: part 0 holds global users 0, 2, 4; part 1 holds 1, 3
        ClosedLoad p = closedLoad(5, 10 * kS);
        ScriptedHost h0, h1;
        ClosedPacer p0(p, 10 * kS, h0, 3, 0, 2), p1(p, 10 * kS, h1, 3, 1, 2);
        h0.pacer = &p0;
        h1.pacer = &p1;
        p0.begin(0);
        p1.begin(0);
        p0.onTick(0);
        p1.onTick(0);
        QCOMPARE(h0.starts.size(), std::size_t(3));
        QCOMPARE(h1.starts.size(), std::size_t(2));
    }
};

// The replay pacer (replaypacer.h) on simulated time.
class TestReplayPacer : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void startsEachCopyAtItsCompressedTime()
    {
        const ReplayPlan p = replayPlan({0, 100, 300, 1000}, 2, 2);
        ScriptedHost host;
        ReplayPacer pacer(p, 4, kS, host, 8, 0, 1);
        host.pacer = &pacer;
        const Nanos t0 = 50 * kS;
        pacer.begin(t0);
        QCOMPARE(pacer.wakeBy(t0 + kS), t0);
        for (Nanos t = t0; t < t0 + 2 * kS; t = pacer.wakeBy(t0 + 2 * kS)) {
            pacer.onTime(t);
            for (const auto& st : host.starts)
                if (st.at == t)
                    pacer.iterationDone(st.slot, t, false);
            if (pacer.wakeBy(t0 + 2 * kS) == t)
                break;
        }
        const std::vector<Nanos> want = {0, 0, 50 * kMs, 50 * kMs, 150 * kMs, 150 * kMs, 500 * kMs, 500 * kMs};
        QCOMPARE(host.starts.size(), want.size());
        for (std::size_t i = 0; i < want.size(); ++i) {
            QCOMPARE(host.starts[i].intended, t0 + want[i]);
            QCOMPARE(host.starts[i].at, host.starts[i].intended); // woken exactly then
            QCOMPARE(host.replays[i], std::make_pair(i / 2, std::uint32_t(i % 2)));
        }
        QCOMPARE(host.late, std::uint64_t(0));
        QCOMPARE(pacer.wakeBy(t0 + 9 * kS), t0 + 9 * kS); // nothing more
    }

    void busyConnectionsMakeABacklogThenDrops()
    {
        const ReplayPlan p = replayPlan({0, 1, 2, 3, 4, 5, 6, 7}, 1, 1);
        ScriptedHost host;
        ReplayPacer pacer(p, 4, kS, host, 2, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.onTime(10 * kMs);
        QCOMPARE(host.starts.size(), std::size_t(2));
        QCOMPARE(host.late, std::uint64_t(4));
        QCOMPARE(host.dropped, std::uint64_t(2));
        pacer.iterationDone(host.starts[0].slot, 20 * kMs, false); // the oldest waiting starts, from its own time
        QCOMPARE(host.starts.size(), std::size_t(3));
        QCOMPARE(host.starts[2].intended, 2 * kMs);
        QCOMPARE(host.replays[2].first, std::size_t(2));
        QCOMPARE(pacer.abandon(), std::uint64_t(3));
        QVERIFY(pacer.drained());
    }

    void degradeShedsEvenlyAndZeroPauses()
    {
        std::vector<int> times;
        for (int i = 0; i < 100; ++i)
            times.push_back(i * 10);
        const ReplayPlan p = replayPlan(times, 1, 1);
        ScriptedHost host;
        ReplayPacer pacer(p, 4, 2 * kS, host, 100, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        pacer.setLevel(0.5, 0);
        pacer.onTime(500 * kMs - 1); // 50 due: 25 sent
        QCOMPARE(host.starts.size(), std::size_t(25));
        pacer.setLevel(0, 500 * kMs);
        pacer.onTime(800 * kMs - 1); // paused: none of the next 30
        QCOMPARE(host.starts.size(), std::size_t(25));
        pacer.setLevel(1, 800 * kMs);
        pacer.onTime(kS);
        QCOMPARE(host.starts.size(), std::size_t(45));
        QCOMPARE(host.dropped, std::uint64_t(0)); // shed by the breaker: not sent, not dropped
    }

    void aLoopEndsWithTheRun()
    {
        ReplayPlan p = replayPlan({0, 400}, 1, 1);
        p.options.loop = true;
        ScriptedHost host;
        ReplayPacer pacer(p, 4, 3 * kS, host, 4, 0, 1);
        host.pacer = &pacer;
        pacer.begin(0);
        for (Nanos t = 0; t < 10 * kS; t += 10 * kMs) {
            pacer.onTime(t);
            for (const auto& st : host.starts)
                if (st.at == t)
                    pacer.iterationDone(st.slot, t, false);
        }
        // a pass lasts 400 ms and one mean interval (200 ms): passes at 0, 0.6, 1.2, 1.8, 2.4 s
        QCOMPARE(host.starts.size(), std::size_t(10));
        QVERIFY(host.starts.back().intended < 3 * kS);
    }

    void partsShareTheClients()
    {
        std::vector<int> times;
        std::vector<std::string> clients;
        for (int i = 0; i < 60; ++i) {
            times.push_back(i);
            clients.push_back("10.0.0." + std::to_string(i % 6));
        }
        const ReplayPlan p = replayPlan(times, 1, 1, clients);
        ScriptedHost a, b;
        ReplayPacer pa(p, 4, kS, a, 100, 0, 2), pb(p, 4, kS, b, 100, 1, 2);
        pa.begin(0);
        pb.begin(0);
        pa.onTime(kS - 1);
        pb.onTime(kS - 1);
        QCOMPARE(a.replays.size() + b.replays.size(), std::size_t(60));
        std::set<std::string> ca, cb;
        for (const auto& r : a.replays)
            ca.insert(clients[r.first]);
        for (const auto& r : b.replays)
            cb.insert(clients[r.first]);
        for (const auto& c : ca)
            QVERIFY2(!cb.count(c), c.c_str()); // a client on one part only
        QVERIFY(!ca.empty() && !cb.empty());
    }
};

int main(int argc, char** argv)
{
    TestPacer pacer;
    TestReplayPacer replay;
    return QTest::qExec(&pacer, argc, argv) | QTest::qExec(&replay, argc, argv);
}
#include "tst_pacer.moc"
