// Issue 50: the stream codecs against independent peers from Debian's packages: a WebSocket server
// (python3-websockets) and a Server-Sent Events server (python3-aiohttp). The opening handshake is checked as
// the RFC asks, frames go masked and come back as messages, a ping is seen, the server's close is read with its
// code; an event stream read as it comes gives its events, its id and retry, and Last-Event-ID reaches the server.
#include "net/eventloop.h"
#include "net/http1responseparser.h"
#include "net/wssession.h"
#include "stream/sseparser.h"
#include "stream/wsframes.h"
#include "stream/wshandshake.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <array>
#include <random>
#include <thread>

using namespace stampede;
using namespace testsupport;

namespace {

// A blocking loopback connection whose reads give up after 10 s.
class Conn
{
public:
    explicit Conn(int port) : m_fd(::socket(AF_INET, SOCK_STREAM, 0))
    {
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(std::uint16_t(port));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        timeval tv{10, 0};
        ::setsockopt(m_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        m_ok = ::connect(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
    }
    ~Conn() { ::close(m_fd); }
    bool ok() const { return m_ok; }
    bool send(std::string_view bytes)
    {
        return ::send(m_fd, bytes.data(), bytes.size(), MSG_NOSIGNAL) == ssize_t(bytes.size());
    }
    // Some bytes, "" when the peer closed or 10 s passed.
    std::string read()
    {
        char buf[4096];
        const ssize_t n = ::recv(m_fd, buf, sizeof buf, 0);
        return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
    }

private:
    int m_fd;
    bool m_ok = false;
};

std::string_view trimmedView(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    return s;
}

using Headers = std::vector<std::pair<std::string, std::string>>;

// An answer's head (up to the blank line): its status and headers; what came after it in `rest`.
int readHead(Conn& c, Headers& headers, std::string& rest)
{
    std::string got;
    std::size_t end;
    while ((end = got.find("\r\n\r\n")) == std::string::npos) {
        const std::string more = c.read();
        if (more.empty())
            return 0;
        got += more;
    }
    rest = got.substr(end + 4);
    const std::string head = got.substr(0, end);
    std::size_t at = head.find("\r\n");
    const int status = std::atoi(head.substr(9, 3).c_str());
    while (at != std::string::npos && at < head.size()) {
        const std::size_t next = head.find("\r\n", at + 2);
        const std::string line = head.substr(at + 2, next == std::string::npos ? std::string::npos : next - at - 2);
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos)
            headers.emplace_back(line.substr(0, colon),
                                 std::string(trimmedView(std::string_view(line).substr(colon + 1))));
        at = next;
    }
    return status;
}

PeerProcess* peer(const char* mode, const QStringList& more = {})
{
    return new PeerProcess(QStringLiteral("/usr/bin/python3"),
                           QStringList{sourceDir() + QStringLiteral("/tests/integration/streams/stream_peers.py"),
                                       QStringLiteral("--mode"), QString::fromLatin1(mode)} +
                               more);
}

// What a WebSocket session told its listener, in order.
struct Heard final : WsListener
{
    std::vector<std::string> log;
    bool ended = false;
    WsEnd end;
    std::string why, reason;
    void onWsOpen(std::uint32_t, std::string_view protocol, Nanos) override
    {
        log.push_back("open:" + std::string(protocol));
    }
    void onWsMessage(std::uint32_t, WsOpcode t, std::string_view d, Nanos) override
    {
        log.push_back((t == WsOpcode::Text ? "T:" : "B:") +
                      (d.size() > 100 ? std::to_string(d.size()) : std::string(d)));
    }
    void onWsEnd(std::uint32_t, const WsEnd& e, Nanos) override
    {
        ended = true;
        end = e;
        why.assign(e.why);
        reason.assign(e.reason);
        end.why = why;
        end.reason = reason;
    }
};

// Runs `loop` until `done()` or 10 s, checking the session's deadlines.
template <typename Done> bool runFor(EventLoop& loop, WsSession& s, Done done)
{
    const Nanos until = SteadyClock::monotonicNow() + 10 * kNanosPerSecond;
    while (!done() && SteadyClock::monotonicNow() < until) {
        const int n = loop.wait(20 * kNanosPerMilli);
        dispatchEvents(loop, n, SteadyClock::monotonicNow());
        s.checkDeadline(SteadyClock::monotonicNow());
    }
    return done();
}

WsUpgrade upgradeTo(int port, const char* target)
{
    std::uint8_t nonce[16];
    std::random_device rd;
    for (auto& b : nonce)
        b = std::uint8_t(rd());
    WsUpgrade u;
    u.target = target;
    u.host = "127.0.0.1:" + std::to_string(port);
    u.key = wsKey(nonce);
    return u;
}

// A server of one connection that does the handshake right and then reads nothing and answers nothing (a peer
// that never answers the close), on a port of its own; `port` set when it listens.
struct MuteServer
{
    int listener = -1, port = 0;
    std::thread thread;
    MuteServer()
    {
        listener = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(listener, 1);
        socklen_t len = sizeof a;
        ::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len);
        port = ntohs(a.sin_port);
        thread = std::thread([this] {
            const int c = ::accept(listener, nullptr, nullptr);
            std::string got;
            char buf[4096];
            while (got.find("\r\n\r\n") == std::string::npos) {
                const ssize_t n = ::recv(c, buf, sizeof buf, 0);
                if (n <= 0)
                    break;
                got.append(buf, std::size_t(n));
            }
            const std::size_t k = got.find("Sec-WebSocket-Key: ") + 19;
            const std::string key = got.substr(k, got.find("\r\n", k) - k);
            const std::string answer =
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                "Sec-WebSocket-Accept: " +
                wsAccept(key) + "\r\n\r\n";
            ::send(c, answer.data(), answer.size(), MSG_NOSIGNAL);
            pollfd p{c, POLLRDHUP, 0};
            ::poll(&p, 1, 10000); // until the client lets go
            ::close(c);
        });
    }
    ~MuteServer()
    {
        ::shutdown(listener, SHUT_RDWR);
        thread.join();
        ::close(listener);
    }
};

} // namespace

