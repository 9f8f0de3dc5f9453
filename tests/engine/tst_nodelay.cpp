// When a client connection sets TCP_NODELAY. Cleartext HTTP/1.1 writes each
// request whole, after the answer to the one before: Nagle's algorithm never
// holds such a write back, so the option (a system call per connection) is
// set only once a request needs a second write. A request larger than the
// socket takes must then not wait for the server's ACK between its pieces.
// TLS sets it on every connection (a handshake flight is several writes).
#include "loopbackserver.h"
#include "net/http1session.h"
#include "net/tlscontext.h"

#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace stampede;
using loopbacktest::Answers;

namespace {

// The client's end of the connection the server accepted as `server`: the
// descriptor of this process whose local address is the server's peer.
int clientEnd(int server)
{
    sockaddr_in peer{};
    socklen_t len = sizeof peer;
    getpeername(server, reinterpret_cast<sockaddr*>(&peer), &len);
    for (int fd = 3; fd < 4096; ++fd) {
        sockaddr_in local{};
        socklen_t l = sizeof local;
        if (fd != server && getsockname(fd, reinterpret_cast<sockaddr*>(&local), &l) == 0 &&
            local.sin_family == AF_INET && local.sin_port == peer.sin_port &&
            local.sin_addr.s_addr == peer.sin_addr.s_addr)
            return fd;
    }
    return -1;
}

int noDelay(int fd)
{
    int on = -1;
    socklen_t len = sizeof on;
    getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, &len);
    return on;
}

// Reads from `fd` until `text` has been seen (or 5 s pass); the bytes read.
std::size_t readUntil(int fd, const std::string& text)
{
    std::string seen;
    std::size_t total = 0;
    char buf[65536];
    pollfd p{fd, POLLIN, 0};
    while (poll(&p, 1, 5000) == 1) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0)
            break;
        total += std::size_t(n);
        seen.append(buf, std::size_t(n));
        if (seen.size() > 2 * text.size())
            seen.erase(0, seen.size() - text.size());
        if (seen.find(text) != std::string::npos)
            break;
    }
    return total;
}

} // namespace

class TestNoDelay : public QObject
{
    Q_OBJECT
private:
    loopbacktest::Loopback m_net;

    int accepted()
    {
        pollfd p{m_net.fd, POLLIN, 0};
        for (int i = 0; i < 500 && poll(&p, 1, 0) == 0; ++i)
            spin(10);
        return ::accept(m_net.fd, nullptr, nullptr);
    }
    // Turns the client's loop for `ms` or until `done`.
    template <typename Done> void spin(int ms, Done done)
    {
        const Nanos until = SteadyClock::monotonicNow() + Nanos(ms) * kNanosPerMilli;
        while (!done() && SteadyClock::monotonicNow() < until)
            dispatchEvents(m_net.loop, m_net.loop.wait(kNanosPerMilli), SteadyClock::monotonicNow());
    }
    void spin(int ms)
    {
        spin(ms, [] { return false; });
    }
    static inline const std::string kGet = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
    // Sends a GET on `session` to `to`; the server's end of its connection (-1: none came).
    int sendGet(Http1Session& session, const Endpoint& to)
    {
        session.submit(to, kGet.data(), kGet.size(), false, SteadyClock::monotonicNow(), 5 * kNanosPerSecond,
                       5 * kNanosPerSecond);
        return accepted();
    }

private slots:
    void initTestCase() { QVERIFY(m_net.fd >= 0); }

    void cleartextSetsItOnlyWhenARequestIsSplit()
    {
        Answers answers;
        Http1Session session(m_net.loop, answers, m_net.buffer.data(), m_net.buffer.size());
        const int server = sendGet(session, m_net.endpoint);
        QVERIFY(server >= 0);
        spin(5000, [&] {
            pollfd p{server, POLLIN, 0};
            return poll(&p, 1, 0) == 1;
        });
        QCOMPARE(readUntil(server, "\r\n\r\n"), kGet.size());
        const int client = clientEnd(server);
        QVERIFY(client >= 0);
        QCOMPARE(noDelay(client), 0); // a whole request in one write: no need
        const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        QCOMPARE(::write(server, ok.data(), ok.size()), ssize_t(ok.size()));
        spin(5000, [&] { return answers.answers == 1; });
        QCOMPARE(answers.status, 200);

        // 16 MiB of body on the same connection, the server not reading: the
        // socket takes a part; the rest goes in later writes, with NODELAY
        const std::string body(16 << 20, 'x');
        const std::string post = "POST / HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(body.size()) +
                                 "\r\n\r\n" + body.substr(0, body.size() - 3) + "end";
        session.submit(m_net.endpoint, post.data(), post.size(), false, SteadyClock::monotonicNow(),
                       10 * kNanosPerSecond, 5 * kNanosPerSecond);
        spin(20);
        QCOMPARE(noDelay(client), 1);
        std::size_t received = 0;
        std::thread reader([&] {
            received = readUntil(server, "xend");
            (void)::write(server, ok.data(), ok.size());
        });
        spin(10000, [&] { return answers.answers == 2; });
        reader.join();
        QCOMPARE(received, post.size());
        QCOMPARE(answers.answers, 2);
        QVERIFY2(answers.status == 200, answers.why.c_str());
        session.close();
        ::close(server);
    }

    void tlsSetsItOnEveryConnection()
    {
        std::string error;
        TlsOptions options;
        options.verify = false;
        Endpoint tls = m_net.endpoint;
        tls.tls = TlsContext::create(options, error);
        QVERIFY2(tls.tls, error.c_str());
        Answers answers;
        Http1Session session(m_net.loop, answers, m_net.buffer.data(), m_net.buffer.size());
        const int server = sendGet(session, tls);
        QVERIFY(server >= 0);
        const int client = clientEnd(server);
        QVERIFY(client >= 0);
        QCOMPARE(noDelay(client), 1);
        ::close(server); // no TLS here: the handshake fails, the request with it
        spin(5000, [&] { return answers.answers == 1; });
        QCOMPARE(answers.answers, 1);
        session.close();
    }
};

QTEST_APPLESS_MAIN(TestNoDelay)
#include "tst_nodelay.moc"
