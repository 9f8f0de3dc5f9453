// The controller against scripted agents: its callbacks run out of its lock
// (a sink that takes 5 s costs no healthy agent), a frozen agent is lost by
// the clock and stopped again until it answers, and live control is a queue.
#include "control/agentledger.h"
#include "control/controller.h"
#include "control/sharesplit.h"
#include "report/runsummary.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/control.pb.h"
#include "wire/protocolversion.h"
#include "wire/snapshotcodec.h"

#include <QTest>

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <functional>
#include <map>
#include <mutex>
#include <thread>

using namespace stampede;

namespace {

constexpr Nanos kS = kNanosPerSecond;

// An agent in the test's hands: it delivers the snapshots the test queues,
// answers heartbeats while alive, and records what the controller asked.
class ScriptedLink : public AgentLink
{
public:
    explicit ScriptedLink(std::string address, unsigned agentCores = 0)
        : cores(agentCores), m_address(std::move(address))
    {
    }
    unsigned cores = 0; // what its Hello says
    const std::string& address() const override { return m_address; }
    bool hello(const std::string&, Nanos, v1::HelloReply& reply, std::string&) override
    {
        reply.set_protocol_version(kControlProtocolVersion);
        reply.set_agent("scripted");
        reply.set_cores(cores);
        return true;
    }
    bool startRun(const v1::StartRunRequest& rq, Nanos, std::string&) override
    {
        std::lock_guard lock(m_mutex);
        started.push_back(rq);
        return true;
    }
    bool handOver(const std::string&, std::uint32_t share, std::uint32_t fromSecond, std::uint32_t& applied,
                  std::string& error) override
    {
        std::lock_guard lock(m_mutex);
        handedOver.emplace_back(share, fromSecond);
        applied = fromSecond + lateBy;
        if (!alive)
            error = "deadline exceeded";
        return alive;
    }
    std::vector<v1::StartRunRequest> startRequests()
    {
        std::lock_guard lock(m_mutex);
        return started;
    }
    std::vector<std::pair<std::uint32_t, std::uint32_t>> handOvers()
    {
        std::lock_guard lock(m_mutex);
        return handedOver;
    }
    bool stop(const std::string&, std::string& error) override
    {
        std::lock_guard lock(m_mutex);
        ++stops;
        if (!alive) {
            error = "deadline exceeded";
            return false;
        }
        if (finishOnStop)
            queueLocked(finalSnapshot());
        return true;
    }
    bool adjust(const std::string&, double factor, std::string&) override
    {
        std::lock_guard lock(m_mutex);
        factors.push_back(factor);
        return alive;
    }
    bool adopt(const std::string&, std::uint32_t share, std::string& error) override
    {
        std::lock_guard lock(m_mutex);
        adopted.push_back(share);
        if (!alive)
            error = "deadline exceeded";
        return alive;
    }
    std::vector<std::uint32_t> adoptedShares()
    {
        std::lock_guard lock(m_mutex);
        return adopted;
    }
    bool heartbeat(const std::string&) override
    {
        std::lock_guard lock(m_mutex);
        ++heartbeats;
        return alive;
    }
    // holdHeartbeats: asked, never answered until answerHeld() (a frozen
    // agent whose calls wait for their deadline).
    void heartbeatAsync(const std::string& runId, std::function<void(bool)> done) override
    {
        {
            std::lock_guard lock(m_mutex);
            if (holdHeartbeats) {
                ++heartbeats;
                held.push_back(std::move(done));
                return;
            }
        }
        done(heartbeat(runId));
    }
    void answerHeld()
    {
        std::vector<std::function<void(bool)>> answers;
        {
            std::lock_guard lock(m_mutex);
            holdHeartbeats = false;
            answers.swap(held);
        }
        for (auto& a : answers)
            a(false);
    }
    int heartbeatCount()
    {
        std::lock_guard lock(m_mutex);
        return heartbeats;
    }
    bool reachable() override { return true; } // frozen, not dead
    void watch(const std::string&, std::uint64_t after, const SnapshotCallback& cb) override
    {
        std::unique_lock lock(m_mutex);
        for (;;) {
            m_cv.wait(lock, [&] { return m_cancelled || (!m_queue.empty() && alive); });
            if (m_cancelled)
                return;
            v1::Snapshot s = std::move(m_queue.front());
            m_queue.pop_front();
            if (s.sequence() <= after)
                continue;
            lock.unlock();
            cb(s);
            lock.lock();
            if (s.final())
                return;
        }
    }
    void cancelWatch() override
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        m_cv.notify_all();
    }

    void queue(std::uint32_t second, std::uint64_t requests, std::uint64_t sent = 0)
    {
        IntervalMetrics m;
        m.second = second;
        m.steps.resize(1);
        m.steps[0].counters.requests = requests;
        m.steps[0].counters.sent = sent;
        v1::Snapshot s;
        encodeSnapshot(m, s);
        std::lock_guard lock(m_mutex);
        queueLocked(std::move(s));
    }
    void finish()
    {
        std::lock_guard lock(m_mutex);
        queueLocked(finalSnapshot());
    }
    void setAlive(bool on)
    {
        std::lock_guard lock(m_mutex);
        alive = on;
        m_cv.notify_all();
    }
    int stopCount()
    {
        std::lock_guard lock(m_mutex);
        return stops;
    }
    std::vector<double> factorsAsked()
    {
        std::lock_guard lock(m_mutex);
        return factors;
    }