class TestStreamPeers : public QObject
{
    Q_OBJECT

private slots:
    void aWebSocketConversationWithPythonWebsockets()
    {
        std::unique_ptr<PeerProcess> server(peer("ws"));
        QVERIFY(server->port() > 0);
        Conn c(server->port());
        QVERIFY(c.ok());
        std::mt19937 random(std::random_device{}());
        std::uint8_t nonce[16];
        for (auto& b : nonce)
            b = std::uint8_t(random());
        WsUpgrade u;
        u.target = "/chat";
        u.host = "127.0.0.1:" + std::to_string(server->port());
        u.key = wsKey(nonce);
        u.protocols = {"mqtt", "chat"};
        QVERIFY(c.send(wsUpgradeRequest(u)));
        Headers headers;
        std::string rest;
        const int status = readHead(c, headers, rest);
        std::string protocol;
        const std::string why = wsCheckAnswer(status, headers, u, protocol);
        QVERIFY2(why.empty(), why.c_str());
        QCOMPARE(protocol, std::string("chat"));

        const auto sendText = [&](std::string_view text, WsOpcode op = WsOpcode::Text) {
            std::uint8_t mask[4];
            for (auto& b : mask)
                b = std::uint8_t(random());
            std::string f;
            appendWsFrame(f, op, text, mask);
            return c.send(f);
        };
        WsReader reader;
        std::vector<std::string> seen;
        WsReader::Events ev;
        ev.message = [&](WsOpcode t, std::string_view d) {
            seen.push_back((t == WsOpcode::Text ? "T:" : "B:") + std::string(d));
            return true;
        };
        ev.ping = [&](std::string_view p) { seen.push_back("ping:" + std::string(p)); };
        // reads until `n` things were seen or the reader ends
        const auto readUntil = [&](std::size_t n) {
            WsReader::Result r = reader.feed(rest, ev);
            rest.clear();
            while (seen.size() < n && r == WsReader::Result::More) {
                const std::string more = c.read();
                if (more.empty())
                    break;
                r = reader.feed(more, ev);
            }
            return r;
        };
        QVERIFY(sendText("hello \xe4\xbd\xa0"));
        QCOMPARE(readUntil(1), WsReader::Result::More);
        QVERIFY(sendText(std::string(70000, 'b'), WsOpcode::Binary)); // a 64-bit length each way
        QCOMPARE(readUntil(2), WsReader::Result::More);
        QVERIFY(sendText("ping-me"));
        QCOMPARE(readUntil(4), WsReader::Result::More);
        QVERIFY(sendText("two"));
        QCOMPARE(readUntil(6), WsReader::Result::More);
        QCOMPARE(seen.size(), std::size_t(6));
        QCOMPARE(seen[0], std::string("T:hello \xe4\xbd\xa0"));
        QCOMPARE(seen[1], "B:" + std::string(70000, 'b'));
        QCOMPARE(seen[2], std::string("ping:hi"));
        QCOMPARE(seen[3], std::string("T:ping-me"));
        QCOMPARE(seen[4], std::string("T:two"));
        QCOMPARE(seen[5], std::string("T:second"));
        QVERIFY(sendText("close-me"));
        QCOMPARE(readUntil(100), WsReader::Result::Closed);
        QCOMPARE(reader.closeCode(), std::uint16_t(4001));
        QCOMPARE(reader.closeReason(), std::string("asked"));
        QCOMPARE(reader.messages(), std::uint64_t(5));
    }

