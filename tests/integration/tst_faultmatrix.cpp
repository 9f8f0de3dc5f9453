// Runs that must not pass (issue "A run tells the truth"), reproduced with
// real processes on loopback: each case asserts the exit code, the summary's
// verdict and what the project keeps.
#include "testsupport.h"

#include "store/projectstore.h"
#include "store/runlog.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace testsupport;

class TestFaultMatrix : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    // Every request refused: a latency threshold has no data to pass on.
    void noDataIsNeverAPass()
    {
        const QString summary = m_dir.filePath(QStringLiteral("nodata.json"));
        const QString url = QStringLiteral("http://127.0.0.1:%1/").arg(freePort());
        const auto r =
            runCli({QStringLiteral("run"), QStringLiteral("--url"), url, QStringLiteral("-c"), QStringLiteral("2"),
                    QStringLiteral("-d"), QStringLiteral("1s"), QStringLiteral("--engines"), QStringLiteral("1"),
                    QStringLiteral("--threshold"), QStringLiteral("p99 < 100ms"), QStringLiteral("--threshold"),
                    QStringLiteral("max < 1ms"), QStringLiteral("-q"), QStringLiteral("--summary-json"), summary});
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.out.contains(QStringLiteral("FAIL p99 < 100ms  (no data: no response arrived")), qPrintable(r.out));
        QVERIFY2(r.out.contains(QStringLiteral("FAIL max < 1ms")), qPrintable(r.out));
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("passed")).toBool(), false);
        const QJsonObject t = s.value(QStringLiteral("thresholds")).toArray().at(0).toObject();
        QCOMPARE(t.value(QStringLiteral("passed")).toBool(), false);
        QVERIFY(t.value(QStringLiteral("note")).toString().startsWith(QStringLiteral("no data")));
        QVERIFY(s.value(QStringLiteral("total")).toObject().value(QStringLiteral("requests")).toInteger() > 0);
    }

    // Ctrl-C at 2.5 s of 20 s: stopped, exit 3, rates over the time run, a
    // rate threshold that holds does not make it pass, the project lists it as
    // stopped and its JUnit export has a failing case saying why.
    void ctrlCIsAStopNotAPass()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const QString summary = m_dir.filePath(QStringLiteral("stopped.json"));
        const QString project = m_dir.filePath(QStringLiteral("stopped.stampede"));
        QProcess cli;
        cli.start(cliPath(), {QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("--rate"),
                              QStringLiteral("200"), QStringLiteral("-c"), QStringLiteral("4"), QStringLiteral("-d"),
                              QStringLiteral("20s"), QStringLiteral("--engines"), QStringLiteral("1"),
                              QStringLiteral("--threshold"), QStringLiteral("rate >= 45"), QStringLiteral("-q"),
                              QStringLiteral("--summary-json"), summary, QStringLiteral("--project"), project});
        QVERIFY(cli.waitForStarted());
        QTest::qWait(2500);
        QElapsedTimer clock;
        clock.start();
        ::kill(pid_t(cli.processId()), SIGINT);
        QVERIFY(cli.waitForFinished(10000));
        QVERIFY2(clock.elapsed() < 3000, qPrintable(QString::number(clock.elapsed())));
        const QString out = QString::fromUtf8(cli.readAllStandardOutput());
        const QString err = QString::fromUtf8(cli.readAllStandardError());
        QCOMPARE(cli.exitCode(), 3);
        QVERIFY2(err.contains(QStringLiteral("not carried out to its end: stopped when asked")), qPrintable(err));
        QVERIFY2(out.contains(QStringLiteral("FAILED: stopped when asked, at ")), qPrintable(out));
        const QJsonObject s = readJson(summary);
        QCOMPARE(s.value(QStringLiteral("status")).toString(), QStringLiteral("stopped"));
        QCOMPARE(s.value(QStringLiteral("passed")).toBool(), false);
        const double ran = s.value(QStringLiteral("duration_s")).toDouble();
        QVERIFY2(ran > 1.5 && ran < 5, qPrintable(QString::number(ran)));
        // the rate is over the time run: about 200/s, not requests / 20 s
        const double rate = s.value(QStringLiteral("total")).toObject().value(QStringLiteral("rate")).toDouble();
        QVERIFY2(rate > 150 && rate < 230, qPrintable(QString::number(rate)));
        QVERIFY(
            s.value(QStringLiteral("thresholds")).toArray().at(0).toObject().value(QStringLiteral("passed")).toBool());

        std::string error;
        {
            auto store = stampede::ProjectStore::open(project.toStdString(), error);
            QVERIFY2(store, error.c_str());
            stampede::RunLog log(*store);
            QCOMPARE(log.runs().size(), std::size_t(1));
            QCOMPARE(log.runs()[0].status, std::string("stopped"));
        }
        const QString junit = m_dir.filePath(QStringLiteral("stopped.xml"));
        const auto r = runCli({QStringLiteral("report"), QStringLiteral("export"), project, QStringLiteral("--format"),
                               QStringLiteral("junit"), QStringLiteral("-o"), junit});
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        QFile f(junit);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString xml = QString::fromUtf8(f.readAll());
        QVERIFY2(xml.contains(QStringLiteral("failures=\"1\"")), qPrintable(xml));
        QVERIFY2(xml.contains(QStringLiteral("<testcase classname=\"run\" name=\"the run completed\">")),
                 qPrintable(xml));
        QVERIFY2(xml.contains(QStringLiteral("type=\"stopped\"")), qPrintable(xml));
    }
};

QTEST_GUILESS_MAIN(TestFaultMatrix)
#include "tst_faultmatrix.moc"
