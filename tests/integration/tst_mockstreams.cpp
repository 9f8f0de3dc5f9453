// Issue 50: the mock's stream endpoints (a rule's `websocket` or `events`) against independent clients from
// Debian's packages (python3-websockets, python3-aiohttp: tests/integration/streams/stream_clients.py) and
// against stampede-cli's own WebSocket and event stream steps: echo with the subprotocol, pushes, a close after
// N messages, events with ids, types, retry and Last-Event-ID; what is not an upgrade refused; an unmasked frame
// from a client closed with 1002.
#include "../engine/rawclient.h"
#include "mock/mockrules.h"
#include "mock/mockserver.h"
#include "send/sendonce.h"
#include "stream/wsframes.h"
#include "testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace stampede;
using namespace testsupport;

namespace {

const char* const kRules = "{\"rules\": [\n"
                           " {\"name\": \"echo\", \"path\": \"/echo\", \"websocket\": {\"subprotocol\": \"chat\"}},\n"
                           " {\"name\": \"push\", \"path\": \"/push\", \"websocket\": {\"push\": \"tick ${n}\", "
                           "\"everyMs\": 5, \"count\": 3}},\n"
                           " {\"name\": \"closer\", \"path\": \"/closer\", \"websocket\": {\"closeAfter\": 2}},\n"
                           " {\"name\": \"events\", \"path\": \"/events\", \"events\": {\"data\": \"{\\\"n\\\": "
                           "${n}}\", \"event\": \"tick\", \"count\": 4, \"everyMs\": 2, \"retryMs\": 10}},\n"
                           " {\"name\": \"plain\", \"path\": \"/plain\", \"body\": \"ok\"}]}";

} // namespace

class TestMockStreams : public QObject
{
    Q_OBJECT
    std::unique_ptr<MockServer> m_mock;

    QJsonObject client(const QStringList& args)
    {
        QProcess p;
        p.start(QStringLiteral("/usr/bin/python3"),
                QStringList{sourceDir() + QStringLiteral("/tests/integration/streams/stream_clients.py")} + args);
        if (!p.waitForFinished(30000))
            p.kill();
        const QByteArray out = p.readAllStandardOutput();
        if (p.exitCode() != 0)
            qWarning("%s", p.readAllStandardError().constData());
        return QJsonDocument::fromJson(out).object();
    }
    QString url(const char* scheme, const char* path) const
    {
        return QStringLiteral("%1://127.0.0.1:%2%3")
            .arg(QLatin1String(scheme))
            .arg(m_mock->port())
            .arg(QLatin1String(path));
    }
    QJsonObject stats() const
    {
        return QJsonDocument::fromJson(QByteArray::fromStdString(httpGet(m_mock->port(), "/__stampede/stats")))
            .object();
    }
    qint64 served(const char* rule) const
    {
        for (const auto& r : stats()[QStringLiteral("rules")].toArray())
            if (r.toObject()[QStringLiteral("name")].toString() == QLatin1String(rule))
                return r.toObject()[QStringLiteral("served")].toInteger();
        return -1;
    }

private Q_SLOTS:
    void initTestCase()
    {
        std::string error;
        auto rules = MockRuleSet::fromJson(kRules, error);
        QVERIFY2(rules, error.c_str());
        m_mock = std::make_unique<MockServer>(rules, 2);
        QVERIFY2(m_mock->start("127.0.0.1:0", error), error.c_str());
    }
    void cleanupTestCase() { m_mock->stop(); }

    void echoesWithTheSubprotocol()
    {
        const QJsonObject o = client({QStringLiteral("ws"), url("ws", "/echo"), QStringLiteral("--send"),
                                      QStringLiteral("3"), QStringLiteral("--protocol"), QStringLiteral("chat")});
        QCOMPARE(o[QStringLiteral("messages")].toArray(),
                 (QJsonArray{QStringLiteral("m1"), QStringLiteral("m2"), QStringLiteral("m3")}));
        QCOMPARE(o[QStringLiteral("protocol")].toString(), QStringLiteral("chat"));
        QCOMPARE(o[QStringLiteral("close_code")].toInt(), 1000); // our close, echoed
    }