    // A wrong key is refused by the client's check, whatever the server says.
    void aWrongAcceptIsRefused()
    {
        std::unique_ptr<PeerProcess> server(peer("ws"));
        Conn c(server->port());
        const std::uint8_t nonce[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
        WsUpgrade u;
        u.host = "127.0.0.1";
        u.key = wsKey(nonce);
        QVERIFY(c.send(wsUpgradeRequest(u)));
        Headers headers;
        std::string rest;
        const int status = readHead(c, headers, rest);
        WsUpgrade other = u;
        other.key = wsKey(std::array<std::uint8_t, 16>{}.data());
        std::string protocol;
        QCOMPARE(wsCheckAnswer(status, headers, u, protocol), std::string());
        QVERIFY(wsCheckAnswer(status, headers, other, protocol).find("Sec-WebSocket-Accept") != std::string::npos);
    }

    // The engine's WebSocket session on its event loop, with python3-websockets: the handshake, messages both ways
    // (a 64-bit length), the server's ping answered, our close answered with our code; the server's own close
    // with its code and reason.
    void theWebSocketSessionTalksToPythonWebsockets()
    {
        std::unique_ptr<PeerProcess> server(peer("ws"));
        QVERIFY(server->port() > 0);
        std::string err;
        const auto endpoint = Endpoint::resolve("127.0.0.1", unsigned(server->port()), err);
        QVERIFY(endpoint);
        EventLoop loop;
        std::vector<char> buffer(64 * 1024);
        Heard heard;
        WsSession s(loop, heard, buffer.data(), buffer.size());
        const Nanos second = kNanosPerSecond;
        WsUpgrade u = upgradeTo(server->port(), "/chat");
        u.protocols = {"chat"};
        s.open(*endpoint, u, SteadyClock::monotonicNow(), 5 * second, 5 * second);
        QVERIFY(runFor(loop, s, [&] { return s.isWebSocket() || heard.ended; }));
        QVERIFY2(s.isWebSocket(), heard.why.c_str());
        const Nanos now = SteadyClock::monotonicNow();
        QVERIFY(s.send(WsOpcode::Text, "hello", now));
        QVERIFY(s.send(WsOpcode::Binary, std::string(70000, 'b'), now));
        QVERIFY(s.send(WsOpcode::Text, "ping-me", now));
        QVERIFY(runFor(loop, s, [&] { return heard.log.size() >= 4 || heard.ended; }));
        QCOMPARE(heard.log, (std::vector<std::string>{"open:chat", "T:hello", "B:70000", "T:ping-me"}));
        QCOMPARE(s.pongsSent(), std::uint64_t(1));
        s.close(1000, "bye", SteadyClock::monotonicNow(), 5 * second);
        QVERIFY(!s.send(WsOpcode::Text, "late", SteadyClock::monotonicNow())); // closing: nothing more goes
        QVERIFY(runFor(loop, s, [&] { return heard.ended; }));
        QVERIFY2(!heard.end.failed, heard.why.c_str());
        QCOMPARE(heard.end.code, std::uint16_t(1000));

        Heard second2;
        WsSession t(loop, second2, buffer.data(), buffer.size());
        t.open(*endpoint, upgradeTo(server->port(), "/"), SteadyClock::monotonicNow(), 5 * second, 5 * second);
        QVERIFY(runFor(loop, t, [&] { return t.isWebSocket() || second2.ended; }));
        QVERIFY(t.send(WsOpcode::Text, "close-me", SteadyClock::monotonicNow()));
        QVERIFY(runFor(loop, t, [&] { return second2.ended; }));
        QVERIFY2(!second2.end.failed, second2.why.c_str());
        QCOMPARE(second2.end.code, std::uint16_t(4001));
        QCOMPARE(second2.reason, std::string("asked"));
        QVERIFY(t.idle());
    }

    // What is not a WebSocket ends as what it is: an answer that is not 101 (aiohttp's 404, a 4xx), a server that
    // never answers the close (a timeout within its deadline), a refused connect.
    void whatIsNotAWebSocketEndsSaid()
    {
        std::unique_ptr<PeerProcess> sse(peer("sse"));
        std::string err;
        const auto notWs = Endpoint::resolve("127.0.0.1", unsigned(sse->port()), err);
        QVERIFY(notWs);
        EventLoop loop;
        std::vector<char> buffer(64 * 1024);
        const Nanos second = kNanosPerSecond;
        Heard a;
        WsSession s(loop, a, buffer.data(), buffer.size());
        s.open(*notWs, upgradeTo(sse->port(), "/nowhere"), SteadyClock::monotonicNow(), 5 * second, 5 * second);
        QVERIFY(runFor(loop, s, [&] { return a.ended; }));
        QVERIFY(a.end.failed);
        QCOMPARE(a.end.error, ErrorClass::Http4xx);
        QVERIFY2(a.why.find("404") != std::string::npos, a.why.c_str());

        MuteServer mute;
        const auto muted = Endpoint::resolve("127.0.0.1", unsigned(mute.port), err);
        Heard b;
        WsSession t(loop, b, buffer.data(), buffer.size());
        t.open(*muted, upgradeTo(mute.port, "/"), SteadyClock::monotonicNow(), 5 * second, 5 * second);
        QVERIFY(runFor(loop, t, [&] { return t.isWebSocket() || b.ended; }));
        QVERIFY2(t.isWebSocket(), b.why.c_str());
        const Nanos closing = SteadyClock::monotonicNow();
        t.close(1000, {}, closing, 300 * kNanosPerMilli);
        QVERIFY(runFor(loop, t, [&] { return b.ended; }));
        QVERIFY(b.end.failed);
        QCOMPARE(b.end.error, ErrorClass::Timeout);
        QCOMPARE(b.end.code, std::uint16_t(1006));
        QVERIFY(SteadyClock::monotonicNow() - closing >= 300 * kNanosPerMilli); // not before its deadline

        const auto closed = Endpoint::resolve("127.0.0.1", 1, err);
        Heard c;
        WsSession r(loop, c, buffer.data(), buffer.size());
        r.open(*closed, upgradeTo(1, "/"), SteadyClock::monotonicNow(), 5 * second, 5 * second);
        QVERIFY(runFor(loop, r, [&] { return c.ended; }));
        QVERIFY(c.end.failed);
        QCOMPARE(c.end.error, ErrorClass::Connect);
    }

    // A scenario's WebSocket step under load, run by stampede-cli against python3-websockets: each iteration a
    // conversation of its own (the upgrade with the stress tag and the subprotocol, a message with the iteration's
    // value, the awaited echoes), the last message checked; the server saw every message once. A close before
    // the awaited messages, a refused connect and awaited messages that never come are counted by class.
    void aWebSocketStepRunsUnderLoad()
    {
        std::unique_ptr<PeerProcess> server(peer("ws"));
        QVERIFY(server->port() > 0);
        QTemporaryDir dir;
        const auto scenario = [&](const char* second, const char* receive, const char* timeout, int port) {
            return QStringLiteral(
                       "{\"name\": \"ws\", \"variables\": [{\"name\": \"id\", \"increment\": {\"min\": 1, \"max\": "
                       "1000000}}],"
                       " \"steps\": [{\"name\": \"chat\", \"websocket\": {\"url\": \"ws://127.0.0.1:%1/chat\","
                       " \"subprotocols\": [\"chat\"], \"send\": [{\"text\": \"hello ${id}\"}, {\"text\": \"%2\"}],"
                       " \"receive\": %3, \"timeout\": \"%4\"},"
                       " \"checks\": [{\"status\": [101]}, {\"bodyContains\": \"second\"}]}],"
                       " \"load\": {\"closed\": {\"users\": 4}}, \"iterations\": 25}")
                .arg(port)
                .arg(QString::fromLatin1(second), QString::fromLatin1(receive), QString::fromLatin1(timeout))
                .toUtf8();
        };
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        auto o = runOneEngine(summary, {writeFile(dir, "ok.json", scenario("two", "3", "10s", server->port()))});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 100);
        QCOMPARE(o.total[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(o.total[QStringLiteral("messages_sent")].toInteger(), 200);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 300);
        const QJsonObject seen = server->finish();
        QCOMPARE(seen[QStringLiteral("connections")].toInteger(), 100);
        QCOMPARE(seen[QStringLiteral("messages")].toInteger(), 200);
        QCOMPARE(seen[QStringLiteral("distinct_texts")].toInteger(), 101); // hello 1..100 and "two"
        QCOMPARE(seen[QStringLiteral("protocols")].toArray(), QJsonArray{QStringLiteral("chat")});
        QCOMPARE(seen[QStringLiteral("tags")].toArray().size(), 1);
        QVERIFY(seen[QStringLiteral("tags")].toArray()[0].toString().startsWith(QStringLiteral("st-")));

        std::unique_ptr<PeerProcess> again(peer("ws"));
        const auto byClass = [](const RunOutcome& r, const char* c) {
            return r.total[QStringLiteral("errors_by_class")].toObject()[QString::fromLatin1(c)].toInteger();
        };
        o = runOneEngine(summary, {writeFile(dir, "closed.json", scenario("close-me", "3", "10s", again->port()))});
        QCOMPARE(o.cli.exitCode, 1);
        QCOMPARE(byClass(o, "protocol"), 100);
        o = runOneEngine(summary, {writeFile(dir, "late.json", scenario("two", "4", "200ms", again->port()))});
        QCOMPARE(byClass(o, "timeout"), 100);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 300); // what came before each timeout
        o = runOneEngine(summary, {writeFile(dir, "refused.json", scenario("two", "3", "10s", 1))});
        QCOMPARE(byClass(o, "connect"), 100);
    }

