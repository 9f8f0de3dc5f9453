// The Prometheus text exposition parser (engine/metrics/promtext.h) on what
// node_exporter and client libraries serve, and on lines that do not parse.
#include "metrics/promtext.h"

#include <QTest>

#include <cmath>

using namespace stampede;

class TestPromText : public QObject
{
    Q_OBJECT
private slots:
    void readsAnExposition()
    {
        const PromParse p =
            parsePromText("# HELP node_cpu_seconds_total Seconds the CPUs spent in each mode.\n"
                          "# TYPE node_cpu_seconds_total counter\n"
                          "node_cpu_seconds_total{cpu=\"0\",mode=\"idle\"} 1234.5\n"
                          "node_cpu_seconds_total{cpu=\"1\",mode=\"idle\"} 1000\n"
                          "node_cpu_seconds_total{cpu=\"0\",mode=\"user\"} 7.25e1\n"
                          "process_resident_memory_bytes 2.5e+07\n"
                          "http_requests_total{job=\"app\",path=\"/a\\\"b\\\\c\\nd\"} 42 1700000000000\r\n"
                          "up{job=\"app\", } +Inf\n"
                          "temperature -3.5\n"
                          "nothing NaN\n");
        QCOMPARE(p.badLines, std::size_t(0));
        QCOMPARE(p.samples.size(), std::size_t(8));
        QCOMPARE(*promValue(p, "node_cpu_seconds_total", {{"mode", "idle"}}), 2234.5); // both CPUs add up
        QCOMPARE(*promValue(p, "node_cpu_seconds_total", {{"mode", "idle"}, {"cpu", "1"}}), 1000.0);
        QCOMPARE(*promValue(p, "process_resident_memory_bytes", {}), 25000000.0);
        QCOMPARE(*promValue(p, "http_requests_total", {{"path", "/a\"b\\c\nd"}}), 42.0);
        QVERIFY(std::isinf(*promValue(p, "up", {})));
        QCOMPARE(*promValue(p, "temperature", {}), -3.5);
        QVERIFY(std::isnan(*promValue(p, "nothing", {})));
        QVERIFY(!promValue(p, "node_cpu_seconds_total", {{"mode", "steal"}}));
        QVERIFY(!promValue(p, "absent", {}));
    }

    void badLinesAreCountedNotFatal()
    {
        const PromParse p = parsePromText("good 1\n"
                                          "bad{unclosed=\"x} 1\n"
                                          "no_value\n"
                                          "9starts_with_a_digit 1\n"
                                          "value_not_a_number abc\n"
                                          "also_good{a=\"b\"} 2\n");
        QCOMPARE(p.samples.size(), std::size_t(2));
        QCOMPARE(p.badLines, std::size_t(4));
        QCOMPARE(p.firstBadLine, std::size_t(2));
        QCOMPARE(*promValue(p, "also_good", {{"a", "b"}}), 2.0);
    }
};

QTEST_APPLESS_MAIN(TestPromText)
#include "tst_promtext.moc"