    void pushesAndClosesAfter()
    {
        QJsonObject o =
            client({QStringLiteral("ws"), url("ws", "/push"), QStringLiteral("--wait"), QStringLiteral("3")});
        QCOMPARE(o[QStringLiteral("messages")].toArray(),
                 (QJsonArray{QStringLiteral("tick 1"), QStringLiteral("tick 2"), QStringLiteral("tick 3")}));
        o = client({QStringLiteral("ws"), url("ws", "/closer"), QStringLiteral("--send"), QStringLiteral("3"),
                    QStringLiteral("--wait-close")});
        QCOMPARE(o[QStringLiteral("messages")].toArray(), (QJsonArray{QStringLiteral("m1"), QStringLiteral("m2")}));
        QCOMPARE(o[QStringLiteral("close_code")].toInt(), 1000);
        QCOMPARE(o[QStringLiteral("close_reason")].toString(), QStringLiteral("done"));
    }

    void eventsWithIdsTypesAndRetry()
    {
        QJsonObject o = client({QStringLiteral("sse"), url("http", "/events")});
        QVERIFY2(o[QStringLiteral("content_type")].toString().startsWith(QLatin1String("text/event-stream")),
                 QJsonDocument(o).toJson().constData());
        QCOMPARE(o[QStringLiteral("retry")].toInt(), 10);
        QJsonArray events = o[QStringLiteral("events")].toArray();
        QCOMPARE(events.size(), 4);
        for (int i = 0; i < 4; ++i) {
            const QJsonObject e = events[i].toObject();
            QCOMPARE(e[QStringLiteral("id")].toString(), QString::number(i + 1));
            QCOMPARE(e[QStringLiteral("event")].toString(), QStringLiteral("tick"));
            QCOMPARE(e[QStringLiteral("data")].toString(), QStringLiteral("{\"n\": %1}").arg(i + 1));
        }
        o = client({QStringLiteral("sse"), url("http", "/events"), QStringLiteral("--last-id"), QStringLiteral("7")});
        events = o[QStringLiteral("events")].toArray();
        QCOMPARE(events.size(), 4);
        QCOMPARE(events[0].toObject()[QStringLiteral("id")].toString(), QStringLiteral("8"));
    }

    // A GET that is no upgrade is refused (400, naming what is missing); an unmasked frame from a client is
    // closed with 1002.
    void whatIsNotAWebSocketIsRefused()
    {
        std::string answer = rawclient::ask(m_mock->port(), "GET /echo HTTP/1.1\r\nHost: x\r\n\r\n");
        QVERIFY2(answer.rfind("HTTP/1.1 400 ", 0) == 0, answer.c_str());
        QVERIFY2(answer.find("Upgrade: websocket") != std::string::npos, answer.c_str());
        answer = rawclient::ask(m_mock->port(), "GET /echo HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                                "Sec-WebSocket-Version: 8\r\nSec-WebSocket-Key: "
                                                "dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n");
        QVERIFY2(answer.find("Sec-WebSocket-Version must be 13") != std::string::npos, answer.c_str());

        const int fd = rawclient::connectTo(m_mock->port());
        QVERIFY(fd >= 0);
        std::string unmasked;
        appendWsFrame(unmasked, WsOpcode::Text, "no mask", nullptr);
        rawclient::sendAll(fd, "GET /echo HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                               "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n" +
                                   unmasked);
        bool closed = false;
        const std::string got = rawclient::readUntilClose(fd, 5000, &closed);
        ::close(fd);
        QVERIFY(closed);
        QVERIFY2(got.find("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=") != std::string::npos, got.c_str());
        const std::size_t frame = got.find("\r\n\r\n") + 4;
        QVERIFY(got.size() >= frame + 4);
        QCOMPARE(std::uint8_t(got[frame]), std::uint8_t(0x88)); // a close
        QCOMPARE((std::uint8_t(got[frame + 2]) << 8) | std::uint8_t(got[frame + 3]), 1002);
    }

