// Issue 50: a scenario's Server-Sent Events step (`sse`) run by stampede-cli against an independent peer
// (python3-aiohttp, tests/integration/streams/stream_peers.py), through a table of the shapes a stream may take,
// hostile ones among them: what each conversation comes to (answered, or failed by class), how many events were
// read, and the Last-Event-ID values the server saw on reconnects. Each row runs 2 users x 3 iterations.
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace testsupport;

namespace {

PeerProcess* ssePeer()
{
    return new PeerProcess(QStringLiteral("/usr/bin/python3"),
                           QStringList{sourceDir() + QStringLiteral("/tests/integration/streams/stream_peers.py"),
                                       QStringLiteral("--mode"), QStringLiteral("sse")});
}

} // namespace

class TestEventStreams : public QObject
{
    Q_OBJECT

private slots:
    void aStreamStepThroughHostileShapes_data()
    {
        QTest::addColumn<QString>("sse");       // the step's sse object past its url (a JSON fragment)
        QTest::addColumn<QString>("path");      // on the peer ("" for a port nobody listens on)
        QTest::addColumn<QString>("failedAs");  // the class every conversation fails as ("" all answered)
        QTest::addColumn<int>("received");      // events read in all (messages_received)
        QTest::addColumn<QString>("lastIds");   // Last-Event-ID values the peer saw, sorted, joined by ","
        QTest::addColumn<int>("connections");   // the peer's
        QTest::addColumn<QString>("sampleHas"); // words of the error sample, or of the checked answer

        // each conversation: after 2 events, after 4
        const QString twelve = QStringLiteral("2,2,2,2,2,2,4,4,4,4,4,4");
        QTest::newRow("two events") << QStringLiteral("\"receive\": 2") << QStringLiteral("/events") << QString() << 12
                                    << QString() << 6 << QString();
        QTest::newRow("Last-Event-ID written")
            << QStringLiteral("\"receive\": 3, \"headers\": [{\"name\": \"Last-Event-ID\", \"value\": \"41\"}]")
            << QStringLiteral("/events") << QString() << 18 << QStringLiteral("41,41,41,41,41,41") << 6
            << QStringLiteral("last=41");
        QTest::newRow("named events only")
            << QStringLiteral("\"receive\": 3, \"event\": \"odd\"") << QStringLiteral("/forever?n=6&every=2")
            << QString() << 30 << QString() << 6 << QStringLiteral("\"i\": 5");
        QTest::newRow("ends before") << QStringLiteral("\"receive\": 5") << QStringLiteral("/events")
                                     << QStringLiteral("protocol") << 12 << QString() << 6
                                     << QStringLiteral("the stream ended after 2 of 5 events");
        QTest::newRow("reconnects with the last id")
            << QStringLiteral("\"receive\": 6, \"reconnects\": 2") << QStringLiteral("/drops") << QString() << 36
            << twelve << 18 << QStringLiteral("n6");
        QTest::newRow("too few reconnects")
            << QStringLiteral("\"receive\": 6, \"reconnects\": 1") << QStringLiteral("/drops")
            << QStringLiteral("protocol") << 24 << QStringLiteral("2,2,2,2,2,2") << 12
            << QStringLiteral("the stream ended after 4 of 6 events");
        QTest::newRow("never enough") << QStringLiteral("\"receive\": 3, \"timeout\": \"300ms\"")
                                      << QStringLiteral("/forever?n=2") << QStringLiteral("timeout") << 12 << QString()
                                      << 6 << QStringLiteral("2 of 3 events within 300 ms");
        QTest::newRow("broken mid-answer")
            << QStringLiteral("\"receive\": 2") << QStringLiteral("/cut") << QStringLiteral("reset") << 6 << QString()
            << 6 << QStringLiteral("in the middle of the stream after 1 of 2");
        QTest::newRow("a line that never ends")
            << QStringLiteral("\"receive\": 1") << QStringLiteral("/noline") << QStringLiteral("protocol") << 0
            << QString() << 6 << QStringLiteral("the event stream:");
        QTest::newRow("not an event stream")
            << QStringLiteral("\"receive\": 1") << QStringLiteral("/plain") << QStringLiteral("protocol") << 0
            << QString() << 6 << QStringLiteral("\"text/plain\"");
        QTest::newRow("404") << QStringLiteral("\"receive\": 1") << QStringLiteral("/missing")
                             << QStringLiteral("http_4xx") << 0 << QString() << 6 << QStringLiteral("answered 404");
        QTest::newRow("nobody listens") << QStringLiteral("\"receive\": 1") << QString() << QStringLiteral("connect")
                                        << 0 << QString() << 0 << QString();
    }

