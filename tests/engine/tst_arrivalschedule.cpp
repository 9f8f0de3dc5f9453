#include "core/clock.h"
#include "load/arrivalschedule.h"

#include <QTest>
#include <cmath>

using namespace stampede;

class TestArrivalSchedule : public QObject
{
    Q_OBJECT
private slots:
    void constantRateIsEvenlySpaced()
    {
        const auto p = StageProfile::build(1000, {}, 2 * kNanosPerSecond);
        ArrivalSchedule s(p, 0, 1);
        Nanos last = -1;
        int count = 0;
        while (auto t = s.next()) {
            if (last >= 0)
                QVERIFY(std::llabs(*t - last - kNanosPerMilli) <= 1);
            last = *t;
            ++count;
        }
        QCOMPARE(count, 2000);
    }

    void partsInterleaveIntoTheRate()
    {
        const auto p = StageProfile::build(300, {}, kNanosPerSecond);
        std::vector<Nanos> all;
        for (int part = 0; part < 3; ++part) {
            ArrivalSchedule s(p, part, 3);
            while (auto t = s.next())
                all.push_back(*t);
        }
        std::sort(all.begin(), all.end());
        QCOMPARE(all.size(), std::size_t(300));
        for (std::size_t i = 1; i < all.size(); ++i)
            QVERIFY(std::llabs(all[i] - all[i - 1] - kNanosPerSecond / 300) <= 2);
    }

    void rampFollowsTheIntegral()
    {
        // 0 -> 1000/s over 2 s: 1000 arrivals, half of them in the last 0.586 s (sqrt(0.5) of the way)
        StageSpec ramp;
        ramp.kind = StageSpec::Kind::Ramp;
        ramp.duration = 2 * kNanosPerSecond;
        ramp.target = 1000;
        const auto p = StageProfile::build(0, {ramp}, 2 * kNanosPerSecond);
        ArrivalSchedule s(p, 0, 1);
        std::vector<Nanos> times;
        while (auto t = s.next())
            times.push_back(*t);
        QVERIFY(std::abs(int(times.size()) - 1000) <= 1);
        const double median = double(times[500]) / 1e9;
        QVERIFY2(std::abs(median - 2 * std::sqrt(0.5)) < 0.002, qPrintable(QString::number(median)));
        // in each 100 ms window the count equals the integral of the rate, within one
        for (int w = 0; w < 20; ++w) {
            const Nanos a = w * 100 * kNanosPerMilli, b = a + 100 * kNanosPerMilli;
            const auto n = std::count_if(times.begin(), times.end(), [&](Nanos t) { return t >= a && t < b; });
            const double expected = p.cumulative(b) - p.cumulative(a);
            QVERIFY(std::abs(double(n) - expected) <= 1.01);
        }
    }

    void stagesBuildTheExpectedLevels()
    {
        StageSpec step;
        step.kind = StageSpec::Kind::Step;
        step.duration = 4 * kNanosPerSecond;
        step.target = 400;
        step.steps = 4;
        StageSpec spike;
        spike.kind = StageSpec::Kind::Spike;
        spike.duration = kNanosPerSecond;
        spike.target = 1000;
        StageSpec hold;
        hold.duration = kNanosPerSecond;
        const auto p = StageProfile::build(0, {step, spike, hold}, 6 * kNanosPerSecond);
        QCOMPARE(p.levelAt(kNanosPerSecond / 2), 100.0);
        QCOMPARE(p.levelAt(3 * kNanosPerSecond + 1), 400.0);
        QCOMPARE(p.levelAt(4 * kNanosPerSecond + 1), 1000.0);
        QCOMPARE(p.levelAt(5 * kNanosPerSecond + 1), 400.0); // back after the spike
        QCOMPARE(p.peak(), 1000.0);
        QCOMPARE(p.cumulative(6 * kNanosPerSecond), 100.0 + 200 + 300 + 400 + 1000 + 400);
    }

    void profileIsCutToTheDuration()
    {
        StageSpec hold;
        hold.duration = 10 * kNanosPerSecond;
        hold.target = 50;
        const auto p = StageProfile::build(0, {hold}, 2 * kNanosPerSecond);
        QCOMPARE(p.duration(), 2 * kNanosPerSecond);
        QCOMPARE(p.cumulative(10 * kNanosPerSecond), 100.0);
    }

    void rescaleChangesTheRateFromThatMoment()
    {
        const auto p = StageProfile::build(1000, {}, 3 * kNanosPerSecond);
        ArrivalSchedule s(p, 0, 1);
        std::vector<Nanos> times;
        std::optional<Nanos> t;
        while ((t = s.next()) && *t < kNanosPerSecond)
            times.push_back(*t);
        // the arrival just taken is handed back, the rate doubles at 1 s
        s.unissue();
        s.rescale(2.0, kNanosPerSecond);
        while ((t = s.next()) && *t < 2 * kNanosPerSecond)
            times.push_back(*t);
        s.unissue();
        s.rescale(0, 2 * kNanosPerSecond); // paused
        QVERIFY(!s.next());
        s.rescale(1.0, 2500 * kNanosPerMilli); // resumed at half past two
        while ((t = s.next()))
            times.push_back(*t);
        auto countIn = [&](Nanos a, Nanos b) {
            return std::count_if(times.begin(), times.end(), [&](Nanos x) { return x >= a && x < b; });
        };
        QCOMPARE(countIn(0, kNanosPerSecond), 1000);
        QVERIFY(std::abs(countIn(kNanosPerSecond, 2 * kNanosPerSecond) - 2000) <= 1);
        QCOMPARE(countIn(2 * kNanosPerSecond, 2500 * kNanosPerMilli), 0);
        QVERIFY(std::abs(countIn(2500 * kNanosPerMilli, 3 * kNanosPerSecond) - 500) <= 1);
        QVERIFY(std::is_sorted(times.begin(), times.end()));
    }

    void scheduleAgainstAFakeClock()
    {
        // a consumer that starts every arrival whose time has come, as the worker does
        FakeClock clock(0);
        const auto p = StageProfile::build(100, {}, kNanosPerSecond);
        ArrivalSchedule s(p, 0, 1);
        auto next = s.next();
        int started = 0;
        for (int ms = 0; ms < 1000; ms += 5) {
            clock.set(ms * kNanosPerMilli);
            while (next && *next <= clock.now()) {
                ++started;
                next = s.next();
            }
            QCOMPARE(started, ms / 10 + 1);
        }
    }
};

QTEST_APPLESS_MAIN(TestArrivalSchedule)
#include "tst_arrivalschedule.moc"