    // permessage-deflate (RFC 7692) offered to python3-websockets, which agrees by default: 20 conversations of
    // a 3,000-byte text each way, compressed both ways (the server read each message whole: our deflate is
    // zlib's; the echo expanded by our inflate), the echoes in a fraction of the bytes of the same run
    // uncompressed.
    void aDeflatedConversation()
    {
        std::unique_ptr<PeerProcess> server(peer("ws"));
        QVERIFY(server->port() > 0);
        QTemporaryDir dir;
        const QByteArray text(3000, 'x');
        const auto scenario = [&](bool deflate) -> QByteArray {
            return "{\"name\": \"ws\", \"steps\": [{\"name\": \"chat\", \"websocket\": {\"url\": "
                   "\"ws://127.0.0.1:" +
                   QByteArray::number(server->port()) + "/chat\", \"send\": [{\"text\": \"" + text +
                   "\"}], \"receive\": 1, \"deflate\": " + (deflate ? "true" : "false") +
                   "}, \"checks\": [{\"bodyContains\": \"" + text +
                   "\"}]}], \"load\": {\"closed\": {\"users\": 2}}, "
                   "\"iterations\": 10}";
        };
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        const auto plain = runOneEngine(summary, {writeFile(dir, "plain.json", scenario(false))});
        QVERIFY2(plain.cli.exitCode == 0, qPrintable(plain.cli.err));
        const auto packed = runOneEngine(summary, {writeFile(dir, "packed.json", scenario(true))});
        QVERIFY2(packed.cli.exitCode == 0, qPrintable(packed.cli.err));
        QCOMPARE(packed.total[QStringLiteral("requests")].toInteger(), 20);
        QCOMPARE(packed.total[QStringLiteral("errors")].toInteger(), 0); // each echo expanded and checked
        const qint64 plainIn = plain.total[QStringLiteral("bytes_in")].toInteger();
        const qint64 packedIn = packed.total[QStringLiteral("bytes_in")].toInteger();
        QVERIFY2(plainIn > 20 * 3000 && packedIn < plainIn / 4,
                 qPrintable(QStringLiteral("bytes in %1 -> %2").arg(plainIn).arg(packedIn)));
        const QJsonObject seen = server->finish();
        QCOMPARE(seen[QStringLiteral("connections")].toInteger(), 40);
        QCOMPARE(seen[QStringLiteral("messages")].toInteger(), 40);
        QCOMPARE(seen[QStringLiteral("longest")].toInteger(), 3000);
        const QJsonArray ext = seen[QStringLiteral("extensions")].toArray();
        QCOMPARE(ext.size(),
                 2); // none for the plain run, permessage-deflate (with the server's parameters) for the other
        QVERIFY2(ext[1].toString().startsWith(QStringLiteral("permessage-deflate")), qPrintable(ext[1].toString()));
    }

