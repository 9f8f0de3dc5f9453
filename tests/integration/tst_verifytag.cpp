// Issue 53: did the stress tag reach every hop? A run with trace keeps a few
// trace ids of each step a second; `stampede-cli verify-tag` asks a tracing
// system's query API (a fake of Jaeger's and of Tempo's, with the traced
// service it records, tests/integration/traced_service.py) about them and
// counts, per service, the spans with and without the run's tag: a path whose
// database span lost the context is named; one where every span carried it
// passes; a run without trace ids, and a tracing system that cannot be asked,
// are said as such.
#include "testsupport.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

class TestVerifyTag : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

    // A 3 s run at 20/s of each of `paths` against the service, saved in `report`.
    CliResult run(int port, const QStringList& paths, const QString& report, bool trace = true)
    {
        QString steps;
        for (const QString& p : paths)
            steps += QStringLiteral("%1{\"name\": \"%2\", \"request\": {\"url\": \"http://127.0.0.1:%3%2\"}}")
                         .arg(steps.isEmpty() ? QString() : QStringLiteral(", "), p)
                         .arg(port);
        const QString file = writeFile(
            m_dir, (QFileInfo(report).baseName() + QStringLiteral(".json")).toUtf8().constData(),
            QStringLiteral(
                "{\"name\": \"traced\", \"trace\": %1, \"steps\": [%2], \"load\": {\"open\": {\"rate\": 20}}}")
                .arg(trace ? QStringLiteral("true") : QStringLiteral("false"), steps)
                .toUtf8());
        return runCli({QStringLiteral("run"), file, QStringLiteral("-d"), QStringLiteral("3s"), QStringLiteral("-q"),
                       QStringLiteral("--engines"), QStringLiteral("1"), QStringLiteral("--report"), report});
    }

private slots:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void aLeakyDatabaseHopIsNamed()
    {
        PeerProcess service(QStringLiteral("/usr/bin/python3"),
                            {sourceDir() + QStringLiteral("/tests/integration/traced_service.py")});
        QVERIFY(service.port() > 0);
        const QString leaky = m_dir.filePath(QStringLiteral("leaky.streport"));
        const CliResult r = run(service.port(), {QStringLiteral("/orders"), QStringLiteral("/leaky")}, leaky);
        QVERIFY2(r.exitCode == 0, qPrintable(r.err));
        const QString jaeger = QStringLiteral("http://127.0.0.1:%1").arg(service.port());
        const CliResult v = runCli({QStringLiteral("verify-tag"), leaky, QStringLiteral("--jaeger"), jaeger});
        QCOMPARE(v.exitCode, 1);
        // every trace asked was found; 2 a second of each step over 3 s, the two steps of an iteration in one trace
        const QRegularExpressionMatch m =
            QRegularExpression(QStringLiteral("(\\d+) trace ids kept, (\\d+) asked of \\S+, (\\d+) found"))
                .match(v.out);
        QVERIFY2(m.hasMatch(), qPrintable(v.out));
        QVERIFY2(m.captured(1).toInt() >= 4 && m.captured(1).toInt() <= 16, qPrintable(v.out));
        QCOMPARE(m.captured(2), m.captured(1));
        QCOMPARE(m.captured(3), m.captured(1));
        const int traces = m.captured(1).toInt() * 2; // spans of each kind: one for each of the trace's two requests
        // the gateway, the baggage hop and the queue carried it; the database spans of /leaky did not
        const auto row = [&](const QString& name) {
            const QRegularExpressionMatch rm =
                QRegularExpression(QRegularExpression::escape(name) + QStringLiteral("\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)"))
                    .match(v.out);
            return rm.hasMatch() ? QStringLiteral("%1 %2 %3").arg(rm.captured(1), rm.captured(2), rm.captured(3))
                                 : QString();
        };
        QCOMPARE(row(QStringLiteral("gateway ")), QStringLiteral("%1 %1 0").arg(traces));
        QCOMPARE(row(QStringLiteral("orders ")), QStringLiteral("%1 %1 0").arg(traces));
        QCOMPARE(row(QStringLiteral("billing (messaging kafka)")), QStringLiteral("%1 %1 0").arg(traces));
        QCOMPARE(row(QStringLiteral("orders (db mysql)")), QStringLiteral("%1 %2 %2").arg(traces).arg(traces / 2));
        QVERIFY2(v.out.contains(QStringLiteral("gateway ")), qPrintable(v.out));
        QVERIFY2(v.out.contains(QStringLiteral("(SELECT stock)")), qPrintable(v.out));
        QVERIFY2(v.out.contains(QStringLiteral("verdict: the stress tag did not reach: orders (db mysql) (%1 of %2 "
                                               "spans without it)")
                                    .arg(traces / 2)
                                    .arg(traces)),
                 qPrintable(v.out));
        // Tempo's answers say the same
        const CliResult t =
            runCli({QStringLiteral("verify-tag"), leaky, QStringLiteral("--tempo"), jaeger + QStringLiteral("/tempo")});
        QCOMPARE(t.exitCode, 1);
        QVERIFY2(t.out.contains(QStringLiteral("did not reach: orders (db mysql)")), qPrintable(t.out + t.err));
        // --max-traces bounds what is asked, spread over the steps
        const CliResult few = runCli({QStringLiteral("verify-tag"), leaky, QStringLiteral("--jaeger"), jaeger,
                                      QStringLiteral("--max-traces"), QStringLiteral("2")});
        QVERIFY2(few.out.contains(QStringLiteral(", 2 asked of")), qPrintable(few.out));
        QCOMPARE(few.exitCode, 1); // one of each step: /leaky's among them

        // every hop of /orders carried it
        const QString clean = m_dir.filePath(QStringLiteral("clean.streport"));
        QVERIFY(run(service.port(), {QStringLiteral("/orders")}, clean).exitCode == 0);
        const CliResult ok = runCli({QStringLiteral("verify-tag"), clean, QStringLiteral("--jaeger"), jaeger});
        QVERIFY2(ok.exitCode == 0 && ok.out.contains(QStringLiteral("reached every hop (4 services)")),
                 qPrintable(ok.out + ok.err));

        // a run without trace keeps no trace ids: said, exit 2
        const QString untraced = m_dir.filePath(QStringLiteral("untraced.streport"));
        QVERIFY(run(service.port(), {QStringLiteral("/orders")}, untraced, false).exitCode == 0);
        const CliResult none = runCli({QStringLiteral("verify-tag"), untraced, QStringLiteral("--jaeger"), jaeger});
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.err.contains(QStringLiteral("kept no trace ids: run it with --trace")), qPrintable(none.err));
        service.finish();

        // the tracing system gone: exit 3, saying whom it asked
        const CliResult gone = runCli({QStringLiteral("verify-tag"), leaky, QStringLiteral("--jaeger"), jaeger});
        QCOMPARE(gone.exitCode, 3);
        QVERIFY2(gone.err.contains(QStringLiteral("cannot ask ") + jaeger), qPrintable(gone.err));
        // bad input
        QCOMPARE(runCli({QStringLiteral("verify-tag"), leaky}).exitCode, 2);
        QCOMPARE(runCli({QStringLiteral("verify-tag"), leaky, QStringLiteral("--jaeger"), QStringLiteral("ftp://x")})
                     .exitCode,
                 2);
    }
};

QTEST_GUILESS_MAIN(TestVerifyTag)
#include "tst_verifytag.moc"