    bool finishOnStop = true;
    bool holdHeartbeats = false;
    std::uint32_t lateBy = 0; // a hand-over applied this many seconds after the one asked

private:
    static v1::Snapshot finalSnapshot()
    {
        v1::Snapshot s;
        s.set_final(true);
        return s;
    }
    void queueLocked(v1::Snapshot s)
    {
        s.set_sequence(++m_sequence);
        m_queue.push_back(std::move(s));
        m_cv.notify_all();
    }

    std::string m_address;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<v1::Snapshot> m_queue;
    std::uint64_t m_sequence = 0;
    bool m_cancelled = false;
    bool alive = true;
    int stops = 0, heartbeats = 0;
    std::vector<double> factors;
    std::vector<std::function<void(bool)>> held;
    std::vector<std::uint32_t> adopted;
    std::vector<v1::StartRunRequest> started;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> handedOver; // (share, from second)
};

v1::Bundle oneStepBundle()
{
    v1::Bundle b;
    b.mutable_scenario()->add_steps()->mutable_request()->set_url("http://127.0.0.1:1/");
    return b;
}

} // namespace

class TestController : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void slowSinkCostsNoHealthyAgent()
    {
        // The sink takes 5 s over the first second; the agent keeps talking
        // meanwhile (heartbeats, seconds 2-4) and must not be declared lost.
        auto link = std::make_unique<ScriptedLink>("a:1");
        ScriptedLink* a = link.get();
        std::vector<AgentLinkPtr> links;
        links.push_back(std::move(link));
        ControllerOptions o;
        o.heartbeatInterval = 100 * kNanosPerMilli;
        Controller c(std::move(links), o);
        std::string error;
        QVERIFY(c.connect(error));
        std::thread agent([a] {
            for (std::uint32_t s = 1; s <= 4; ++s) {
                a->queue(s, 10 * s);
                std::this_thread::sleep_for(std::chrono::milliseconds(300));
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(4500));
            a->finish();
        });
        std::vector<std::uint32_t> seconds;
        Controller::Callbacks cb;
        cb.onSecond = [&](const IntervalMetrics& m, const SecondSummary&) {
            seconds.push_back(m.second);
            if (m.second == 1)
                std::this_thread::sleep_for(std::chrono::seconds(5));
        };
        const RunResult r = c.run(oneStepBundle(), "st-slow", 1, cb);
        agent.join();
        QVERIFY(r.ok);
        QVERIFY(!r.aborted);
        QVERIFY2(r.events.empty(), r.events.empty() ? "" : r.events[0].kind.c_str());
        QCOMPARE(seconds, (std::vector<std::uint32_t>{1, 2, 3, 4}));
        QCOMPARE(r.total.steps[0].counters.requests, std::uint64_t(100));
    }

    void frozenHeartbeatHoldsBackNoOther()
    {
        // a's heartbeat is never answered (frozen, its call waiting for its
        // deadline): b is still asked every 20 ms, and a is not asked again
        // while its answer is due. The run ends only once a's answer came.
        std::vector<AgentLinkPtr> links;
        links.push_back(std::make_unique<ScriptedLink>("a:1"));
        links.push_back(std::make_unique<ScriptedLink>("b:1"));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        auto* b = static_cast<ScriptedLink*>(links[1].get());
        a->holdHeartbeats = true;
        ControllerOptions o;
        o.heartbeatInterval = 20 * kNanosPerMilli;
        Controller c(std::move(links), o);
        std::string error;
        QVERIFY(c.connect(error));
        RunResult r;
        std::atomic<bool> done{false};
        std::thread runner([&] {
            r = c.run(oneStepBundle(), "st-held", 1, {});
            done = true;
        });
        QTRY_VERIFY_WITH_TIMEOUT(b->heartbeatCount() >= 10, 2000);
        QCOMPARE(a->heartbeatCount(), 1);
        a->finish();
        b->finish();
        QTest::qWait(200);
        QVERIFY(!done.load()); // a's answer is still due
        a->answerHeld();
        runner.join();
        QVERIFY(r.ok);
    }

    void frozenAgentIsLostByTheClockAndStoppedAgain()
    {
        // Simulated time: b freezes; the test moves the clock 3 s and the
        // controller loses b, aborts, stops a, and keeps asking b to stop.
        auto clock = std::make_shared<FakeClock>();
        std::vector<AgentLinkPtr> links;
        links.push_back(std::make_unique<ScriptedLink>("a:1"));
        links.push_back(std::make_unique<ScriptedLink>("b:1"));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        auto* b = static_cast<ScriptedLink*>(links[1].get());
        a->finishOnStop = false; // a ends only when the test says so
        ControllerOptions o;
        o.clock = clock;
        o.heartbeatInterval = 20 * kNanosPerMilli;
        Controller c(std::move(links), o);
        std::string error;
        QVERIFY(c.connect(error));
        RunResult r;
        std::vector<RunEvent> live;
        std::atomic<int> merged{0};
        std::thread runner([&] {
            Controller::Callbacks cb;
            cb.onEvent = [&](const RunEvent& e) { live.push_back(e); };
            cb.onSecond = [&](const IntervalMetrics&, const SecondSummary&) { ++merged; };
            r = c.run(oneStepBundle(), "st-frozen", 1, cb);
        });
        a->queue(1, 5);
        b->queue(1, 5);
        QTRY_COMPARE_WITH_TIMEOUT(merged.load(), 1, 2000);
        b->setAlive(false);
        QTest::qWait(100);
        clock->advance(2 * kS);
        QTest::qWait(100);
        QCOMPARE(b->stopCount(), 0); // 2 s of silence: not lost
        clock->advance(kS);          // 3 s
        QTRY_VERIFY_WITH_TIMEOUT(b->stopCount() >= 1, 2000);
        QTRY_VERIFY_WITH_TIMEOUT(a->stopCount() >= 1, 2000); // the abort stops the others
        const int before = b->stopCount();
        clock->advance(kS + 1);
        QTRY_VERIFY_WITH_TIMEOUT(b->stopCount() > before, 2000); // retried a second later
        a->finish();
        // The run is over, but b is still asked to stop, a second apart...
        const int afterRun = b->stopCount();
        clock->advance(kS + 1);
        QTRY_VERIFY_WITH_TIMEOUT(b->stopCount() > afterRun, 2000);
        // ...until it thaws: it tells what it sent in the second it froze in
        // (2: merged without it when it was lost) and after the loss (9),
        // takes the Stop and ends. Neither is in the results; both are counted.
        b->queue(2, 4, 5);
        b->queue(9, 0, 7);
        b->setAlive(true);
        clock->advance(kS + 1);
        runner.join();
        QVERIFY(r.ok);
        QVERIFY(r.aborted);
        QCOMPARE(r.sentAfterLoss, std::uint64_t(12));
        QCOMPARE(r.total.steps[0].counters.requests, std::uint64_t(10)); // second 1 only: late data is apart
        QCOMPARE(r.events.size(), std::size_t(3));
        QCOMPARE(r.events[0].kind, std::string("agent_lost"));
        QCOMPARE(r.events[0].fromSecond, 1u);
        QCOMPARE(r.events[1].kind, std::string("run_aborted"));
        QCOMPARE(r.events[2].kind, std::string("sent_after_loss"));
        QCOMPARE(live.size(), std::size_t(3)); // told as they happened
    }

    // Rebalance: a lost agent's shares (its own and those it carried) go to
    // the survivor that runs the fewest, each an event; with no survivor
    // left, the run aborts (its planned load cannot be kept).
    void lostSharesGoToTheSurvivors()
    {
        auto clock = std::make_shared<FakeClock>();
        std::vector<AgentLinkPtr> links;
        for (const char* name : {"a:1", "b:1", "c:1"})
            links.push_back(std::make_unique<ScriptedLink>(name));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        auto* b = static_cast<ScriptedLink*>(links[1].get());
        auto* c = static_cast<ScriptedLink*>(links[2].get());
        ControllerOptions o;
        o.clock = clock;
        o.heartbeatInterval = 20 * kNanosPerMilli;
        o.onAgentLoss = AgentLossPolicy::Rebalance;
        Controller ctl(std::move(links), o);
        std::string error;
        QVERIFY(ctl.connect(error));
        RunResult r;
        std::thread runner([&] { r = ctl.run(oneStepBundle(), "st-rebalance", 1, {}); });
        // time moves in steps the living agents' heartbeats keep up with
        const auto pass = [&](int halfSeconds) {
            for (int i = 0; i < halfSeconds; ++i) {
                clock->advance(kS / 2);
                QTest::qWait(60);
            }
        };
        c->setAlive(false);
        QTest::qWait(100);
        pass(7); // c lost: its share (index 2) to a, the first of those running one
        QTRY_COMPARE_WITH_TIMEOUT(a->adoptedShares(), std::vector<std::uint32_t>{2}, 2000);
        QVERIFY(b->adoptedShares().empty());
        b->setAlive(false);
        QTest::qWait(100);
        pass(7); // b lost: a is the only one left
        QTRY_COMPARE_WITH_TIMEOUT(a->adoptedShares(), (std::vector<std::uint32_t>{2, 1}), 2000);
        a->finish();
        pass(12); // b and c are asked to stop until their dead-man must have fired
        runner.join();
        QVERIFY(r.ok);
        QVERIFY(!r.aborted);
        QCOMPARE(r.agents.size(), std::size_t(3));
        QCOMPARE(r.agents[0].shares, (std::vector<std::uint32_t>{1, 3, 2}));
        QVERIFY(r.agents[1].lost && r.agents[2].lost && !r.agents[0].lost);
        int rebalanced = 0;
        for (const RunEvent& e : r.events)
            rebalanced += e.kind == "rebalanced";
        QCOMPARE(rebalanced, 2);

        // alone, a lost agent leaves nobody to carry its share: aborted
        auto clock2 = std::make_shared<FakeClock>();
        std::vector<AgentLinkPtr> one;
        one.push_back(std::make_unique<ScriptedLink>("d:1"));
        auto* d = static_cast<ScriptedLink*>(one[0].get());
        o.clock = clock2;
        Controller alone(std::move(one), o);
        QVERIFY(alone.connect(error));
        std::thread runner2([&] { r = alone.run(oneStepBundle(), "st-alone", 1, {}); });
        d->setAlive(false);
        QTest::qWait(100);
        for (int i = 0; i < 9; ++i) {
            clock2->advance(kS);
            QTest::qWait(50);
        }
        runner2.join();
        QVERIFY(r.aborted);
        QVERIFY(std::any_of(r.events.begin(), r.events.end(), [](const RunEvent& e) {
            return e.kind == "run_aborted" && e.detail.find("no agent is left") != std::string::npos;
        }));
    }

    // Shares follow the cores each agent's Hello says: alike agents run i,
    // i + n, ...; 6 and 2 cores with no --shares: 8 shares, 6 and 2; a lost
    // agent's share goes to the survivor with the fewest for its cores.
    void sharesFollowCores()
    {
        using Split = std::vector<std::vector<std::uint32_t>>;
        QCOMPARE(splitShares({4, 4}, 6), (Split{{0, 2, 4}, {1, 3, 5}}));
        QCOMPARE(splitShares({0, 0, 0}, 3), (Split{{0}, {1}, {2}}));
        QCOMPARE(splitShares({8, 2}, 10), (Split{{0, 2, 4, 5, 6, 7, 8, 9}, {1, 3}}));
        QCOMPARE(splitShares({64, 1, 1}, 3), (Split{{0}, {1}, {2}})); // every agent at least one
        QCOMPARE(splitShares({6, 1, 1}, 4), (Split{{0, 3}, {1}, {2}}));
        QCOMPARE(splitShares({3, 2}, 2), (Split{{0}, {1}}));
        QCOMPARE(defaultShareCount({4, 4, 4}, 1024), 3u);
        QCOMPARE(defaultShareCount({6, 2}, 1024), 8u);
        QCOMPARE(defaultShareCount({600, 600, 2}, 1024), 1024u);
        QCOMPARE(defaultShareCount({}, 1024), 0u);
        for (std::uint32_t total = 3; total < 200; total += 7) { // each share once, every agent some
            const Split s = splitShares({16, 1, 3}, total);
            std::vector<std::uint32_t> all;
            for (const auto& one : s) {
                QVERIFY(!one.empty());
                all.insert(all.end(), one.begin(), one.end());
            }
            std::sort(all.begin(), all.end());
            for (std::uint32_t k = 0; k < total; ++k)
                QCOMPARE(all[k], k);
            QCOMPARE(all.size(), std::size_t(total));
        }

        auto clock = std::make_shared<FakeClock>();
        std::vector<AgentLinkPtr> links;
        links.push_back(std::make_unique<ScriptedLink>("big:1", 6));
        links.push_back(std::make_unique<ScriptedLink>("small:1", 2));
        links.push_back(std::make_unique<ScriptedLink>("lost:1", 2));
        auto* big = static_cast<ScriptedLink*>(links[0].get());
        auto* small = static_cast<ScriptedLink*>(links[1].get());
        auto* lost = static_cast<ScriptedLink*>(links[2].get());
        ControllerOptions o;
        o.clock = clock;
        o.heartbeatInterval = 20 * kNanosPerMilli;
        o.onAgentLoss = AgentLossPolicy::Rebalance;
        Controller ctl(std::move(links), o);
        std::string error;
        QVERIFY(ctl.connect(error));
        RunResult r;
        std::thread runner([&] { r = ctl.run(oneStepBundle(), "st-cores", 1, {}); });
        QTRY_COMPARE(big->startRequests().size(), std::size_t(1));
        QTRY_COMPARE(small->startRequests().size(), std::size_t(1));
        QTRY_COMPARE(lost->startRequests().size(), std::size_t(1));
        const auto sharesOf = [](const v1::StartRunRequest& rq) {
            std::vector<std::uint32_t> s{rq.engine_index()};
            s.insert(s.end(), rq.more_shares().begin(), rq.more_shares().end());
            return s;
        };
        QCOMPARE(big->startRequests()[0].engine_count(), 10u);
        QCOMPARE(sharesOf(big->startRequests()[0]), (std::vector<std::uint32_t>{0, 3, 6, 7, 8, 9}));
        QCOMPARE(sharesOf(small->startRequests()[0]), (std::vector<std::uint32_t>{1, 4}));
        QCOMPARE(sharesOf(lost->startRequests()[0]), (std::vector<std::uint32_t>{2, 5}));
        lost->setAlive(false);
        QTest::qWait(100);
        for (int i = 0; i < 7; ++i) {
            clock->advance(kS / 2);
            QTest::qWait(60);
        }
        // 6 for 6 cores is 1 a core, 2 for 2 also: the first (big) takes share 2, then small has fewer a core
        QTRY_COMPARE_WITH_TIMEOUT(big->adoptedShares(), std::vector<std::uint32_t>{2}, 2000);
        QTRY_COMPARE_WITH_TIMEOUT(small->adoptedShares(), std::vector<std::uint32_t>{5}, 2000);
        big->finish();
        small->finish();
        for (int i = 0; i < 24; ++i) {
            clock->advance(kS / 2);
            QTest::qWait(30);
        }
        runner.join();
        QVERIFY(r.ok);
    }

    // --shares 6 over a and b (3 each); with --elastic, c found at the first
    // look-up (10 s) joins: it starts first, from the second after next, with
    // one share from each (the last each runs), at the run's level now, and
    // then a and b hand those over from that second; its seconds are merged
    // from then on. d, found when every agent runs two, takes one of a's
    // (2, 2, 1, 1: the best six shares over four agents give).
    void joinersTakeShares()
    {
        auto clock = std::make_shared<FakeClock>();
        std::vector<AgentLinkPtr> links;
        for (const char* name : {"a:1", "b:1"})
            links.push_back(std::make_unique<ScriptedLink>(name));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        auto* b = static_cast<ScriptedLink*>(links[1].get());
        std::mutex foundMutex;
        std::vector<std::string> present{"a:1", "b:1"};
        std::map<std::string, ScriptedLink*> made;
        ControllerOptions o;
        o.clock = clock;
        o.heartbeatInterval = 20 * kNanosPerMilli;
        o.onAgentLoss = AgentLossPolicy::Rebalance;
        o.snapshotStall = 0; // the scripted agents send their seconds at the end, all at once
        o.shares = 6;
        o.discover = [&] {
            std::lock_guard lock(foundMutex);
            return present;
        };
        o.linkFor = [&](const std::string& address) -> AgentLinkPtr {
            auto link = std::make_unique<ScriptedLink>(address);
            std::lock_guard lock(foundMutex);
            made[address] = link.get();
            return link;
        };
        Controller ctl(std::move(links), o);
        std::string error;
        QVERIFY(ctl.connect(error));
        RunResult r;
        std::thread runner([&] { r = ctl.run(oneStepBundle(), "st-join", 1, {}); });
        QTRY_COMPARE(a->startRequests().size(), std::size_t(1));
        QTRY_COMPARE(b->startRequests().size(), std::size_t(1));
        const v1::StartRunRequest sa = a->startRequests()[0];
        QCOMPARE(sa.engine_count(), 6u);
        QCOMPARE(sa.engine_index(), 0u);
        QCOMPARE(std::vector<std::uint32_t>(sa.more_shares().begin(), sa.more_shares().end()),
                 (std::vector<std::uint32_t>{2, 4}));
        QCOMPARE(b->startRequests()[0].engine_index(), 1u);
        ctl.control()->scale(0.5);
        const auto pass = [&](int halfSeconds) {
            for (int i = 0; i < halfSeconds; ++i) {
                clock->advance(kS / 2);
                QTest::qWait(40);
            }
        };
        pass(10); // 5 s: nobody new
        {
            std::lock_guard lock(foundMutex);
            present.push_back("c:1");
        }
        pass(11); // 10.5 s: the look-up finds c
        ScriptedLink* c = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((c =
                                      [&] {
                                          std::lock_guard lock(foundMutex);
                                          return made.count("c:1") ? made["c:1"] : nullptr;
                                      }()) != nullptr,
                                 3000);
        QTRY_COMPARE_WITH_TIMEOUT(c->startRequests().size(), std::size_t(1), 3000);
        const v1::StartRunRequest sc = c->startRequests()[0];
        QCOMPARE(sc.engine_count(), 6u);
        QCOMPARE(sc.engine_index(), 4u); // a's last
        QCOMPARE(std::vector<std::uint32_t>(sc.more_shares().begin(), sc.more_shares().end()),
                 std::vector<std::uint32_t>{5}); // b's last
        const std::uint32_t from = sc.from_second();
        QVERIFY2(from >= 12 && from <= 13, qPrintable(QString::number(from)));
        QCOMPARE(sc.level_factor(), 0.5);
        QVERIFY(sc.elapsed_ns() >= std::uint64_t(10 * kS) && sc.elapsed_ns() <= std::uint64_t(12 * kS));
        QTRY_COMPARE(a->handOvers(), (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, from}}));
        QTRY_COMPARE(b->handOvers(), (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{5, from}}));
        {
            std::lock_guard lock(foundMutex);
            present.push_back("d:1");
        }
        pass(21); // the next look-up finds d
        ScriptedLink* d = nullptr;
        QTRY_VERIFY_WITH_TIMEOUT((d =
                                      [&] {
                                          std::lock_guard lock(foundMutex);
                                          return made.count("d:1") ? made["d:1"] : nullptr;
                                      }()) != nullptr,
                                 3000);
        QTRY_COMPARE_WITH_TIMEOUT(d->startRequests().size(), std::size_t(1), 3000);
        QCOMPARE(d->startRequests()[0].engine_index(), 2u);
        QCOMPARE(d->startRequests()[0].more_shares_size(), 0);
        const std::uint32_t dFrom = d->startRequests()[0].from_second();
        QTRY_COMPARE(a->handOvers(), (std::vector<std::pair<std::uint32_t, std::uint32_t>>{{4, from}, {2, dFrom}}));
        // every agent delivers its seconds, each joiner from its first on
        for (std::uint32_t sec = 1; sec <= dFrom; ++sec) {
            a->queue(sec, 10);
            b->queue(sec, 10);
            if (sec >= from)
                c->queue(sec, 5);
            if (sec >= dFrom)
                d->queue(sec, 1);
        }
        for (ScriptedLink* link : {a, b, c, d})
            link->finish();
        runner.join();
        QVERIFY(r.ok);
        QVERIFY(!r.aborted);
        QCOMPARE(r.timeline.size(), std::size_t(dFrom));
        QCOMPARE(r.timeline[from - 2].requests, 20u);
        QCOMPARE(r.timeline[from - 1].requests, 25u);
        QCOMPARE(r.timeline[dFrom - 1].requests, 26u);
        QCOMPARE(r.agents.size(), std::size_t(4));
        QCOMPARE(r.agents[2].joinedAt, from);
        QCOMPARE(r.agents[2].shares, (std::vector<std::uint32_t>{5, 6}));
        QCOMPARE(r.agents[3].joinedAt, dFrom);
        int joined = 0, rebalanced = 0;
        for (const RunEvent& e : r.events) {
            joined += e.kind == "agent_joined";
            rebalanced += e.kind == "rebalanced";
        }
        QCOMPARE(joined, 2);
        QCOMPARE(rebalanced, 3);
    }

