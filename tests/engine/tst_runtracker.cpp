// Loss, abort, dead-man and late agents, with simulated seconds: RunTracker
// and DeadManTimer take the injected clock, so nothing here sleeps.
#include "agent/deadman.h"
#include "control/namedtests.h"
#include "control/runtracker.h"
#include "plan/scenarioplan.h"
#include "stampede/v1/control.pb.h"
#include "wire/snapshotcodec.h"

#include <QTest>

using namespace stampede;

namespace {

constexpr Nanos kS = kNanosPerSecond;

// A snapshot of `second` in which one step completed `requests` requests.
v1::Snapshot secondOf(std::uint32_t second, std::uint64_t requests, bool final = false)
{
    IntervalMetrics m;
    m.second = second;
    m.steps.resize(1);
    m.steps[0].counters.sent = requests;
    m.steps[0].counters.requests = requests;
    for (std::uint64_t i = 0; i < requests; ++i)
        m.steps[0].latency.record(1000 + i);
    v1::Snapshot s;
    encodeSnapshot(m, s);
    s.set_final(final);
    return s;
}

v1::Snapshot finalOnly()
{
    v1::Snapshot s;
    s.set_final(true);
    return s;
}

std::uint64_t requestsOf(const MergedSecond& s)
{
    return s.merged->steps[0].counters.requests;
}

} // namespace

