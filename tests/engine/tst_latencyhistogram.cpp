#include "metrics/latencyhistogram.h"

#include <QTest>
#include <algorithm>
#include <cmath>
#include <random>

using stampede::LatencyHistogram;

class TestLatencyHistogram : public QObject
{
    Q_OBJECT
private slots:
    void percentilesMatchExactSort_data()
    {
        QTest::addColumn<int>("distribution");
        QTest::addRow("uniform 1us..10s") << 0;
        QTest::addRow("log-normal around 20ms") << 1;
        QTest::addRow("exponential 300us") << 2;
        QTest::addRow("bimodal 1ms and 1s") << 3;
    }
    void percentilesMatchExactSort()
    {
        QFETCH(int, distribution);
        std::mt19937_64 rng(42 + distribution);
        std::vector<std::uint64_t> values;
        auto h = std::make_unique<LatencyHistogram>();
        for (int i = 0; i < 200000; ++i) {
            double v = 0;
            switch (distribution) {
            case 0:
                v = std::uniform_real_distribution<double>(1, 1e7)(rng);
                break;
            case 1:
                v = std::lognormal_distribution<double>(std::log(20000.0), 0.8)(rng);
                break;
            case 2:
                v = std::exponential_distribution<double>(1.0 / 300)(rng);
                break;
            case 3:
                v = (i % 10 == 0) ? 1e6 + i : 1000 + i % 997;
                break;
            }
            const auto u = std::uint64_t(std::max(1.0, v));
            values.push_back(u);
            h->record(u);
        }
        std::sort(values.begin(), values.end());
        for (double p : {1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99}) {
            const auto rank = std::size_t(std::ceil(p / 100.0 * double(values.size())));
            const double exact = double(values[rank - 1]);
            const double got = h->percentile(p);
            QVERIFY2(std::abs(got - exact) <= exact * 0.001,
                     qPrintable(QStringLiteral("p%1: %2 vs exact %3").arg(p).arg(got).arg(exact)));
        }
        QCOMPARE(h->max(), values.back());
        QCOMPARE(h->min(), values.front());
        QCOMPARE(h->percentile(100), double(values.back()));
        QCOMPARE(h->count(), std::uint64_t(values.size()));
    }

    void mergeEqualsRecordingTheUnion()
    {
        auto a = std::make_unique<LatencyHistogram>();
        auto b = std::make_unique<LatencyHistogram>();
        auto all = std::make_unique<LatencyHistogram>();
        std::mt19937_64 rng(7);
        for (int i = 0; i < 50000; ++i) {
            const std::uint64_t v = rng() % 5000000;
            (i % 3 ? *a : *b).record(v);
            all->record(v);
        }
        a->merge(*b);
        QVERIFY(*a == *all);
        QCOMPARE(a->percentile(99), all->percentile(99));
    }

    void serializeRoundTrip()
    {
        auto h = std::make_unique<LatencyHistogram>();
        for (std::uint64_t v : {0ull, 1ull, 999ull, 2048ull, 123456ull, 3600000000ull, 99999999999ull})
            h->record(v);
        const std::string bytes = h->serialize();
        QVERIFY(bytes.size() < 100); // sparse: fixed memory in RAM, small on the wire
        auto back = std::make_unique<LatencyHistogram>();
        QVERIFY(back->deserialize(bytes));
        QVERIFY(*back == *h);
        QVERIFY(!back->deserialize(bytes.substr(0, bytes.size() - 1)));
        QCOMPARE(h->max(), LatencyHistogram::kMaxMicros); // clamped to one hour
    }

    // A peer's histogram whose counters lie outside its own min and max, or
    // do not add up to its total, is refused whole: nothing of it is merged.
    void aLyingHistogramMergesNothing()
    {
        LatencyHistogram h;
        for (std::uint64_t v : {500ull, 700ull, 900ull})
            h.record(v);
        const std::string good = h.serialize();
        LatencyHistogram target;
        target.record(100);
        const LatencyHistogram before = target;
        // header total 3, sum, min 500, max 900; then a counter at 50 (below min) and two in range
        const auto varint = [](std::string& out, std::uint64_t v) {
            for (; v >= 0x80; v >>= 7)
                out.push_back(char(v | 0x80));
            out.push_back(char(v));
        };
        std::string below;
        for (std::uint64_t v : {3ull, 2100ull, 500ull, 900ull})
            varint(below, v);
        for (std::uint64_t v : {50ull, 1ull, 650ull, 1ull, 200ull, 1ull}) // indices 50, 700, 900
            varint(below, v);
        QVERIFY(!target.mergeSerialized(below));
        QVERIFY(target == before);
        std::string tooMany = good;
        tooMany.back() = char(tooMany.back() + 1); // the last counter one more than the total allows
        QVERIFY(!target.mergeSerialized(tooMany));
        QVERIFY(target == before);
        QVERIFY(target.mergeSerialized(good));
        QCOMPARE(target.count(), 4u);
        QCOMPARE(target.percentile(100), 900.0);
        // merging and clearing keep to the range a second used, and say the same
        LatencyHistogram a, b;
        a.record(10);
        a.record(3000000);
        b.merge(a);
        QVERIFY(b == a);
        b.clear();
        QCOMPARE(b.count(), 0u);
        b.record(20);
        QCOMPARE(b.percentile(50), 20.0);
        QCOMPARE(b.serialize(), [] {
            LatencyHistogram c;
            c.record(20);
            return c.serialize();
        }());
    }

    void bucketsAreContiguous()
    {
        // every value maps to the bucket whose range holds it
        for (std::uint64_t v = 0; v < 5000000; v += 37) {
            std::uint64_t width = 0;
            const std::size_t i = LatencyHistogram::indexOf(v);
            const std::uint64_t low = LatencyHistogram::lowestAt(i, &width);
            QVERIFY(low <= v && v < low + width);
            QVERIFY(width == 1 || double(width) / double(low) <= 1.0 / 1024);
        }
        QVERIFY(LatencyHistogram::indexOf(LatencyHistogram::kMaxMicros) < LatencyHistogram::kCountsLength);
    }

    void emptyHistogram()
    {
        LatencyHistogram h;
        QCOMPARE(h.percentile(99), 0.0);
        QCOMPARE(h.min(), std::uint64_t(0));
        QCOMPARE(h.max(), std::uint64_t(0));
    }
};

QTEST_APPLESS_MAIN(TestLatencyHistogram)
#include "tst_latencyhistogram.moc"