    // Stream steps beside HTTP/2 ones (a gRPC call and a WebSocket step in one collection): the scenario speaks
    // HTTP/2 (h2c to the mock), its WebSocket and event stream steps their own HTTP/1.1 connections; all answered.
    void streamStepsBesideHttp2()
    {
        QTemporaryDir dir;
        const QByteArray scenario =
            QStringLiteral(
                "{\"name\": \"mixed\", \"http\": \"HTTP_2\", \"steps\": ["
                "{\"name\": \"plain\", \"request\": {\"url\": \"%1\"}, \"checks\": [{\"bodyContains\": \"ok\"}]},"
                "{\"name\": \"chat\", \"websocket\": {\"url\": \"%2\", \"send\": [{\"text\": \"x\"}]}},"
                "{\"name\": \"ticks\", \"sse\": {\"url\": \"%3\", \"receive\": 2}}],"
                " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 5}")
                .arg(url("http", "/plain"), url("ws", "/echo"), url("http", "/events"))
                .toUtf8();
        const auto o = runOneEngine(dir.filePath(QStringLiteral("s.json")), {writeFile(dir, "mixed.json", scenario)});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err + o.cli.out));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 30);
        QCOMPARE(o.total[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 10 + 20);
    }

    // keepOpen: a user's WebSocket steps to one URL share a connection across steps and iterations (the mock sees
    // one upgrade per user, not one per step); without it each step has its own. match: only the messages holding
    // the text are awaited (the third push), every message is counted.
    void keptConnectionsAndMatches()
    {
        QTemporaryDir dir;
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        const auto twoSteps = [&](bool keep) {
            const QString k = keep ? QStringLiteral(", \"keepOpen\": true") : QString();
            return QStringLiteral("{\"name\": \"kept\", \"steps\": ["
                                  "{\"name\": \"a\", \"websocket\": {\"url\": \"%1\", \"send\": [{\"text\": \"a\"}]%2},"
                                  " \"checks\": [{\"bodyContains\": \"a\"}]},"
                                  "{\"name\": \"b\", \"websocket\": {\"url\": \"%1\", \"send\": [{\"text\": \"b\"}]%2},"
                                  " \"checks\": [{\"bodyContains\": \"b\"}]}],"
                                  " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 5}")
                .arg(url("ws", "/echo"), k)
                .toUtf8();
        };
        qint64 before = served("echo");
        auto o = runOneEngine(summary, {writeFile(dir, "kept.json", twoSteps(true))});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err + o.cli.out));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 20);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 20);
        QCOMPARE(served("echo") - before, 2); // one upgrade per user
        before = served("echo");
        o = runOneEngine(summary, {writeFile(dir, "each.json", twoSteps(false))});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err + o.cli.out));
        QCOMPARE(served("echo") - before, 20);

        const QByteArray matched =
            QStringLiteral("{\"name\": \"match\", \"steps\": [{\"name\": \"third\", \"websocket\": {\"url\": \"%1\","
                           " \"receive\": 1, \"match\": \"tick 3\"}, \"checks\": [{\"bodyContains\": \"tick 3\"}]}],"
                           " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 2}")
                .arg(url("ws", "/push"))
                .toUtf8();
        o = runOneEngine(summary, {writeFile(dir, "match.json", matched)});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err + o.cli.out));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 4);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 12); // ticks 1, 2 and 3 of each
    }

    // The builder's Send of a WebSocket step: one conversation, each message both ways kept in order with its
    // time; request/reply sends each after its reply; a server that closes early is said; nobody listening too.
    void sendOneConversation()
    {
        const auto send = [&](const QString& step) {
            SendOnceRequest rq;
            rq.stepJson = step.toStdString();
            rq.values = {{"who", "ann"}};
            return sendOnce(rq);
        };
        SendOnceResult r = send(QStringLiteral("{\"websocket\": {\"url\": \"%1\", \"subprotocols\": [\"chat\"],"
                                               " \"requestReply\": true, \"send\": [{\"text\": \"hi ${who}\"},"
                                               " {\"binary\": \"AAE=\"}]}}")
                                    .arg(url("ws", "/echo")));
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.websocket);
        QVERIFY2(r.ws.error.empty(), r.ws.error.c_str());
        QVERIFY(r.ws.opened);
        QCOMPARE(r.ws.protocol, std::string("chat"));
        QCOMPARE(r.sent.method, std::string("GET"));
        QCOMPARE(r.ws.log.size(), std::size_t(4));
        const char* const want[] = {">hi ann", "<hi ann", ">\x00\x01", "<\x00\x01"};
        for (std::size_t i = 0; i < 4; ++i) {
            const std::string got = (r.ws.log[i].out ? ">" : "<") + r.ws.log[i].data;
            QCOMPARE(got, std::string(want[i], i < 2 ? 7 : 3));
            if (i)
                QVERIFY(r.ws.log[i].at >= r.ws.log[i - 1].at);
        }
        QVERIFY(r.ws.log[2].binary && r.ws.log[3].binary);
        QCOMPARE(r.ws.closeCode, std::uint16_t(1000));

        r = send(QStringLiteral("{\"websocket\": {\"url\": \"%1\", \"send\": [{\"text\": \"a\"}, {\"text\": \"b\"},"
                                " {\"text\": \"c\"}]}}")
                     .arg(url("ws", "/closer")));
        QVERIFY2(r.ws.error.find("the server closed after 2 of 3 messages") != std::string::npos, r.ws.error.c_str());
        QCOMPARE(r.ws.closeReason, std::string("done"));
        r = send(QStringLiteral("{\"websocket\": {\"url\": \"ws://127.0.0.1:1/\", \"send\": [{\"text\": \"a\"}]}}"));
        QVERIFY(!r.ws.opened);
        QVERIFY2(!r.ws.error.empty(), "a refused connect is said");
    }

    // The builder's Send of an event stream step: each event as it came, with its id, type and time, on the run's own
    // SseConversations; the stream's headers; a reconnect with Last-Event-ID continues the ids.
    void sendOneStream()
    {
        SendOnceRequest rq; // the server in a variable, as the builder's environments give it
        rq.stepJson = "{\"sse\": {\"url\": \"${base}/events\", \"receive\": 6, \"reconnects\": 1}}";
        rq.values = {{"base", url("http", "").toStdString()}};
        const SendOnceResult r = sendOnce(rq);
        QVERIFY2(r.error.empty(), r.error.c_str());
        QVERIFY(r.eventStream);
        QVERIFY2(r.sse.ok, r.sse.error.c_str());
        QCOMPARE(r.sse.events.size(), std::size_t(6));
        for (std::size_t i = 0; i < 6; ++i) {
            QCOMPARE(r.sse.events[i].id, std::to_string(i + 1));
            QCOMPARE(r.sse.events[i].type, std::string("tick"));
            if (i)
                QVERIFY(r.sse.events[i].at >= r.sse.events[i - 1].at);
        }
        QCOMPARE(r.sse.events[5].data, std::string("{\"n\": 6}"));
        bool eventStream = false;
        for (const auto& [n, v] : r.sse.headers)
            eventStream |= n == "Content-Type" && v.rfind("text/event-stream", 0) == 0;
        QVERIFY(eventStream);
    }

    // Send runs a stream step's test script as a run does: on a WebSocket conversation's last message in and an
    // event stream's last awaited event, each pm.test told (a failing one with its message); none when the
    // connection failed.
    void sendRunsTestScripts()
    {
        SendOnceRequest rq;
        rq.stepJson = QStringLiteral("{\"websocket\": {\"url\": \"%1\", \"send\": [{\"text\": \"{\\\"n\\\": 1}\"},"
                                     " {\"text\": \"{\\\"n\\\": 2}\"}], \"receive\": 2},"
                                     " \"testScript\": \"pm.test('last in', () => pm.expect(pm.response.json().n)"
                                     ".to.eql(2)); pm.test('is 101', () => pm.response.to.have.status(101));\"}")
                          .arg(url("ws", "/echo"))
                          .toStdString();
        SendOnceResult r = sendOnce(rq);
        QVERIFY2(r.ws.opened, r.ws.error.c_str());
        QCOMPARE(r.tests.size(), std::size_t(2));
        for (const auto& t : r.tests)
            QVERIFY2(t.passed, (t.name + ": " + t.error).c_str());

        rq.stepJson = QStringLiteral("{\"sse\": {\"url\": \"%1\", \"receive\": 3, \"event\": \"tick\"},"
                                     " \"testScript\": \"pm.test('third', () => pm.expect(pm.response.json().n)"
                                     ".to.eql(3)); pm.test('wrong', () => pm.expect(pm.response.json().n).to.eql(4));"
                                     " console.log('saw', pm.response.text());\"}")
                          .arg(url("http", "/events"))
                          .toStdString();
        r = sendOnce(rq);
        QVERIFY2(r.sse.ok, r.sse.error.c_str());
        QCOMPARE(r.tests.size(), std::size_t(2));
        QVERIFY(r.tests[0].passed);
        QVERIFY(!r.tests[1].passed);
        QCOMPARE(r.tests[1].error, std::string("expected 3 to deeply equal 4"));
        QCOMPARE(r.scriptLogs.size(), std::size_t(1));
        QCOMPARE(r.scriptLogs[0], std::string("saw {\"n\": 3}"));

        rq.stepJson = "{\"websocket\": {\"url\": \"ws://127.0.0.1:1/\", \"send\": [{\"text\": \"a\"}]},"
                      " \"testScript\": \"pm.test('never', () => {});\"}";
        r = sendOnce(rq);
        QVERIFY(!r.ws.opened);
        QVERIFY(r.tests.empty()); // no answer: the script did not run
    }

    // stampede-cli's own steps against the mock: WebSocket conversations answered by the echo endpoint, an event
    // stream read past its end with one reconnect (Last-Event-ID 4: ids 5 and 6 follow).
    void stampedeStepsAgainstTheMock()
    {
        QTemporaryDir dir;
        const qint64 before = served("echo");
        const QByteArray ws =
            QStringLiteral("{\"name\": \"ws\", \"steps\": [{\"name\": \"chat\", \"websocket\": {\"url\": \"%1\","
                           " \"subprotocols\": [\"chat\"], \"requestReply\": true,"
                           " \"send\": [{\"text\": \"a\"}, {\"text\": \"b\"}]},"
                           " \"checks\": [{\"bodyContains\": \"b\"}]}],"
                           " \"thresholds\": [{\"expr\": \"chat: message_p99 < 5s\"}],"
                           " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 10}")
                .arg(url("ws", "/echo"))
                .toUtf8();
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        auto o = runOneEngine(summary, {writeFile(dir, "ws.json", ws)});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err + o.cli.out));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 20);
        QCOMPARE(o.total[QStringLiteral("messages_sent")].toInteger(), 40);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 40);
        QCOMPARE(served("echo") - before, 20);
        // each reply timed from its message's send (the summary's message latency; its threshold judged)
        const QJsonObject latency = o.total[QStringLiteral("message_latency_ms")].toObject();
        QVERIFY2(latency[QStringLiteral("max")].toDouble() > 0, qPrintable(o.cli.out));
        QVERIFY(latency[QStringLiteral("p50")].toDouble() <= latency[QStringLiteral("max")].toDouble());

        // the events judged by thresholds too: 36 received is at least 36, and not more than 36
        const auto sse = [&](const char* threshold) {
            return QStringLiteral("{\"name\": \"sse\", \"steps\": [{\"name\": \"ticks\", \"sse\": {\"url\": \"%1\","
                                  " \"receive\": 6, \"event\": \"tick\", \"reconnects\": 1},"
                                  " \"checks\": [{\"jsonPath\": \"$.n\", \"equals\": \"6\"}]}],"
                                  " \"thresholds\": [{\"expr\": \"%2\"}],"
                                  " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 3}")
                .arg(url("http", "/events"), QLatin1String(threshold))
                .toUtf8();
        };
        o = runOneEngine(summary, {writeFile(dir, "sse.json", sse("ticks: messages_received >= 36"))});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err + o.cli.out));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 6);
        QCOMPARE(o.total[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 36);
        o = runOneEngine(summary, {writeFile(dir, "sse2.json", sse("messages_received > 36"))});
        QCOMPARE(o.cli.exitCode, 1);
        QCOMPARE(o.total[QStringLiteral("errors")].toInteger(), 0);
    }

    // A collection's habit on stream steps: the test script reads the step's answer (the last message received,
    // the last awaited event) as pm.response, each pm.test a check counted per step (a failing one fails the
    // step as `check`, saying what it saw); what it sets goes on to the next steps. A pre-request script is
    // refused by its field: the messages are not a request it changes.
    void testScriptsOnStreamSteps()
    {
        QTemporaryDir dir;
        const QByteArray scenario =
            QStringLiteral(
                "{\"name\": \"scripts\", \"steps\": ["
                "{\"name\": \"chat\", \"websocket\": {\"url\": \"%1\", \"send\": [{\"text\": \"{\\\"order\\\": 7}\"}]},"
                " \"testScript\": \"pm.test('echoed', () => pm.expect(pm.response.json().order).to.eql(7));"
                " pm.test('is 101', () => pm.response.to.have.status(101));"
                " pm.variables.set('order', String(pm.response.json().order));\"},"
                "{\"name\": \"ticks\", \"sse\": {\"url\": \"%2?o=${order}\", \"receive\": 3, \"event\": \"tick\"},"
                " \"testScript\": \"pm.test('third tick', () => pm.expect(pm.response.json().n).to.eql(3));"
                " pm.test('wrong on purpose', () => pm.expect(pm.response.json().n).to.eql(4));\"}],"
                " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 5}")
                .arg(url("ws", "/echo"), url("http", "/events"))
                .toUtf8();
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        const auto o = runOneEngine(summary, {writeFile(dir, "scripts.json", scenario)});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err)); // no threshold: failed checks are counted, not a verdict
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 20);
        QCOMPARE(o.total[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("check")].toInteger(), 10);
        QFile f(summary);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QJsonObject checks;
        for (const QJsonValue& st : QJsonDocument::fromJson(f.readAll()).object()[QStringLiteral("steps")].toArray()) {
            const QJsonObject stepChecks = st[QStringLiteral("checks")].toObject();
            for (auto it = stepChecks.begin(); it != stepChecks.end(); ++it)
                checks[it.key()] = it.value();
        }
        const auto count = [&](const char* check, const char* what) {
            return checks[QString::fromLatin1(check)].toObject()[QString::fromLatin1(what)].toInteger();
        };
        QCOMPARE(count("chat/echoed", "passed"), 10);
        QCOMPARE(count("chat/is 101", "passed"), 10);
        QCOMPARE(count("ticks/third tick", "passed"), 10); // the SSE URL held the order the script set: sent
        QCOMPARE(count("ticks/wrong on purpose", "failed"), 10);
        QCOMPARE(checks[QStringLiteral("ticks/wrong on purpose")].toObject()[QStringLiteral("message")].toString(),
                 QStringLiteral("expected 3 to deeply equal 4"));

        const QByteArray pre =
            QStringLiteral("{\"steps\": [{\"websocket\": {\"url\": \"%1\"}, \"preRequestScript\": \"1\"}],"
                           " \"load\": {\"closed\": {\"users\": 1}}, \"iterations\": 1}")
                .arg(url("ws", "/echo"))
                .toUtf8();
        const CliResult refused = runCli({QStringLiteral("run"), writeFile(dir, "pre.json", pre)});
        QCOMPARE(refused.exitCode, 2);
        QVERIFY2(refused.err.contains(QStringLiteral("steps[0].preRequestScript: a WebSocket step's messages")),
                 qPrintable(refused.err));
    }
};

QTEST_GUILESS_MAIN(TestMockStreams)
#include "tst_mockstreams.moc"