    // wss://: the same step over TLS against python3-websockets serving a certificate the test's CA signed
    // (ssl's server): every conversation verified and answered; a CA that did not sign it fails each connection
    // as a TLS error, none answered.
    void aWssStepOverTls()
    {
        QTemporaryDir dir;
        const QString made = makeCertificates(dir.path());
        QVERIFY2(made.isEmpty(), qPrintable(made));
        std::unique_ptr<PeerProcess> server(
            peer("ws", {QStringLiteral("--cert"), dir.filePath(QStringLiteral("server.pem")), QStringLiteral("--key"),
                        dir.filePath(QStringLiteral("server.key"))}));
        QVERIFY(server->port() > 0);
        const auto scenario = [&](const char* ca) {
            return QStringLiteral(
                       "{\"name\": \"wss\", \"tls\": {\"caFile\": \"%1\"},"
                       " \"steps\": [{\"name\": \"chat\", \"websocket\": {\"url\": \"wss://127.0.0.1:%2/chat\","
                       " \"subprotocols\": [\"chat\"], \"send\": [{\"text\": \"over tls\"}], \"timeout\": \"10s\"},"
                       " \"checks\": [{\"bodyContains\": \"over tls\"}]}],"
                       " \"load\": {\"closed\": {\"users\": 2}}, \"iterations\": 10}")
                .arg(dir.filePath(QString::fromLatin1(ca)))
                .arg(server->port())
                .toUtf8();
        };
        const QString summary = dir.filePath(QStringLiteral("s.json"));
        auto o = runOneEngine(summary, {writeFile(dir, "ok.json", scenario("ca.pem"))});
        QVERIFY2(o.cli.exitCode == 0, qPrintable(o.cli.err));
        QCOMPARE(o.total[QStringLiteral("requests")].toInteger(), 20);
        QCOMPARE(o.total[QStringLiteral("errors")].toInteger(), 0);
        QCOMPARE(o.total[QStringLiteral("messages_received")].toInteger(), 20);
        o = runOneEngine(summary, {writeFile(dir, "wrongca.json", scenario("self.pem"))});
        QCOMPARE(o.cli.exitCode, 1);
        QCOMPARE(o.total[QStringLiteral("errors_by_class")].toObject()[QStringLiteral("tls")].toInteger(), 20);
        const QJsonObject seen = server->finish();
        QCOMPARE(seen[QStringLiteral("connections")].toInteger(), 10 * 2);
        QCOMPARE(seen[QStringLiteral("messages")].toInteger(), 20);
    }

