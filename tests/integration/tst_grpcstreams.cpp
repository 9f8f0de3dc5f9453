// gRPC streaming calls (server, client and bidirectional) as scenario steps,
// against an independent server (Python grpcio, echo.proto's Listen, Collect
// and Chat) and the mock's streaming rules read by an independent client
// (grpcio's): what goes out reaches the server message by message, what comes
// back is counted, awaited, checked and extracted from; a stream that ends
// short, a deadline, and a misuse of the fields are told as such.
#include "send/sendonce.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QTemporaryDir>
#include <QTest>

using namespace testsupport;

namespace {

PeerProcess* pythonPeer()
{
    return new PeerProcess(QStringLiteral("/usr/bin/python3"),
                           QStringList{sourceDir() + QStringLiteral("/tests/integration/grpc/echo_server.py"),
                                       QStringLiteral("--descriptors"), QStringLiteral(ECHO_DESCRIPTORS)});
}

qint64 num(const QJsonObject& o, const char* key)
{
    return o[QString::fromLatin1(key)].toInteger();
}

// A gRPC step of echo.proto's service: `method`, and the grpc fields `more` (JSON members, with a leading comma).
QByteArray step(const char* name, const QString& target, const char* method, const QByteArray& more,
                const QByteArray& after = {})
{
    return "{\"name\": \"" + QByteArray(name) + "\", \"grpc\": {\"target\": \"" + target.toUtf8() +
           "\", \"method\": \"stampede.test.Echo/" + method + "\", \"protos\": [\"" ECHO_PROTO "\"]" + more + "}" +
           after + "}";
}

} // namespace