    void aStreamStepThroughHostileShapes()
    {
        QFETCH(QString, sse);
        QFETCH(QString, path);
        QFETCH(QString, failedAs);
        QFETCH(int, received);
        QFETCH(QString, lastIds);
        QFETCH(int, connections);
        QFETCH(QString, sampleHas);
        std::unique_ptr<PeerProcess> server(ssePeer());
        QVERIFY(server->port() > 0);
        QTemporaryDir dir;
        const QString url = path.isEmpty() ? QStringLiteral("http://127.0.0.1:1/events")
                                           : QStringLiteral("http://127.0.0.1:%1%2").arg(server->port()).arg(path);
        const QString check = failedAs.isEmpty() && !sampleHas.isEmpty()
                                  ? QStringLiteral(", \"checks\": [{\"bodyContains\": \"%1\"}]")
                                        .arg(QString(sampleHas).replace(QLatin1Char('"'), QStringLiteral("\\\"")))
                                  : QString();
        const QByteArray scenario = QStringLiteral("{\"name\": \"sse\", \"steps\": [{\"name\": \"stream\", \"sse\": "
                                                   "{\"url\": \"%1\", %2}%3}],"
                                                   " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 3}")
                                        .arg(url, sse, check)
                                        .toUtf8();
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        const QString report = dir.filePath(QStringLiteral("sse.streport"));
        const auto o =
            runOneEngine(summary, {writeFile(dir, "sse.json", scenario), QStringLiteral("--report"), report});
        QVERIFY2(o.cli.exitCode == (failedAs.isEmpty() ? 0 : 1), qPrintable(o.cli.err + o.cli.out));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 6);
        const QJsonObject byClass = o.total[QStringLiteral("errors_by_class")].toObject();
        QCOMPARE(o.total[QStringLiteral("errors")].toInteger(), failedAs.isEmpty() ? 0 : 6);
        if (!failedAs.isEmpty())
            QCOMPARE(byClass[failedAs].toInteger(), 6);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), received);
        if (!failedAs.isEmpty() && !sampleHas.isEmpty()) { // the error samples as exported say what happened
            const QString json = dir.filePath(QStringLiteral("export.json"));
            const CliResult exported =
                runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                        QStringLiteral("json"), QStringLiteral("-o"), json});
            QVERIFY2(exported.exitCode == 0, qPrintable(exported.err));
            QFile f(json);
            QVERIFY(f.open(QIODevice::ReadOnly));
            QString details;
            for (const QJsonValue& v :
                 QJsonDocument::fromJson(f.readAll()).object().value(QStringLiteral("error_samples")).toArray())
                details += v.toObject().value(QStringLiteral("detail")).toString() + QLatin1Char('\n');
            QVERIFY2(details.contains(sampleHas), qPrintable(details.left(1500)));
        }
        const QJsonObject seen = server->finish();
        QStringList ids;
        for (const auto& v : seen[QStringLiteral("last_ids")].toArray())
            ids << v.toString();
        ids.sort();
        QCOMPARE(ids.join(QLatin1Char(',')), lastIds);
        QCOMPARE(seen[QStringLiteral("connections")].toInteger(), connections);
    }

    // A step that is no event stream as written is refused before the run, naming its field.
    void badStepsAreRefused_data()
    {
        QTest::addColumn<QString>("sse");
        QTest::addColumn<QString>("said");
        QTest::newRow("ws url") << QStringLiteral("\"url\": \"ws://127.0.0.1:1/\"")
                                << QStringLiteral("steps[0].sse.url");
        QTest::newRow("receive 0") << QStringLiteral("\"url\": \"http://127.0.0.1:1/\", \"receive\": 0")
                                   << QStringLiteral("steps[0].sse.receive");
        QTest::newRow("reconnects") << QStringLiteral("\"url\": \"http://127.0.0.1:1/\", \"reconnects\": 101")
                                    << QStringLiteral("steps[0].sse.reconnects");
        QTest::newRow("header") << QStringLiteral("\"url\": \"http://127.0.0.1:1/\", \"headers\": [{\"name\": "
                                                  "\"Bad Name\", \"value\": \"x\"}]")
                                << QStringLiteral("steps[0].sse.headers[0]");
    }
    void badStepsAreRefused()
    {
        QFETCH(QString, sse);
        QFETCH(QString, said);
        QTemporaryDir dir;
        const QByteArray scenario =
            QStringLiteral("{\"name\": \"sse\", \"steps\": [{\"sse\": {%1}}], \"iterations\": 1}").arg(sse).toUtf8();
        const auto r = runCli({QStringLiteral("run"), QStringLiteral("-q"), writeFile(dir, "bad.json", scenario)});
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains(said), qPrintable(r.err));
    }
};

QTEST_GUILESS_MAIN(TestEventStreams)
#include "tst_eventstreams.moc"