class TestRunTracker : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void agentLostAfterThreeSecondsOfSilence()
    {
        FakeClock clock(100 * kS);
        RunTracker t({"a", "b"}, 1, clock, {3 * kS, false});
        // a speaks every half second; b delivers its first second, then falls silent
        t.snapshot(1, secondOf(1, 10), clock.now());
        for (int i = 0; i < 5; ++i) {
            clock.advance(kS / 2);
            t.heard(0, clock.now());
            QVERIFY(t.checkHealth().empty());
        }
        clock.advance(kS / 2 - 1); // 2.999999999 s of silence from b
        t.heard(0, clock.now());
        QVERIFY(t.checkHealth().empty());
        clock.advance(1); // 3 s
        const auto lost = t.checkHealth();
        QCOMPARE(lost.size(), std::size_t(1));
        QCOMPARE(lost[0], std::size_t(1));
        QVERIFY(t.lost(1));
        QVERIFY(!t.lost(0));
        QVERIFY(t.checkHealth().empty()); // declared once
        QCOMPARE(t.events().size(), std::size_t(1));
        const RunEvent& e = t.events()[0];
        QCOMPARE(e.kind, std::string("agent_lost"));
        QCOMPARE(e.agent, std::string("b"));
        QCOMPARE(e.detail, std::string("no word for 3000 ms"));
        QCOMPARE(e.fromSecond, 1u);
        QCOMPARE(e.toSecond, 1u);
        QCOMPARE(e.atS, 3.0);
        QVERIFY(!t.aborted()); // the policy is continue
    }

    // An agent that answers every heartbeat but whose snapshots stopped (a
    // snapshot its stream cannot write) is lost after snapshotStall, so the
    // run ends; one that delivers a second each second never is.
    void anAgentWhoseSnapshotsStopIsLost()
    {
        FakeClock clock(100 * kS);
        RunTracker::Policy policy{3 * kS, false};
        policy.snapshotStall = 15 * kS;
        RunTracker t({"a", "b"}, 1, clock, policy);
        for (std::uint32_t s = 1; s <= 30; ++s) {
            clock.advance(kS);
            t.heard(1, clock.now()); // b answers heartbeats, every second
            t.snapshot(0, secondOf(s, 10), clock.now());
            if (s == 2)
                t.snapshot(1, secondOf(1, 10), clock.now()); // b's last snapshot, at 2 s
            const auto lost = t.checkHealth();
            if (s < 17) {
                QVERIFY2(lost.empty(), qPrintable(QString::number(s)));
                continue;
            }
            if (s == 17) {
                QCOMPARE(lost, std::vector<std::size_t>{1});
                QCOMPARE(t.events().back().detail,
                         std::string("it answers but sent no snapshot for 15000 ms (its stream's writes fail)"));
            } else {
                QVERIFY(lost.empty());
            }
        }
        QVERIFY(!t.lost(0));
        t.snapshot(0, finalOnly(), clock.now());
        QVERIFY(t.ended());
    }

    void abortPolicy_data()
    {
        QTest::addColumn<bool>("abort");
        QTest::addRow("abort") << true;
        QTest::addRow("continue") << false;
    }

    void abortPolicy()
    {
        QFETCH(bool, abort);
        FakeClock clock;
        RunTracker t({"a", "b"}, 1, clock, {3 * kS, abort});
        for (std::uint32_t s = 1; s <= 4; ++s) {
            clock.advance(kS);
            t.snapshot(0, secondOf(s, 100), clock.now());
        }
        // b said nothing for 4 s: lost. Its seconds no longer hold the merge back.
        QCOMPARE(t.checkHealth().size(), std::size_t(1));
        QCOMPARE(t.aborted(), abort);
        QCOMPARE(t.events().size(), std::size_t(abort ? 2 : 1));
        if (abort) {
            QCOMPARE(t.events()[1].kind, std::string("run_aborted"));
            QCOMPARE(t.events()[1].detail, std::string("an agent was lost and the policy is abort"));
        }
        auto ready = t.takeReady(false);
        QCOMPARE(ready.size(), std::size_t(4));
        for (std::uint32_t s = 0; s < 4; ++s) {
            QCOMPARE(ready[s].merged->second, s + 1);
            QCOMPARE(requestsOf(ready[s]), std::uint64_t(100));
        }
        // b thaws and sends its backlog: not counted
        t.snapshot(1, secondOf(5, 700), clock.now());
        t.snapshot(0, secondOf(5, 100, true), clock.now());
        ready = t.takeReady(false);
        QCOMPARE(ready.size(), std::size_t(1));
        QCOMPARE(requestsOf(ready[0]), std::uint64_t(100));
        QVERIFY(t.ended());
    }

    void pausedAgentComesBack()
    {
        // b is frozen for 2.5 s (under the loss timeout): the merge waits for
        // it, then every second is merged in order with both parts.
        FakeClock clock;
        RunTracker t({"a", "b"}, 1, clock, {3 * kS, true});
        clock.advance(kS);
        t.snapshot(0, secondOf(1, 10), clock.now());
        t.snapshot(1, secondOf(1, 20), clock.now());
        QCOMPARE(t.takeReady(false).size(), std::size_t(1));
        for (std::uint32_t s = 2; s <= 3; ++s) {
            clock.advance(kS);
            t.snapshot(0, secondOf(s, 10), clock.now());
            QVERIFY(t.checkHealth().empty());
            QVERIFY(t.takeReady(false).empty()); // b has not delivered second s
        }
        clock.advance(kS / 2); // 2.5 s since b was heard
        QVERIFY(t.checkHealth().empty());
        t.snapshot(1, secondOf(2, 20), clock.now());
        t.snapshot(1, secondOf(3, 20), clock.now());
        auto ready = t.takeReady(false);
        QCOMPARE(ready.size(), std::size_t(2));
        QCOMPARE(ready[0].merged->second, 2u);
        QCOMPARE(ready[1].merged->second, 3u);
        QCOMPARE(requestsOf(ready[0]), std::uint64_t(30));
        QCOMPARE(ready[1].parts.size(), std::size_t(2));
        clock.advance(2 * kS); // heard 2 s ago: alive
        QVERIFY(t.checkHealth().empty());
        QVERIFY(!t.aborted());
        t.snapshot(0, finalOnly(), clock.now());
        QVERIFY(!t.ended());
        t.snapshot(1, finalOnly(), clock.now());
        QVERIFY(t.ended());
        QVERIFY(t.events().empty());
    }

    void heartbeatsKeepAQuietAgentAlive()
    {
        // An agent with nothing to report (paused at level 0) still answers
        // heartbeats, and its engine still sends a second each second (with
        // no request in it): never lost, however long the pause.
        FakeClock clock;
        RunTracker t({"a"}, 1, clock, {3 * kS, true});
        for (int i = 0; i < 120; ++i) {
            clock.advance(kS / 2);
            t.heard(0, clock.now());
            if (i % 2)
                t.snapshot(0, secondOf(std::uint32_t(i / 2 + 1), 0), clock.now());
            QVERIFY(t.checkHealth().empty());
        }
        // a word stamped earlier than one already heard does not move time back
        t.heard(0, clock.now() - 10 * kS);
        clock.advance(2 * kS);
        QVERIFY(t.checkHealth().empty());
    }

    void flushAtTheEndTakesIncompleteSeconds()
    {
        FakeClock clock;
        RunTracker t({"a", "b"}, 1, clock, {3 * kS, true});
        t.snapshot(0, secondOf(1, 5), clock.now());
        t.snapshot(0, secondOf(2, 5), clock.now());
        QVERIFY(t.takeReady(false).empty());
        const auto ready = t.takeReady(true);
        QCOMPARE(ready.size(), std::size_t(2));
        QCOMPARE(ready[1].merged->second, 2u);
    }

    // Issue 48: tests a script named at run time (tests['id ' + id]) are counted by name on the engines, merged
    // by name over engines, and become checks of their step after the plan's, each name at one index for the run;
    // past kMaxChecksPerStep in all, one "(other tests)" gathers the rest; a snapshot naming too many is refused.
    void namedTestsBecomeChecksOfTheirStep()
    {
        FakeClock clock;
        RunTracker t({"a", "b"}, 1, clock, {3 * kS, true});
        const auto second = [](std::uint32_t n, std::vector<std::pair<std::string, bool>> tests) {
            IntervalMetrics m;
            m.second = n;
            m.steps.resize(1);
            m.steps[0].counters.requests = 1;
            m.steps[0].latency.record(1000);
            for (const auto& [name, passed] : tests)
                ++(passed ? m.steps[0].namedCount(name).passed : m.steps[0].namedCount(name).failed);
            v1::Snapshot s;
            encodeSnapshot(m, s);
            return s;
        };
        t.snapshot(0, second(1, {{"id 1", true}, {"id 2", false}}), clock.now());
        t.snapshot(1, second(1, {{"id 2", true}, {"id 3", true}}), clock.now());
        t.snapshot(0, second(2, {{"id 3", false}}), clock.now());
        t.snapshot(1, second(2, {}), clock.now());
        ScenarioPlan plan;
        plan.steps.resize(1);
        plan.steps[0].checks.resize(1); // the plan's own check is index 0
        NamedTests named(plan);
        auto ready = t.takeReady(true);
        QCOMPARE(ready.size(), std::size_t(2));
        for (auto& s : ready)
            named.index(*s.merged);
        QCOMPARE(named.names()[0], (std::vector<std::string>{"id 1", "id 2", "id 3"}));
        const auto& first = ready[0].merged->steps[0];
        QVERIFY(first.named.empty());
        QCOMPARE(first.checks.size(), std::size_t(4));
        QCOMPARE(first.checks[2].passed, 1u); // "id 2": passed on b, failed on a
        QCOMPARE(first.checks[2].failed, 1u);
        QCOMPARE(ready[1].merged->steps[0].checks[3].failed, 1u); // "id 3" keeps its index in the next second
        // 60 names more: the step holds 50 checks, the last of them the rest's
        IntervalMetrics many;
        many.steps.resize(1);
        for (int i = 0; i < 60; ++i)
            ++many.steps[0].namedCount("n" + std::to_string(i)).passed;
        QCOMPARE(many.steps[0].named.size(), kMaxNamedTests); // an engine counts 40 apart, the rest together
        QCOMPARE(many.steps[0].named.back().name, std::string(kOtherTests));
        QCOMPARE(many.steps[0].named.back().count.passed, 60u - (kMaxNamedTests - 1));
        named.index(many);
        for (int i = 0; i < 20; ++i) {
            IntervalMetrics more;
            more.steps.resize(1);
            ++more.steps[0].namedCount("m" + std::to_string(i)).failed;
            named.index(more);
        }
        QCOMPARE(1 + named.names()[0].size(), kMaxChecksPerStep);
        QCOMPARE(std::count(named.names()[0].begin(), named.names()[0].end(), std::string(kOtherTests)), 1);
        // a snapshot naming more tests of a step than an engine keeps is refused, an event
        v1::Snapshot tooMany = second(3, {});
        for (std::size_t i = 0; i <= kMaxNamedTests; ++i)
            tooMany.mutable_steps(0)->add_named_checks()->set_name("x" + std::to_string(i));
        const std::size_t events = t.events().size();
        t.snapshot(0, tooMany, clock.now());
        QCOMPARE(t.events().size(), events + 1);
        QCOMPARE(t.events().back().kind, std::string("agent_error"));
    }

    // Why a check failed crosses the control protocol with its counts: the first message kept (of the first
    // agent's second to say one), a named test's given its index's; a name or message cut at its limit ends on
    // a whole character (valid UTF-8 to encode); a snapshot giving more messages than a step has checks is refused.
    void failureMessagesTravelWithTheirChecks()
    {
        FakeClock clock;
        RunTracker t({"a", "b"}, 1, clock, {3 * kS, true});
        const auto second = [](std::vector<std::string> messages, const std::string& named, const std::string& why) {
            IntervalMetrics m;
            m.second = 1;
            m.steps.resize(1);
            m.steps[0].counters.requests = 1;
            m.steps[0].latency.record(1000);
            m.steps[0].checks.resize(2);
            for (std::size_t k = 0; k < messages.size(); ++k) {
                ++m.steps[0].checks[k].failed;
                m.steps[0].noteMessage(k, messages[k]);
            }
            NamedCheckCount& n = m.steps[0].namedEntry(named);
            ++n.count.failed;
            n.message = why;
            v1::Snapshot s;
            encodeSnapshot(m, s);
            return s;
        };
        t.snapshot(0, second({"", "expected 1 to equal 2"}, "id 7", "expected false to be truthy"), clock.now());
        t.snapshot(1, second({"status 500", "expected 3 to equal 2"}, "id 7", "another"), clock.now());
        ScenarioPlan plan;
        plan.steps.resize(1);
        plan.steps[0].checks.resize(2);
        NamedTests named(plan);
        auto ready = t.takeReady(true);
        QCOMPARE(ready.size(), std::size_t(1));
        named.index(*ready[0].merged);
        const StepMetrics& m = ready[0].merged->steps[0];
        QCOMPARE(m.checks.size(), std::size_t(3));
        QCOMPARE(m.checkMessages,
                 (std::vector<std::string>{"status 500", "expected 1 to equal 2", "expected false to be truthy"}));
        QCOMPARE(m.checks[2].failed, 2u);
        // limits: cut before a character, never inside one
        StepMetrics cut;
        const std::string han = "\xe6\xbc\xa2"; // U+6F22, 3 bytes
        std::string longName;
        while (longName.size() < kMaxNamedTestLength + 2)
            longName += han;
        cut.noteMessage(0, longName);
        ++cut.namedCount(longName).failed;
        QVERIFY(cut.checkMessages[0].size() <= kMaxCheckMessageLength && isUtf8(cut.checkMessages[0]));
        QVERIFY(cut.named[0].name.size() <= kMaxNamedTestLength && isUtf8(cut.named[0].name));
        QCOMPARE(cut.named[0].name.size() % 3, std::size_t(0));
        cut.noteMessage(kMaxChecksPerStep, "past the last check"); // no such check: not kept
        QCOMPARE(cut.checkMessages.size(), std::size_t(1));
        // a hostile snapshot: more messages than a step may have checks
        v1::Snapshot tooMany = second({}, "n", "");
        for (std::size_t i = 0; i <= kMaxChecksPerStep; ++i)
            tooMany.mutable_steps(0)->add_check_messages("m");
        const std::size_t events = t.events().size();
        t.snapshot(0, tooMany, clock.now());
        QCOMPARE(t.events().size(), events + 1);
        QCOMPARE(t.events().back().kind, std::string("agent_error"));
    }

    void malformedSnapshotIsAnEvent()
    {
        FakeClock clock;
        RunTracker t({"a"}, 1, clock, {3 * kS, true});
        v1::Snapshot s = secondOf(1, 5);
        s.mutable_steps(0)->set_latency("not a histogram");
        t.snapshot(0, s, clock.now());
        QCOMPARE(t.events().size(), std::size_t(1));
        QCOMPARE(t.events()[0].kind, std::string("agent_error"));
        QVERIFY(t.takeReady(true).empty());
        v1::Snapshot last = finalOnly();
        last.set_error("bad_alloc");
        t.snapshot(0, last, clock.now());
        QCOMPARE(t.events()[t.events().size() - 2].detail, std::string("bad_alloc"));
        // an engine that failed aborts the run, whatever the loss policy
        QVERIFY(t.aborted());
        QCOMPARE(t.events().back().kind, std::string("run_aborted"));
        QCOMPARE(t.events().back().detail, std::string("an engine failed: bad_alloc"));
    }

    void deadManStopsOnceAfterSilence()
    {
        FakeClock clock(5 * kS);
        DeadManTimer dm(clock, 15 * kS);
        for (int i = 0; i < 30; ++i) { // a controller heard every second for 30 s
            clock.advance(kS);
            dm.heard();
            QVERIFY(!dm.expired());
        }
        clock.advance(15 * kS);
        QVERIFY(!dm.expired()); // exactly the limit: not yet
        clock.advance(1);
        QVERIFY(dm.expired());
        QVERIFY(!dm.expired()); // once
        dm.heard();
        clock.advance(60 * kS);
        QVERIFY(!dm.expired());
    }
};

QTEST_GUILESS_MAIN(TestRunTracker)
#include "tst_runtracker.moc"
