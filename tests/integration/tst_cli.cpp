// The command line's contract: help, version, exit codes and messages that
// name the fault.
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>
#include <QThread>

using namespace testsupport;

class TestCli : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString write(const char* name, const QByteArray& content) { return writeFile(m_dir, name, content); }

private slots:
    void helpAndVersion_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("expected");
        QTest::addRow("--help") << QStringList{QStringLiteral("--help")} << QStringLiteral("Commands:");
        QTest::addRow("--version") << QStringList{QStringLiteral("--version")} << QStringLiteral("stampede-cli 0.");
        QTest::addRow("run --help") << QStringList{QStringLiteral("run"), QStringLiteral("--help")}
                                    << QStringLiteral("--summary-json");
        QTest::addRow("mock --help") << QStringList{QStringLiteral("mock"), QStringLiteral("--help")}
                                     << QStringLiteral("/__stampede/stats");
    }
    void helpAndVersion()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, expected);
        const auto r = runCli(args);
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(r.out.contains(expected), qPrintable(r.out));
    }

    void badInputExitsTwo_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QString ok = QStringLiteral("\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}], "
                                          "\"load\": {\"closed\": {\"users\": 1}}");
        QTest::addRow("malformed json") << QStringList{write("bad.json", "{\"steps\": [")}
                                        << QStringLiteral("not a valid scenario");
        QTest::addRow("unknown variable")
            << QStringList{write("unknown.json",
                                 "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/${userId}\"}}], "
                                 "\"load\": {\"closed\": {\"users\": 1}}}")}
            << QStringLiteral("steps[0].request.url: unknown variable ${userId}");
        write("ragged.csv", "id,name\n1,a\n2\n");
        QTest::addRow("ragged csv")
            << QStringList{write("ragged.json",
                                 "{\"variables\": [{\"name\": \"u\", \"csv\": {\"file\": \"ragged.csv\"}}], "
                                 "\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/${u.id}\"}}], "
                                 "\"load\": {\"closed\": {\"users\": 1}}}")}
            << QStringLiteral("variables[0].csv.file: ragged.csv line 3: 1 field, the header has 2");
        QTest::addRow("missing csv") << QStringList{write(
                                            "missing.json",
                                            "{\"variables\": [{\"name\": \"u\", \"csv\": {\"file\": \"gone.csv\"}}], " +
                                                ok.toUtf8() + "}")}
                                     << QStringLiteral("variables[0].csv.file: cannot read \"gone.csv\"");
        QTest::addRow("negative rate") << QStringList{QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/"),
                                                      QStringLiteral("--rate"), QStringLiteral("-5")}
                                       << QStringLiteral("--rate: must be positive (got -5)");
        QTest::addRow("negative rate in a file")
            << QStringList{write("rate.json", "{\"steps\": [{\"request\": {\"url\": \"http://127.0.0.1:9/\"}}], "
                                              "\"load\": {\"open\": {\"rate\": -5}}}")}
            << QStringLiteral("load.open.rate: must not be negative (got -5)");
        QTest::addRow("zero duration") << QStringList{QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/"),
                                                      QStringLiteral("--duration"), QStringLiteral("0s")}
                                       << QStringLiteral("--duration: must be positive (got 0s)");
        QTest::addRow("zero duration in a file")
            << QStringList{write("zero.json", "{\"duration\": \"0s\", " + ok.toUtf8() + "}")}
            << QStringLiteral("duration: must be positive");
        QTest::addRow("bad duration") << QStringList{QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/"),
                                                     QStringLiteral("-d"), QStringLiteral("soon")}
                                      << QStringLiteral("is not a duration");
        QTest::addRow("missing file") << QStringList{QStringLiteral("/nonexistent/s.json")}
                                      << QStringLiteral("cannot read scenario file");
        QTest::addRow("unknown option") << QStringList{QStringLiteral("--frobnicate")}
                                        << QStringLiteral("unknown option \"--frobnicate\"");
        QTest::addRow("bad threshold") << QStringList{QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/"),
                                                      QStringLiteral("--threshold"), QStringLiteral("p99 << soon")}
                                       << QStringLiteral("thresholds[0].expr");
        QTest::addRow("bad url") << QStringList{QStringLiteral("--url"), QStringLiteral("127.0.0.1:9")}
                                 << QStringLiteral("not an absolute URL");
        const QStringList quick{QStringLiteral("--url"), QStringLiteral("http://127.0.0.1:9/"),
                                QStringLiteral("--out")};
        QTest::addRow("unknown output")
            << quick + QStringList{QStringLiteral("csv=x.csv")}
            << QStringLiteral("--out \"csv=x.csv\": give prometheus=HOST:PORT, prometheus-rw=URL or jsonl=FILE");
        QTest::addRow("output without a file")
            << quick + QStringList{QStringLiteral("jsonl=")} << QStringLiteral("give the file to write");
        QTest::addRow("output port") << quick + QStringList{QStringLiteral("prometheus=127.0.0.1:70000")}
                                     << QStringLiteral("--out prometheus port: 70000 is out of range");
        const QString scenario = write("kept.json", "{" + ok.toUtf8() + "}");
        QTest::addRow("output over the scenario")
            << QStringList{scenario, QStringLiteral("--out"), QStringLiteral("jsonl=") + scenario}
            << QStringLiteral("would overwrite %1; it is left as it is").arg(scenario);
        QTest::addRow("output over the summary")
            << quick + QStringList{QStringLiteral("jsonl=s.json"), QStringLiteral("--summary-json"),
                                   QStringLiteral("s.json")}
            << QStringLiteral("--out \"jsonl=s.json\" would overwrite s.json");
    }
    void badInputExitsTwo()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        const auto r = runCli(QStringList{QStringLiteral("run")} + args);
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(message), qPrintable(r.err));
        QVERIFY(!r.err.contains(QStringLiteral("terminate")));
    }

    void thresholdFailureExitsOne()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                         QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("300ms"),
                         QStringLiteral("--threshold"), QStringLiteral("p50 < 1us")});
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains(QStringLiteral("FAIL p50 < 1us")));
        r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                    QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("300ms"), QStringLiteral("--threshold"),
                    QStringLiteral("p99 < 5s")});
        QCOMPARE(r.exitCode, 0);
    }

    void unknownCommand()
    {
        QCOMPARE(runCli({QStringLiteral("explode")}).exitCode, 2);
        QCOMPARE(runCli({}).exitCode, 2);
    }

    void mockRejectsBadRules()
    {
        const auto r = runCli({QStringLiteral("mock"), QStringLiteral("--rules"),
                               write("rules.json", "{\"rules\": [{\"path\": \"x\"}]}")});
        QCOMPARE(r.exitCode, 2);
        QVERIFY(r.err.contains(QStringLiteral("rules[0].path")));
    }

    void statusLineEverySecond()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("--url"), mock.url(), QStringLiteral("-c"),
                               QStringLiteral("2"), QStringLiteral("-d"), QStringLiteral("2s")});
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.err.contains(QStringLiteral("[   1s] rate")));
        QVERIFY(r.err.contains(QStringLiteral("[   2s] rate")));
        QVERIFY(r.out.contains(QStringLiteral("GET /")));
    }

    // Without --engines and --threads the run fits the CPUs it may use (its
    // affinity: taskset, a cpuset; a cgroup quota likewise), not the machine's:
    // on one CPU, one engine of one thread; on two, two threads in all.
    void defaultsFitTheCpusItMayUse()
    {
        MockProcess mock;
        QVERIFY(mock.started());
        const auto startLine = [&](const QString& cpus) -> QString {
            QProcess p;
            p.start(QStringLiteral("taskset"),
                    {QStringLiteral("-c"), cpus, cliPath(), QStringLiteral("run"), QStringLiteral("--url"), mock.url(),
                     QStringLiteral("--rate"), QStringLiteral("20"), QStringLiteral("-d"), QStringLiteral("1s"),
                     QStringLiteral("-q")});
            if (!p.waitForFinished(30000) || p.exitCode() != 0)
                return QStringLiteral("failed: ") + QString::fromUtf8(p.readAllStandardError());
            return QString::fromUtf8(p.readAllStandardError()).section(QLatin1Char('\n'), 0, 0);
        };
        const QString one = startLine(QStringLiteral("0"));
        QVERIFY2(one.contains(QStringLiteral(", 1 engine x 1 thread,")), qPrintable(one));
        if (QThread::idealThreadCount() < 2)
            return;
        const QString two = startLine(QStringLiteral("0,1"));
        QVERIFY2(two.contains(QStringLiteral(", 1 engine x 2 threads,")) ||
                     two.contains(QStringLiteral(", 2 engines x 1 thread,")), // CPUs 0 and 1 on two NUMA nodes
                 qPrintable(two));
    }
};

QTEST_GUILESS_MAIN(TestCli)
#include "tst_cli.moc"