    void anEventStreamFromAiohttp()
    {
        std::unique_ptr<PeerProcess> server(peer("sse"));
        QVERIFY(server->port() > 0);
        Conn c(server->port());
        QVERIFY(c.ok());
        QVERIFY(c.send("GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n"
                       "Last-Event-ID: 41\r\n\r\n"));
        Http1ResponseParser parser;
        Http1ResponseParser::Capture capture;
        parser.setCapture(&capture);
        parser.reset();
        SseParser sse;
        std::vector<std::string> events;
        const auto on = [&](const SseEvent& e) {
            events.push_back(e.type + "|" + e.data + "|" + e.id);
            return true;
        };
        std::size_t fed = 0, reads = 0;
        Http1ResponseParser::Result r = Http1ResponseParser::Result::NeedMore;
        while (r == Http1ResponseParser::Result::NeedMore) {
            const std::string more = c.read();
            if (more.empty())
                break;
            ++reads;
            std::size_t consumed = 0;
            r = parser.feed(more.data(), more.size(), consumed);
            // the events as the body comes, not at its end
            QCOMPARE(sse.feed(std::string_view(capture.body).substr(fed), on), SseParser::Result::More);
            fed = capture.body.size();
        }
        QCOMPARE(r, Http1ResponseParser::Result::Complete);
        QCOMPARE(parser.status(), 200);
        QVERIFY(reads > 1); // it came in pieces
        QCOMPARE(events.size(), std::size_t(3));
        QCOMPARE(events[0], std::string("tick|a\nb|1"));
        QCOMPARE(events[1], std::string("message|\xc3\xbc\xe4\xbd\xa0|1"));
        QCOMPARE(events[2], std::string("message|last=41|1"));
        QCOMPARE(sse.retry().value_or(0), std::uint64_t(1500));
        QCOMPARE(sse.comments(), std::uint64_t(1));
        QCOMPARE(sse.lastEventId(), std::string("1"));
    }
};

QTEST_GUILESS_MAIN(TestStreamPeers)
#include "tst_streampeers.moc"
