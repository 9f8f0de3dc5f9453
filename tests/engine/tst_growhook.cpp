// --grow: the hook fires on the run's seconds (N in a row at the level, never
// a wall clock), once at a time, no sooner than its pause after the last, and
// a command still running when the run ends is killed with its group.
#include "control/growhook.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QTest>

#include <string>
#include <thread>

using namespace stampede;

namespace {

// The kinds and the start of each event's detail, joined.
std::string said(const std::vector<RunEvent>& events)
{
    std::string out;
    for (const RunEvent& e : events)
        out += std::to_string(int(e.atS)) + " " + e.kind + ": " + e.detail + "\n";
    return out;
}

// Calls onSecond until the running command ended (its outcome said), at most 10 s.
std::vector<RunEvent> untilEnded(GrowHook& hook, std::uint32_t& second, double cpu)
{
    for (int i = 0; i < 200; ++i) {
        std::vector<RunEvent> e = hook.onSecond(second++, cpu, 3);
        if (!e.empty())
            return e;
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    return {};
}

} // namespace

class TestGrowHook : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void levelsAndSeconds()
    {
        double level = 0;
        std::uint32_t s = 0;
        std::string error;
        QVERIFY(parseGrowLevel("90%", level, error) && level == 0.9);
        QVERIFY(parseGrowLevel("0.5", level, error) && level == 0.5);
        QVERIFY(parseGrowLevel("0%", level, error) && level == 0);
        QVERIFY(!parseGrowLevel("150%", level, error));
        QVERIFY2(error.find("give 90% or 0.9") != std::string::npos, error.c_str());
        QVERIFY(!parseGrowLevel("2", level, error));
        QVERIFY(!parseGrowLevel("", level, error));
        QVERIFY(parseGrowSeconds("10s", s, error) && s == 10);
        QVERIFY(parseGrowSeconds("3", s, error) && s == 3);
        QVERIFY(!parseGrowSeconds("0s", s, error));
        QVERIFY(!parseGrowSeconds("3601", s, error));
        QVERIFY(!parseGrowSeconds("1.5s", s, error));
    }

    // Three seconds in a row at 90 %: a dip resets the count; the firing says
    // the figures; the command gets the run's environment; no second firing
    // while it runs, nor within the pause after; then again.
    void firesOnSecondsInARow()
    {
        QTemporaryDir dir;
        const std::string out = dir.filePath(QStringLiteral("env")).toStdString();
        GrowOptions o;
        o.command = "echo \"$STAMPEDE_GROW_COUNT $STAMPEDE_AGENTS $STAMPEDE_AGENT_CPU $STAMPEDE_RUN_ID "
                    "$STAMPEDE_SCENARIO\" >> '" +
                    out + "'; echo scaled to $((STAMPEDE_AGENTS + 2))";
        o.seconds = 3;
        o.pause = 20;
        GrowHook hook(o, "st-1", "checkout");
        std::uint32_t t = 1;
        QCOMPARE(said(hook.onSecond(t++, 0.95, 3)), std::string());
        QCOMPARE(said(hook.onSecond(t++, 0.95, 3)), std::string());
        QCOMPARE(said(hook.onSecond(t++, 0.80, 3)), std::string()); // a dip: the count starts again
        QCOMPARE(said(hook.onSecond(t++, 0.91, 3)), std::string());
        QCOMPARE(said(hook.onSecond(t++, 0.92, 3)), std::string());
        QCOMPARE(said(hook.onSecond(t++, 0.97, 3)),
                 std::string("6 grow: the busiest agent's CPU was at or above 90 % for 3 s (97 % now, 3 agents): "
                             "running --grow (firing 1)\n"));
        QCOMPARE(hook.firings(), 1u);
        const std::vector<RunEvent> ended = untilEnded(hook, t, 1.0);
        QCOMPARE(ended.size(), std::size_t(1));
        QCOMPARE(ended[0].detail, std::string("--grow: exit 0: scaled to 5"));
        QFile env(QString::fromStdString(out));
        QVERIFY(env.open(QIODevice::ReadOnly));
        QCOMPARE(env.readAll(), QByteArray("1 3 97 st-1 checkout\n"));
        // busy ever since, but not again before second 26 (the pause from 6)
        while (t < 26)
            QCOMPARE(said(hook.onSecond(t++, 1.0, 3)), std::string());
        QVERIFY(said(hook.onSecond(t++, 1.0, 3)).find("(firing 2)") != std::string::npos);
        QCOMPARE(untilEnded(hook, t, 1.0).size(), std::size_t(1));
        QCOMPARE(hook.firings(), 2u);
    }

    // A command that hangs (and what it started) is killed when the run ends, at once.
    void theRunsEndKillsIt()
    {
        GrowOptions o;
        o.command = "sleep 30 & sleep 30; echo never";
        o.seconds = 1;
        GrowHook hook(o, "st-2", "s");
        QVERIFY(said(hook.onSecond(1, 1.0, 1)).find("firing 1") != std::string::npos);
        QCOMPARE(said(hook.onSecond(2, 1.0, 1)), std::string()); // running: no outcome, no firing
        QElapsedTimer timer;
        timer.start();
        const std::vector<RunEvent> last = hook.finish(2.5);
        QVERIFY2(timer.elapsed() < 3000, qPrintable(QString::number(timer.elapsed())));
        QCOMPARE(said(last), std::string("2 grow: --grow: killed: the run ended\n"));
        QCOMPARE(said(hook.finish(3)), std::string()); // said once
    }

    // No command: never fires.
    void noCommandNoFiring()
    {
        GrowHook hook({}, "st-3", "s");
        for (std::uint32_t t = 1; t < 100; ++t)
            QVERIFY(hook.onSecond(t, 1.0, 1).empty());
        QCOMPARE(hook.firings(), 0u);
    }
};

QTEST_GUILESS_MAIN(TestGrowHook)
#include "tst_growhook.moc"
