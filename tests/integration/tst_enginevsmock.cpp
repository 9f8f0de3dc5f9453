// The engine against its mock server, as separate processes on loopback:
// exact counts, latency accuracy, open-model rate accuracy, and the
// coordinated-omission stall test.
#include "testsupport.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>
#include <csignal>
#include <thread>

using namespace testsupport;

class TestEngineVsMock : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString summaryPath(const char* name) const { return m_dir.filePath(QString::fromLatin1(name)); }

private slots:
    void requestCountsEqualTheServersCount_data()
    {
        QTest::addColumn<QStringList>("load");
        QTest::addRow("closed, 20 users, 2 threads")
            << QStringList{QStringLiteral("-c"), QStringLiteral("20"), QStringLiteral("-t"), QStringLiteral("2")};
        QTest::addRow("open, 3000/s") << QStringList{QStringLiteral("-r"), QStringLiteral("3000"), QStringLiteral("-c"),
                                                     QStringLiteral("20"), QStringLiteral("-t"),   QStringLiteral("2")};
    }
    void requestCountsEqualTheServersCount()
    {
        QFETCH(QStringList, load);
        MockProcess mock;
        QVERIFY(mock.started());
        const QString summary = summaryPath("counts.json");
        const auto r =
            runCli(QStringList{QStringLiteral("run"), QStringLiteral("--url"), mock.url(QStringLiteral("/a")),
                               QStringLiteral("-d"), QStringLiteral("2s"), QStringLiteral("--summary-json"), summary} +
                   load);
        QCOMPARE(r.exitCode, 0);
        const auto total = readJson(summary)[QStringLiteral("total")].toObject();
        const auto requests = total[QStringLiteral("requests")].toInteger();
        QVERIFY(requests > 1000);
        QCOMPARE(total[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(mock.stats()[QStringLiteral("total")].toInteger(), requests);
        // the timeline adds up to the total
        qint64 sum = 0;
        for (const auto& t : readJson(summary)[QStringLiteral("timeline")].toArray())
            sum += t.toObject()[QStringLiteral("requests")].toInteger();
        QCOMPARE(sum, requests);
    }

    void fixedDelayShowsInTheMedian_data()
    {
        QTest::addColumn<bool>("open");
        QTest::addRow("closed model") << false;
        QTest::addRow("open model") << true;
    }
    void fixedDelayShowsInTheMedian()
    {
        QFETCH(bool, open);
        MockProcess mock(
            QStringLiteral("{\"rules\": [{\"path\": \"/*\", \"body\": \"ok\", \"delay\": {\"fixedMs\": 20}}]}"));
        QVERIFY(mock.started());
        const QString summary = summaryPath("delay.json");
        QStringList args{QStringLiteral("run"),
                         QStringLiteral("--url"),
                         mock.url(),
                         QStringLiteral("-d"),
                         QStringLiteral("2s"),
                         QStringLiteral("-c"),
                         QStringLiteral("10"),
                         QStringLiteral("-t"),
                         QStringLiteral("1"),
                         QStringLiteral("--summary-json"),
                         summary};
        if (open)
            args << QStringLiteral("-r") << QStringLiteral("200");
        QCOMPARE(runCli(args).exitCode, 0);
        const auto lat = readJson(summary)[QStringLiteral("total")].toObject()[QStringLiteral("latency_ms")].toObject();
        const double p50 = lat[QStringLiteral("p50")].toDouble();
        QVERIFY2(p50 >= 20.0 && p50 <= 21.5, qPrintable(QStringLiteral("p50 = %1 ms").arg(p50)));
    }

    void openModelHoldsTheRateEverySecond()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QString summary = summaryPath("rate.json");
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-r"),
                               QStringLiteral("2000"), QStringLiteral("-c"), QStringLiteral("20"), QStringLiteral("-d"),
                               QStringLiteral("5s"), QStringLiteral("-t"), QStringLiteral("1"),
                               QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 0);
        const auto timeline = readJson(summary)[QStringLiteral("timeline")].toArray();
        QVERIFY(timeline.size() >= 5);
        for (int i = 0; i < 5; ++i) { // every full second
            const auto n = timeline[i].toObject()[QStringLiteral("requests")].toInteger();
            QVERIFY2(n >= 1980 && n <= 2020, qPrintable(QStringLiteral("second %1: %2 requests").arg(i + 1).arg(n)));
        }
        QCOMPARE(mock.stats()[QStringLiteral("total")].toInteger(), 10000);
    }

    void stallShowsInCorrectedP99()
    {
        // 1000/s for 10 s; the server is frozen (SIGSTOP) for 1.5 s. Arrivals
        // during the stall wait from 1.5 s down to 0, so the share of requests
        // slower than x is (1.5 s - x) / 10 s, and p99 = 1.5 - 0.01 * 10 = 1.4 s.
        MockProcess mock;
        QVERIFY(mock.started());
        const QString summary = summaryPath("stall.json");
        QProcess run;
        run.start(cliPath(), {QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-r"),
                              QStringLiteral("1000"), QStringLiteral("-c"), QStringLiteral("50"), QStringLiteral("-d"),
                              QStringLiteral("10s"), QStringLiteral("-t"), QStringLiteral("1"), QStringLiteral("-q"),
                              QStringLiteral("--summary-json"), summary});
        QVERIFY(run.waitForStarted());
        QThread::msleep(3000);
        QVERIFY(signalProcess(mock.pid(), SIGSTOP));
        QThread::msleep(1500);
        QVERIFY(signalProcess(mock.pid(), SIGCONT));
        QVERIFY(run.waitForFinished(30000));
        QCOMPARE(run.exitCode(), 0);
        const auto total = readJson(summary)[QStringLiteral("total")].toObject();
        const double p99 = total[QStringLiteral("latency_ms")].toObject()[QStringLiteral("p99")].toDouble();
        const double serviceP99 = total[QStringLiteral("service_time_ms")].toObject()[QStringLiteral("p99")].toDouble();
        qInfo("corrected p99 %.1f ms (analytic 1400), uncorrected p99 %.1f ms, late %lld", p99, serviceP99,
              total[QStringLiteral("late")].toInteger());
        QVERIFY2(p99 >= 1400 * 0.95 && p99 <= 1400 * 1.05, qPrintable(QString::number(p99)));
        QVERIFY(serviceP99 < 100);
        QVERIFY(total[QStringLiteral("late")].toInteger() > 1000); // the pool was busy: counted, not skipped
        QCOMPARE(total[QStringLiteral("dropped")].toInteger(), 0);
        QCOMPARE(total[QStringLiteral("requests")].toInteger(), 10000);
    }

    void demoScenarioRuns()
    {
        const QString demo = sourceDir() + QStringLiteral("/resources/demo/");
        const QString summary = summaryPath("demo.json");
        const auto r = runCli({QStringLiteral("run"), demo + QStringLiteral("scenario.json"), QStringLiteral("--mock"),
                               demo + QStringLiteral("mock-rules.json"), QStringLiteral("-d"), QStringLiteral("3s"),
                               QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const auto s = readJson(summary);
        QCOMPARE(s[QStringLiteral("steps")].toArray().size(), 4);
        QVERIFY(s[QStringLiteral("passed")].toBool());
        QVERIFY(r.out.contains(QStringLiteral("login")));
    }
};

QTEST_GUILESS_MAIN(TestEngineVsMock)
#include "tst_enginevsmock.moc"