private:
    // One agent runs one share; each look-up (three: 30 s on the fake clock) finds another, "b:1", made by
    // `linkFor`; `r` is what the run said.
    void runFindingAnother(std::function<AgentLinkPtr(const std::string&)> linkFor, const std::string& id, RunResult& r)
    {
        auto clock = std::make_shared<FakeClock>();
        std::vector<AgentLinkPtr> links;
        links.push_back(std::make_unique<ScriptedLink>("a:1"));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        std::atomic<int> looks{0};
        ControllerOptions o;
        o.clock = clock;
        o.heartbeatInterval = 20 * kNanosPerMilli;
        o.snapshotStall = 0; // the scripted agent sends its second at the end
        o.discover = [&] {
            ++looks;
            return std::vector<std::string>{"a:1", "b:1"};
        };
        o.linkFor = std::move(linkFor);
        Controller ctl(std::move(links), o);
        std::string error;
        QVERIFY(ctl.connect(error));
        std::thread runner([&] { r = ctl.run(oneStepBundle(), id, 1, {}); });
        for (int i = 0; i < 70 && looks < 3; ++i) { // three look-ups: 30 s
            clock->advance(kS / 2);
            QTest::qWait(40);
        }
        QTRY_VERIFY(looks >= 3);
        QTest::qWait(100);
        a->queue(1, 10);
        a->finish();
        runner.join();
        QVERIFY(r.ok);
        QCOMPARE(r.agents.size(), std::size_t(1));
    }

