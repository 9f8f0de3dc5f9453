#include "core/threshold.h"

#include <QTest>

using stampede::Threshold;

class TestThreshold : public QObject
{
    Q_OBJECT
private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addColumn<double>("limit");
        QTest::addColumn<double>("passing");
        QTest::addColumn<double>("failing");
        QTest::addRow("p99 ms") << "p99 < 200ms" << 200.0 << 199.9 << 200.0;
        QTest::addRow("p50 seconds") << "p50<=1.5s" << 1500.0 << 1500.0 << 1500.1;
        QTest::addRow("error rate percent") << "error_rate < 0.1%" << 0.001 << 0.0009 << 0.001;
        QTest::addRow("rate") << "rate >= 1000/s" << 1000.0 << 1000.0 << 999.0;
        QTest::addRow("p99.9") << "p99.9 < 250us" << 0.25 << 0.2 << 0.3;
        QTest::addRow("checks pass rate") << "checks > 99%" << 0.99 << 0.995 << 0.99;
        QTest::addRow("min") << "min >= 1ms" << 1.0 << 1.0 << 0.9;
        QTest::addRow("mean") << "mean < 20ms" << 20.0 << 19.0 << 20.0;
        QTest::addRow("one step") << "login: p99 < 300ms" << 300.0 << 299.0 << 300.0;
        QTest::addRow("one check") << "check \"code is 0\" > 99.9%" << 0.999 << 0.9995 << 0.999;
        QTest::addRow("agent cpu") << "agent_cpu < 90%" << 0.9 << 0.89 << 0.9;
        QTest::addRow("messages received") << "chat: messages_received >= 300" << 300.0 << 300.0 << 299.0;
        QTest::addRow("message rate") << "message_rate > 50/s" << 50.0 << 50.5 << 50.0;
    }
    // A check by its name, quoted (it may hold a colon or < >), of the run or of one step.
    void namedCheck()
    {
        std::string err;
        auto t = Threshold::parse("check \"a: b > c\" >= 99%", err);
        QVERIFY2(t, err.c_str());
        QCOMPARE(t->check, std::string("a: b > c"));
        QVERIFY(t->step.empty());
        QVERIFY(t->metric == Threshold::Metric::Checks);
        t = Threshold::parse("Place order: check \"code is 0\" > 99.9%", err);
        QVERIFY2(t, err.c_str());
        QCOMPARE(t->step, std::string("Place order"));
        QCOMPARE(t->check, std::string("code is 0"));
        QVERIFY(qFuzzyCompare(t->limit, 0.999));
    }
    void stepIsNamedBeforeTheColon()
    {
        std::string err;
        auto t = Threshold::parse("GET /a: mean < 5ms", err);
        QVERIFY2(t, err.c_str());
        QCOMPARE(t->step, std::string("GET /a"));
        QVERIFY(t->metric == Threshold::Metric::Mean);
        t = Threshold::parse("p99 < 5ms", err);
        QVERIFY(t && t->step.empty());
    }
    void parses()
    {
        QFETCH(QString, expr);
        QFETCH(double, limit);
        QFETCH(double, passing);
        QFETCH(double, failing);
        std::string err;
        auto t = Threshold::parse(expr.toStdString(), err);
        QVERIFY2(t, err.c_str());
        QVERIFY(qFuzzyCompare(t->limit, limit));
        QVERIFY(t->holds(passing));
        QVERIFY(!t->holds(failing));
    }
    void rejects_data()
    {
        QTest::addColumn<QString>("expr");
        QTest::addRow("no operator") << "p99 200ms";
        QTest::addRow("unknown metric") << "p42 < 1ms";
        QTest::addRow("bare number") << "p99 < 200";
        QTest::addRow("bad rate") << "error_rate < lots";
        QTest::addRow("checks over 100 percent") << "checks > 101%";
        QTest::addRow("no step before the colon") << ": p99 < 1ms";
        QTest::addRow("check unnamed") << "check \"\" > 99%";
        QTest::addRow("check unquoted") << "check \"code > 99%";
        QTest::addRow("check as a duration") << "check \"x\" < 20ms";
        QTest::addRow("check with no step before its colon") << ": check \"x\" > 99%";
        QTest::addRow("agent cpu over 100 percent") << "agent_cpu > 120%";
        QTest::addRow("agent cpu as a duration") << "agent_cpu > 90ms";
        QTest::addRow("messages as a duration") << "messages_received > 20ms";
        QTest::addRow("messages as a share") << "messages_received > 5%";
        QTest::addRow("message rate as a duration") << "message_rate < 1s";
    }
    void rejects()
    {
        QFETCH(QString, expr);
        std::string err;
        QVERIFY(!Threshold::parse(expr.toStdString(), err));
        QVERIFY(!err.empty());
    }

    // Issue 53: a threshold against the scenario's history; a resolved one reads back with its value.
    void baselines()
    {
        std::string err;
        auto t = Threshold::parse("p99 < baseline + 3 sigma", err);
        QVERIFY2(t && t->baseline, err.c_str());
        QCOMPARE(t->baseline->runs, 10u);
        QCOMPARE(t->baseline->sigmas, 3.0);
        QVERIFY(!t->baseline->resolved);
        t = Threshold::parse("rate >= baseline(20) - 2.5 sigma", err);
        QVERIFY2(t && t->baseline, err.c_str());
        QCOMPARE(t->baseline->runs, 20u);
        QCOMPARE(t->baseline->sigmas, -2.5);
        t = Threshold::parse("login: p95 <= baseline", err);
        QVERIFY2(t && t->baseline && t->baseline->sigmas == 0 && t->step == "login", err.c_str());
        t = Threshold::parse("p99 < baseline + 3 sigma (= 47.52ms: mean 41.2 ms + 3 sigma of 2.1 ms over 8 runs)", err);
        QVERIFY2(t && t->baseline && t->baseline->resolved, err.c_str());
        QCOMPARE(t->limit, 47.52);
        QVERIFY(t->holds(47.5) && !t->holds(47.52));
        t = Threshold::parse("error_rate < baseline + 3 sigma (= 0.0125: mean 1 % + 3 sigma of 0.08 % over 5 runs)",
                             err);
        QVERIFY2(t && t->baseline->resolved && t->limit == 0.0125, err.c_str());
        for (const char* bad : {"p99 < baseline(4) + 3 sigma", "p99 < baseline + 3 sigmas", "p99 < baseline * 2",
                                "checks > baseline", "server:db > baseline", "p99 < baseline + -3 sigma"}) {
            QVERIFY2(!Threshold::parse(bad, err), bad);
            QVERIFY(!err.empty());
        }
    }
};

QTEST_APPLESS_MAIN(TestThreshold)
#include "tst_threshold.moc"