class TestGrpcStreams : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;
    QString summary() const { return m_dir.filePath(QStringLiteral("summary.json")); }
    RunOutcome runSteps(const QList<QByteArray>& steps, int users, int iterations)
    {
        const QString scenario =
            writeFile(m_dir, "streams.json",
                      "{\"name\": \"streams\", \"http\": \"HTTP_2\", \"steps\": [" + steps.join(",\n") +
                          "], \"load\": {\"closed\": {\"users\": " + QByteArray::number(users) +
                          "}}, \"iterations\": " + QByteArray::number(iterations) + ", \"duration\": \"60s\"}");
        return runOneEngine(summary(), {scenario});
    }
    QJsonObject stepNamed(const char* name) const
    {
        QFile f(summary());
        if (!f.open(QIODevice::ReadOnly))
            return {};
        for (const QJsonValue& s : QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("steps")].toArray())
            if (s.toObject()[QStringLiteral("name")].toString() == QLatin1String(name))
                return s.toObject();
        return {};
    }

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    // Each kind of streaming call, 2 users x 5 iterations, against grpcio: the server saw every message out (the
    // first answer's text extracted into the next call's message), the checks read the last awaited message, a
    // paced call takes its interval, and every message in is counted; bidirectional replies are timed.
    void everyKindAgainstGrpcio()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer());
        QVERIFY(peer->port() > 0);
        const QString t = peer->target();
        const auto o = runSteps(
            {step("listen", t, "Listen", ", \"data\": \"{\\\"text\\\": \\\"hi\\\", \\\"id\\\": 4}\"",
                  ", \"checks\": [{\"jsonPath\": \"$.text\", \"equals\": \"hi #4\"}], \"extract\": [{\"name\": "
                  "\"last\", \"jsonPath\": \"$.text\"}]"),
             step("collect", t, "Collect",
                  ", \"messages\": [\"{\\\"text\\\": \\\"${last}\\\"}\", \"{\\\"text\\\": \\\"b\\\"}\"]",
                  ", \"checks\": [{\"jsonPath\": \"$.text\", \"equals\": \"hi #4,b\"}, {\"jsonPath\": \"$.id\", "
                  "\"equals\": \"2\"}]"),
             step("chat", t, "Chat",
                  ", \"messages\": [\"{\\\"id\\\": 1}\", \"{\\\"id\\\": 2}\", \"{\\\"id\\\": 3}\"], \"requestReply\": "
                  "true, \"receive\": 3",
                  ", \"checks\": [{\"jsonPath\": \"$.id\", \"equals\": \"3\"}]"),
             step("paced", t, "Chat",
                  ", \"messages\": [\"{\\\"id\\\": 1}\", \"{\\\"id\\\": 2}\"], \"interval\": \"0.03s\""),
             step("match", t, "Listen",
                  ", \"data\": \"{\\\"text\\\": \\\"m\\\", \\\"id\\\": 6}\", \"receive\": 1, \"match\": \"#5\"",
                  ", \"checks\": [{\"jsonPath\": \"$.text\", \"equals\": \"m #5\"}]")},
            2, 5);
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        const qint64 n = 10;
        QCOMPARE(num(o.total, "requests"), 5 * n);
        QCOMPARE(num(o.total, "errors"), 0);
        // out: listen 1, collect 2, chat 3, paced 2, match 1; in: listen 4, collect 1, chat 3, paced 2, match 5
        QCOMPARE(num(o.total, "messages_sent"), 9 * n);
        QCOMPARE(num(o.total, "messages_received"), 15 * n);
        QVERIFY(o.total.contains(QStringLiteral("message_latency_ms")));
        QCOMPARE(num(stepNamed("chat"), "messages_received"), 3 * n);
        QVERIFY(!stepNamed("listen").contains(QStringLiteral("message_latency_ms"))); // no reply pairs a request
        // the interval: the second message cannot go before 30 ms
        QVERIFY2(stepNamed("paced")[QStringLiteral("latency_ms")].toObject()[QStringLiteral("p50")].toDouble() >= 30,
                 QJsonDocument(stepNamed("paced")).toJson().constData());
        const QJsonObject seen = peer->finish();
        QCOMPARE(num(seen, "listen"), 2 * n);
        QCOMPARE(num(seen, "collect"), n);
        QCOMPARE(num(seen, "collect_in"), 2 * n);
        QCOMPARE(num(seen, "chat"), 2 * n);
        QCOMPARE(num(seen, "chat_in"), 5 * n);
        // request/reply: each message went once the one before had its reply, in order
        const QJsonArray ids = seen[QStringLiteral("chat_ids")].toArray();
        QVERIFY(ids.size() >= 10);
    }

    // A stream that ends OK short of the awaited messages is a `protocol` error saying so; a server slower than
    // the deadline ends as DEADLINE_EXCEEDED, the server seeing the call cancelled; each run ends on time.
    void shortStreamsAndDeadlines()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer());
        QVERIFY(peer->port() > 0);
        const QString t = peer->target();
        auto o = runSteps({step("short", t, "Listen", ", \"data\": \"{\\\"id\\\": 2}\", \"receive\": 5",
                                ", \"onError\": \"continue\"")},
                          1, 4);
        QCOMPARE(o.cli.exitCode, 1);
        QCOMPARE(num(o.total, "requests"), 4);
        QCOMPARE(o.total[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("protocol")].toInteger(), 4);
        QCOMPARE(num(o.total, "messages_received"), 8);
        const QString report = m_dir.filePath(QStringLiteral("short.streport"));
        const QString scenario = m_dir.filePath(QStringLiteral("streams.json"));
        const CliResult withReport =
            runCli({QStringLiteral("run"), QStringLiteral("-q"), scenario, QStringLiteral("--report"), report});
        QCOMPARE(withReport.exitCode, 1);
        const QString exported = m_dir.filePath(QStringLiteral("short.json"));
        const CliResult shown =
            runCli({QStringLiteral("report"), QStringLiteral("export"), report, QStringLiteral("--format"),
                    QStringLiteral("json"), QStringLiteral("-o"), exported});
        QCOMPARE(shown.exitCode, 0);
        QFile f(exported);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray samples = f.readAll();
        QVERIFY2(samples.contains("gRPC: the stream ended (OK) after 2 of 5 messages (2 in all)"),
                 samples.mid(samples.indexOf("error_samples")).constData());

        o = runSteps({step("slow", t, "Listen",
                           ", \"data\": \"{\\\"id\\\": 10, \\\"delay_ms\\\": 200}\", \"deadline\": \"0.3s\"")},
                     1, 2);
        QCOMPARE(o.cli.exitCode, 1);
        QCOMPARE(o.total[QStringLiteral("grpc_status")].toObject()[QStringLiteral("DEADLINE_EXCEEDED")].toInteger(), 2);
        QCOMPARE(num(o.total, "messages_received"), 4); // at 0, 200 ms; the third was due at 400
        const QJsonObject seen = peer->finish();
        QCOMPARE(seen[QStringLiteral("ends")].toObject()[QStringLiteral("listen.cancelled")].toInteger(), 2);
    }

    // A gRPC step's testScript runs on its answer as Postman's gRPC scripts do: pm.response.statusCode, metadata,
    // trailers and messages, pm.request.methodPath and its messages; what it sets reaches the next call's message;
    // each pm.test counted (a failing one with its message); a pre-request script refused by its field.
    void testScriptsOnGrpcSteps()
    {
        std::unique_ptr<PeerProcess> peer(pythonPeer());
        QVERIFY(peer->port() > 0);
        const QString t = peer->target();
        const QByteArray sayScript =
            "pm.test('ok', () => { pm.response.to.have.statusCode(0); pm.response.to.be.ok; });"
            " pm.test('metadata', () => pm.response.to.have.metadata('content-type', 'application/grpc'));"
            " pm.test('trailer', () => pm.expect(pm.response.trailers.get('grpc-status')).to.equal('0'));"
            " pm.test('message', () => pm.expect(pm.response.messages.idx(0).data.text).to.equal('hello'));"
            " pm.test('request', () => { pm.expect(pm.request.methodPath).to.equal('stampede.test.Echo.Say');"
            "   pm.expect(pm.request.messages.idx(0).data.id).to.equal(3); });"
            " pm.environment.set('said', pm.response.messages.idx(0).data.text + '!');";
        const QByteArray listenScript =
            "pm.test('last', () => pm.expect(pm.response.json().text).to.equal('hello! #4'));"
            " pm.test('count', () => pm.expect(pm.response.messages.count()).to.equal(1));"
            " pm.test('wrong on purpose', () => pm.response.to.have.statusCode(5));";
        const auto quoted = [](QByteArray s) -> QByteArray { return "\"" + s.replace("\"", "\\\"") + "\""; };
        const auto o =
            runSteps({step("say", t, "Say", ", \"data\": \"{\\\"text\\\": \\\"hello\\\", \\\"id\\\": 3}\"",
                           ", \"testScript\": " + quoted(sayScript)),
                      step("listen", t, "Listen", ", \"data\": \"{\\\"text\\\": \\\"${said}\\\", \\\"id\\\": 4}\"",
                           ", \"testScript\": " + quoted(listenScript))},
                     2, 3);
        QVERIFY2(o.cli.exitCode == 0,
                 qPrintable(o.cli.err + o.cli.out + QString::fromUtf8(QJsonDocument(o.total).toJson())));
        QCOMPARE(num(o.total, "requests"), 12);
        QCOMPARE(o.total[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("check")].toInteger(), 6);
        const QJsonObject say = stepNamed("say")[QStringLiteral("checks")].toObject();
        const QJsonObject listen = stepNamed("listen")[QStringLiteral("checks")].toObject();
        for (const char* name : {"say/ok", "say/metadata", "say/trailer", "say/message", "say/request"})
            QVERIFY2(say[QString::fromLatin1(name)].toObject()[QStringLiteral("passed")].toInteger() == 6,
                     QJsonDocument(say).toJson().constData());
        const QJsonObject wrong = listen[QStringLiteral("listen/wrong on purpose")].toObject();
        QCOMPARE(wrong[QStringLiteral("failed")].toInteger(), 6);
        QCOMPARE(wrong[QStringLiteral("message")].toString(),
                 QStringLiteral("expected response to have status code 5 but got +0")); // chai shows zero so
        // the value the first call's script set went out in the second's message
        QCOMPARE(listen[QStringLiteral("listen/last")].toObject()[QStringLiteral("passed")].toInteger(), 6);
        QCOMPARE(listen[QStringLiteral("listen/count")].toObject()[QStringLiteral("passed")].toInteger(), 6);
        // Send runs it too, on a unary call's answer and a streaming call's last awaited message
        stampede::SendOnceRequest rq;
        rq.stepJson = step("say", t, "Say", ", \"data\": \"{\\\"text\\\": \\\"hello\\\", \\\"id\\\": 3}\"",
                           ", \"testScript\": " + quoted(sayScript))
                          .toStdString();
        stampede::SendOnceResult sent = stampede::sendOnce(rq);
        QVERIFY2(sent.call.ok, sent.call.error.c_str());
        QCOMPARE(sent.tests.size(), std::size_t(5));
        for (const auto& test : sent.tests)
            QVERIFY2(test.passed, (test.name + ": " + test.error).c_str());
        rq.stepJson = step("listen", t, "Listen", ", \"data\": \"{\\\"text\\\": \\\"hello!\\\", \\\"id\\\": 4}\"",
                           ", \"testScript\": " + quoted(listenScript))
                          .toStdString();
        sent = stampede::sendOnce(rq);
        QCOMPARE(sent.tests.size(), std::size_t(3));
        QVERIFY(sent.tests[0].passed && sent.tests[1].passed && !sent.tests[2].passed);
        peer->finish();

        const QString scenario =
            writeFile(m_dir, "pre.json",
                      "{\"http\": \"HTTP_2\", \"steps\": [" +
                          step("s", QStringLiteral("127.0.0.1:9"), "Say", {}, ", \"preRequestScript\": \"1\"") +
                          "], \"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"1s\"}");
        const CliResult refused = runCli({QStringLiteral("run"), scenario});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(QStringLiteral("steps[0].preRequestScript: a gRPC step's messages")),
                 qPrintable(refused.err));
    }

    // Fields that do not fit the method are refused before anything is sent, each by its field.
    void misuseIsRefused()
    {
        struct Case
        {
            const char* method;
            QByteArray more;
            const char* says;
        };
        const Case cases[] = {
            {"Say", ", \"receive\": 2", "grpc.receive: stampede.test.Echo/Say is unary"},
            {"Listen", ", \"messages\": [\"{}\", \"{}\"]",
             "grpc.messages: stampede.test.Echo/Listen streams from the "
             "server only"},
            {"Collect", ", \"messages\": [\"{}\"], \"receive\": 2",
             "grpc.receive: stampede.test.Echo/Collect answers "
             "one message"},
            {"Listen", ", \"requestReply\": true", "grpc.requestReply: a reply to each message is for bidirectional"},
            {"Chat", ", \"messages\": [\"{\\\"id\\\": \\\"x\\\"}\"]", "grpc.messages[0]"},
            {"Chat", ", \"messages\": [\"{}\"], \"data\": \"{}\"", "grpc.data: give the messages in messages"},
            {"Chat", ", \"messages\": [\"{}\"], \"receive\": 0", "grpc.receive: must be between 1"},
            {"Chat", ", \"messages\": [\"{}\"], \"interval\": \"-1s\"", "grpc.interval: must be between 0 and 1h"},
        };
        for (const Case& c : cases) {
            const QString scenario = writeFile(m_dir, "bad.json",
                                               "{\"http\": \"HTTP_2\", \"steps\": [" +
                                                   step("s", QStringLiteral("127.0.0.1:9"), c.method, c.more) +
                                                   "], \"load\": {\"closed\": {\"users\": 1}}, \"duration\": \"1s\"}");
            const CliResult r = runCli({QStringLiteral("run"), scenario});
            QVERIFY2(r.exitCode == 2 && r.err.contains(QString::fromUtf8(c.says)),
                     qPrintable(QString::fromUtf8(c.says) + QStringLiteral(" <- ") + r.err));
        }
    }

    // The mock's streaming rules read by grpcio's own client: a sequence N times, a client stream answered with
    // its last message, a bidirectional echo; and the same rules under load from Stampede, paced by everyMs.
    void mockStreamsReadByGrpcio()
    {
        const QString rules =
            QStringLiteral(
                "{\"protos\": [\"%1\"], \"rules\": ["
                "{\"grpc\": {\"method\": \"stampede.test.Echo/Listen\", \"responses\": [\"{\\\"text\\\": \\\"a\\\"}\","
                " \"{\\\"text\\\": \\\"b\\\", \\\"id\\\": 2}\"], \"count\": 5}},"
                "{\"grpc\": {\"method\": \"stampede.test.Echo/Collect\", \"echo\": true}},"
                "{\"grpc\": {\"method\": \"stampede.test.Echo/Chat\", \"echo\": true}}]}")
                .arg(QStringLiteral(ECHO_PROTO));
        MockProcess mock(rules);
        QVERIFY(mock.started());
        const auto client = [&](const char* call) {
            QProcess p;
            p.start(QStringLiteral("/usr/bin/python3"),
                    {sourceDir() + QStringLiteral("/tests/integration/grpc/stream_client.py"),
                     QStringLiteral("--descriptors"), QStringLiteral(ECHO_DESCRIPTORS), QStringLiteral("--target"),
                     QStringLiteral("127.0.0.1:%1").arg(mock.port()), QStringLiteral("--call"),
                     QString::fromLatin1(call), QStringLiteral("--messages"), QStringLiteral("4")});
            p.waitForFinished(30000);
            return QJsonDocument::fromJson(p.readAllStandardOutput()).object();
        };
        QJsonObject r = client("listen");
        QCOMPARE(r[QStringLiteral("code")].toString(), QStringLiteral("OK"));
        QCOMPARE(r[QStringLiteral("texts")].toArray(),
                 (QJsonArray{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("a"), QStringLiteral("b"),
                             QStringLiteral("a")}));
        r = client("collect");
        QCOMPARE(r[QStringLiteral("texts")].toArray(), QJsonArray{QStringLiteral("m4")});
        r = client("chat");
        QCOMPARE(r[QStringLiteral("ids")].toArray().toVariantList(), (QVariantList{1, 2, 3, 4}));

        // rules misused are refused by field
        const CliResult bad =
            runCli({QStringLiteral("mock"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                    QStringLiteral("--rules"),
                    writeFile(m_dir, "badrules.json",
                              "{\"protos\": [\"" ECHO_PROTO "\"], \"rules\": [{\"grpc\": {\"method\": "
                              "\"stampede.test.Echo/Collect\", \"count\": 3}}]}")});
        QCOMPARE(bad.exitCode, 2);
        QVERIFY2(bad.err.contains(QStringLiteral("rules[0].grpc: stampede.test.Echo.Collect answers one message")),
                 qPrintable(bad.err));

        // paced by the mock: 3 messages 50 ms apart take 100 ms at least
        MockProcess paced(QStringLiteral("{\"protos\": [\"%1\"], \"rules\": [{\"grpc\": {\"method\": "
                                         "\"stampede.test.Echo/Listen\", \"count\": 3, \"everyMs\": 50}}]}")
                              .arg(QStringLiteral(ECHO_PROTO)));
        QVERIFY(paced.started());
        const auto o = runSteps({step("listen", QStringLiteral("127.0.0.1:%1").arg(paced.port()), "Listen", {})}, 2, 3);
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QCOMPARE(num(o.total, "requests"), 6);
        QCOMPARE(num(o.total, "messages_received"), 18);
        QVERIFY(o.total[QStringLiteral("latency_ms")].toObject()[QStringLiteral("p50")].toDouble() >= 100);
    }
};

QTEST_GUILESS_MAIN(TestGrpcStreams)
#include "tst_grpcstreams.moc"