private Q_SLOTS:
    // Issue 52: "generator saturated" needs the generator's own evidence, and says which figure: its CPU, or its
    // send lag with its own loop late while busy; a send lag alone (a machine busy with other work) is none.
    void generatorLimitedNeedsItsOwnEvidence()
    {
        using stampede::AgentLedger;
        QVERIFY(AgentLedger::limitedBy(0.04, 0.3, 250).empty()); // the demo: 4 % CPU, a busy machine's send lag
        QVERIFY(AgentLedger::limitedBy(0.01, 40, 80).empty());   // a slow server at 1 % CPU
        QVERIFY(AgentLedger::limitedBy(0.7, 2, 25).empty());     // busy, but its loop on time
        const std::string cpu = AgentLedger::limitedBy(0.95, 0, 0);
        QVERIFY2(cpu.find("CPU 95 %") == 0, cpu.c_str());
        const std::string lag = AgentLedger::limitedBy(0.7, 30, 25);
        QVERIFY2(lag.find("send lag p99 25.0 ms with its event loop 30.0 ms late at CPU 70 %") == 0, lag.c_str());
        // in the ledger: once, naming the figure, and in the agent's report
        AgentLedger ledger({"a"}, {{0}});
        stampede::IntervalMetrics quiet;
        quiet.second = 1;
        quiet.steps.resize(1);
        quiet.health.cpu = 0.04;
        quiet.health.rssBytes = 1;
        for (int k = 0; k < 100; ++k)
            quiet.steps[0].sendLag.record(300'000); // 300 ms of send lag at 4 % CPU
        QVERIFY(quiet.health.known());
        QVERIFY(ledger.add(0, quiet).empty());
        stampede::IntervalMetrics hot = quiet;
        hot.second = 2;
        hot.health.cpu = 0.97;
        const std::string event = ledger.add(0, hot);
        QVERIFY2(event.find("in second 2: CPU 97 %") == 0, event.c_str());
        QVERIFY(ledger.add(0, hot).empty()); // once
        const auto reports = ledger.reports();
        QCOMPARE(reports[0].limitedSeconds, 2u);
        QVERIFY(reports[0].limitedBy.find("CPU 97 %") == 0);
    }

    // One share per agent (no --shares): an agent found has nothing to take;
    // it is said once, however many look-ups find it.
    void aJoinerWithNothingToTakeIsSaidOnce()
    {
        RunResult r;
        runFindingAnother(
            [](const std::string& address) -> AgentLinkPtr { return std::make_unique<ScriptedLink>(address); },
            "st-idle", r);
        if (QTest::currentTestFailed())
            return;
        QCOMPARE(
            std::count_if(r.events.begin(), r.events.end(), [](const RunEvent& e) { return e.kind == "agent_idle"; }),
            std::ptrdiff_t(1));
    }

    // An agent found that does not answer its hello (a busy machine: 2 s pass) does not join, and the run says
    // why, once, however many look-ups find it.
    void aJoinerThatDoesNotAnswerIsSaidOnce()
    {
        struct SilentLink : ScriptedLink
        {
            using ScriptedLink::ScriptedLink;
            bool hello(const std::string&, Nanos, v1::HelloReply&, std::string& why) override
            {
                why = "Deadline Exceeded";
                return false;
            }
        };
        RunResult r;
        runFindingAnother(
            [](const std::string& address) -> AgentLinkPtr { return std::make_unique<SilentLink>(address); },
            "st-silent", r);
        if (QTest::currentTestFailed())
            return;
        std::vector<RunEvent> said;
        std::copy_if(r.events.begin(), r.events.end(), std::back_inserter(said),
                     [](const RunEvent& e) { return e.kind == "agent_not_joined"; });
        QCOMPARE(said.size(), std::size_t(1));
        QCOMPARE(said[0].agent, std::string("b:1"));
        QVERIFY2(said[0].detail.find("did not answer its hello in 2 s (Deadline Exceeded)") != std::string::npos,
                 said[0].detail.c_str());
    }

    // A run with rendezvous points counts its users over the agents that
    // started: it refuses --elastic.
    void elasticRefusesRendezvous()
    {
        std::vector<AgentLinkPtr> links;
        links.push_back(std::make_unique<ScriptedLink>("a:1"));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        ControllerOptions o;
        o.discover = [] { return std::vector<std::string>{}; };
        Controller ctl(std::move(links), o);
        ctl.setRendezvous({{10, kS}});
        std::string error;
        QVERIFY(ctl.connect(error));
        const RunResult r = ctl.run(oneStepBundle(), "st-rv", 1, {});
        QVERIFY(!r.ok);
        QVERIFY2(r.error.find("--elastic") != std::string::npos, r.error.c_str());
        QVERIFY(a->startRequests().empty());
    }

    void lostAgentIsStoppedUntilItsDeadManMustHaveFired()
    {
        // b never answers again: Stop is retried after the run, and given up
        // once b's own dead-man (3 s) must have stopped it, plus a second.
        auto clock = std::make_shared<FakeClock>();
        std::vector<AgentLinkPtr> links;
        links.push_back(std::make_unique<ScriptedLink>("a:1"));
        links.push_back(std::make_unique<ScriptedLink>("b:1"));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        auto* b = static_cast<ScriptedLink*>(links[1].get());
        ControllerOptions o;
        o.clock = clock;
        o.heartbeatInterval = 20 * kNanosPerMilli;
        o.deadManSeconds = 3;
        Controller c(std::move(links), o);
        std::string error;
        QVERIFY(c.connect(error));
        std::atomic<bool> done{false};
        RunResult r;
        std::thread runner([&] {
            r = c.run(oneStepBundle(), "st-gone", 1, {});
            done = true;
        });
        b->setAlive(false);
        QTest::qWait(100);
        clock->advance(3 * kS); // lost; the abort stops a, which ends
        QTRY_VERIFY_WITH_TIMEOUT(a->stopCount() >= 1, 2000);
        for (int s = 0; s < 3; ++s) { // 3 more seconds: still asking
            const int before = b->stopCount();
            clock->advance(kS + 1);
            QTRY_VERIFY_WITH_TIMEOUT(b->stopCount() > before, 2000);
        }
        QVERIFY(!done);
        clock->advance(kS); // 4 s after the loss: its dead-man has fired
        runner.join();
        QVERIFY(r.aborted);
        QCOMPARE(r.sentAfterLoss, std::uint64_t(0));
    }

    void liveControlIsAQueue()
    {
        std::vector<AgentLinkPtr> links;
        links.push_back(std::make_unique<ScriptedLink>("a:1"));
        auto* a = static_cast<ScriptedLink*>(links[0].get());
        Controller c(std::move(links), {});
        std::string error;
        QVERIFY(c.connect(error));
        const std::shared_ptr<RunControl> control = c.control();
        control->pause(); // asked before the run: carried out once it runs
        RunResult result;
        std::thread runner([&] { result = c.run(oneStepBundle(), "st-queue", 1, {}); });
        QTRY_COMPARE_WITH_TIMEOUT(a->factorsAsked().size(), std::size_t(1), 2000);
        control->scale(2.0); // while paused: remembered, level stays 0
        control->resume();
        QTRY_COMPARE_WITH_TIMEOUT(a->factorsAsked(), (std::vector<double>{0, 0, 2.0}), 2000);
        QVERIFY(c.adjust(0.5, error)); // the blocking form waits for the run's thread
        QCOMPARE(a->factorsAsked().back(), 0.5);
        control->stop();
        runner.join();
        // each command carried out is an event of the run, saved with it
        std::vector<std::string> kinds;
        for (const auto& e : result.events)
            kinds.push_back(e.kind);
        QCOMPARE(kinds, (std::vector<std::string>{"paused", "scaled", "resumed", "scaled"}));
        QCOMPARE(result.events[2].detail, std::string("level x2 of the plan"));
        QVERIFY(result.stopped);
        bool refused = false;
        control->scale(3, [&](bool ok, const std::string& why) { refused = !ok && why == "the run has ended"; });
        QVERIFY(refused);
        QVERIFY(!c.adjust(1, error));
        QCOMPARE(error, std::string("the run has ended"));
    }

    // Connect and handshake times cross from an engine to the summary as
    // histograms, full and resumed handshakes apart; a count without its times
    // (an older engine's) gives no percentiles rather than wrong ones.
    // A run with trace: a few trace ids of each step cross the wire (at most kTracesPerStep a step, merged over
    // engines too); a peer's that is no trace id, or names no step, is refused.
    void traceIdsCrossTheWire()
    {
        IntervalMetrics m;
        m.steps.resize(2);
        const std::string a(32, 'a'), b(32, 'b'), c(32, 'c');
        for (const std::string* t : {&a, &b, &c})
            m.keepTrace(0, *t);
        m.keepTrace(1, c);
        m.keepTrace(1, "");
        QCOMPARE(m.traces.size(), std::size_t(3)); // 2 of step 0, 1 of step 1
        v1::Snapshot wire;
        encodeSnapshot(m, wire);
        IntervalMetrics back;
        std::string error;
        QVERIFY2(decodeSnapshot(wire, back, error), error.c_str());
        QCOMPARE(back.traces.size(), std::size_t(3));
        QCOMPARE(back.traces[1].trace, b);
        IntervalMetrics merged;
        merged.steps.resize(2);
        merged.merge(back);
        merged.merge(back); // the same ids again: once
        QCOMPARE(merged.traces.size(), std::size_t(3));
        wire.mutable_traces(0)->set_trace("not-hex");
        QVERIFY(!decodeSnapshot(wire, back, error));
        QVERIFY2(error.find("trace id") != std::string::npos, error.c_str());
        wire.mutable_traces(0)->set_trace(a);
        wire.mutable_traces(0)->set_step(7);
        QVERIFY(!decodeSnapshot(wire, back, error));
    }

    void connectionTimesCrossTheWire()
    {
        IntervalMetrics m;
        m.steps.resize(1);
        StepMetrics& st = m.steps[0];
        for (const std::uint64_t us : {20, 30, 4000}) {
            ++st.counters.connects;
            st.connect.record(us);
        }
        st.counters.handshakes = 3;
        st.counters.handshakesResumed = 2;
        st.handshake.record(1500);
        st.resumed.record(400);
        st.resumed.record(600);
        v1::Snapshot wire;
        encodeSnapshot(m, wire);
        IntervalMetrics back;
        std::string error;
        QVERIFY2(decodeSnapshot(wire, back, error), error.c_str());
        MetricsSummary s = summarizeMetrics("total", back.steps[0], 1);
        QVERIFY(s.connect && s.handshake && s.resumed);
        QCOMPARE(s.connect->p50, 0.03);
        QCOMPARE(s.connect->max, 4.0);
        QCOMPARE(s.handshake->p50, 1.5);
        QCOMPARE(s.resumed->max, 0.6);
        RunSummary run;
        run.total = s;
        const std::string json = summaryToJson(run);
        for (const char* key : {"\"connect_ms\"", "\"tls_full_handshake_ms\"", "\"tls_resumed_handshake_ms\""})
            QVERIFY2(json.find(key) != std::string::npos, key);

        // counted by an engine that does not time them: no percentiles
        back.steps[0].connect.clear();
        back.steps[0].resumed.clear();
        s = summarizeMetrics("total", back.steps[0], 1);
        QVERIFY(!s.connect && !s.resumed && s.handshake);
        run.total = s;
        QVERIFY(summaryToJson(run).find("\"connect_ms\"") == std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestController)
#include "tst_controller.moc"
