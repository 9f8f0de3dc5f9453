// A new TLS connection's segments. With TLS 1.3 the client's last handshake
// flight (its Finished) needs no answer: it is held and goes out in one write
// with the first request, so the server is woken once for both. A flight the
// server must answer first (the ClientHello; TLS 1.2's Finished, which waits
// for the server's) goes out at once, or the handshake would never end.
// Counted on the server's socket (TCP_INFO's data segments in), against a
// TLS server of the test's own over real loopback sockets. In cleartext the
// request goes out as connect() returns, when the connection is up by then
// (on loopback it is): the server finds it as it accepts.
#include "loopbackserver.h"
#include "net/http1session.h"
#include "net/tlscontext.h"
#include "tlstestserver.h"

#include <QTest>

#include <arpa/inet.h>
#include <linux/tcp.h>
#include <netinet/in.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace stampede;
using loopbacktest::Answers;

namespace {

// What the server saw of one connection: the request's head, and the
// segments with data that had come in when it was read.
struct Seen
{
    std::string head;
    std::uint32_t dataSegments = 0;
    std::string error;
};

// Accepts one connection on `listenFd`, handshakes, reads a request head,
// counts, answers 200 and waits for the client to close.
Seen serveOne(int listenFd, SSL_CTX* ctx)
{
    Seen seen;
    const int fd = ::accept(listenFd, nullptr, nullptr);
    SSL* ssl = SSL_new(ctx);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) != 1) {
        seen.error = "handshake failed";
    } else {
        char buf[4096];
        while (seen.head.find("\r\n\r\n") == std::string::npos) {
            const int n = SSL_read(ssl, buf, sizeof buf);
            if (n <= 0) {
                seen.error = "no request";
                break;
            }
            seen.head.append(buf, std::size_t(n));
        }
        tcp_info info{};
        socklen_t len = sizeof info;
        ::getsockopt(fd, IPPROTO_TCP, TCP_INFO, &info, &len);
        seen.dataSegments = info.tcpi_data_segs_in;
        const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        SSL_write(ssl, ok.data(), int(ok.size()));
        while (SSL_read(ssl, buf, sizeof buf) > 0) {
        }
    }
    SSL_free(ssl);
    ::close(fd);
    return seen;
}

} // namespace

class TestTlsFlight : public QObject
{
    Q_OBJECT
private:
    loopbacktest::Loopback m_net;

    // One GET over a new connection to a server of `maxVersion`; what it saw.
    Seen getOnce(int maxVersion, Answers& answers)
    {
        SSL_CTX* ctx = loopbacktest::serverContext(maxVersion);
        Seen seen;
        std::thread server([&] { seen = serveOne(m_net.fd, ctx); });
        std::string error;
        TlsOptions options;
        options.verify = false;
        Endpoint tls = m_net.endpoint;
        tls.tls = TlsContext::create(options, error);
        Http1Session session(m_net.loop, answers, m_net.buffer.data(), m_net.buffer.size());
        static const std::string get = "GET /flight HTTP/1.1\r\nHost: t\r\n\r\n";
        session.submit(tls, get.data(), get.size(), false, SteadyClock::monotonicNow(), 5 * kNanosPerSecond,
                       5 * kNanosPerSecond);
        const Nanos until = SteadyClock::monotonicNow() + 5 * kNanosPerSecond;
        while (answers.answers == 0 && SteadyClock::monotonicNow() < until)
            dispatchEvents(m_net.loop, m_net.loop.wait(kNanosPerMilli), SteadyClock::monotonicNow());
        session.close();
        server.join();
        SSL_CTX_free(ctx);
        return seen;
    }

private slots:
    void initTestCase() { QVERIFY(m_net.fd >= 0); }

    // TLS 1.3: the ClientHello, then the Finished and the request together.
    void finishedGoesOutWithTheFirstRequest()
    {
        Answers answers;
        const Seen seen = getOnce(TLS1_3_VERSION, answers);
        QVERIFY2(seen.error.empty(), seen.error.c_str());
        QVERIFY(seen.head.rfind("GET /flight HTTP/1.1\r\n", 0) == 0);
        QCOMPARE(seen.dataSegments, 2u);
        QCOMPARE(answers.answers, 1);
        QVERIFY2(answers.status == 200, answers.why.c_str());
    }

    // Cleartext: the request is on the server's socket before the client's
    // loop has turned once (no wait for the connect's EPOLLOUT).
    void aRequestGoesWithTheConnect()
    {
        Answers answers;
        Http1Session session(m_net.loop, answers, m_net.buffer.data(), m_net.buffer.size());
        static const std::string get = "GET /early HTTP/1.1\r\nHost: t\r\n\r\n";
        session.submit(m_net.endpoint, get.data(), get.size(), false, SteadyClock::monotonicNow(), 5 * kNanosPerSecond,
                       5 * kNanosPerSecond);
        const int server = ::accept(m_net.fd, nullptr, nullptr);
        QVERIFY(server >= 0);
        pollfd ready{server, POLLIN, 0};
        QCOMPARE(::poll(&ready, 1, 0), 1);
        char buf[256];
        QCOMPARE(::read(server, buf, sizeof buf), ssize_t(get.size()));
        QCOMPARE(std::string(buf, get.size()), get);
        const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
        QCOMPARE(::write(server, ok.data(), ok.size()), ssize_t(ok.size()));
        const Nanos until = SteadyClock::monotonicNow() + 5 * kNanosPerSecond;
        while (answers.answers == 0 && SteadyClock::monotonicNow() < until)
            dispatchEvents(m_net.loop, m_net.loop.wait(kNanosPerMilli), SteadyClock::monotonicNow());
        QCOMPARE(answers.answers, 1);
        QVERIFY2(answers.status == 200, answers.why.c_str());
        session.close();
        ::close(server);
    }

    // A connect still in progress when connect() returns (its SYN dropped:
    // the server's accept queue is full) takes nothing: the request waits
    // for the connect's EPOLLOUT, and the connect time is the connect's
    // (about the 1 s of SYN retransmission), not the moment of the send.
    void aRequestWaitsForAConnectInProgress()
    {
        const int full = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(full, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
        QCOMPARE(::listen(full, 0), 0); // one connection waits to be accepted, no more
        socklen_t len = sizeof a;
        getsockname(full, reinterpret_cast<sockaddr*>(&a), &len);
        std::string error;
        const Endpoint to = *Endpoint::resolve("127.0.0.1", ntohs(a.sin_port), error);
        const int filler = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QCOMPARE(::connect(filler, reinterpret_cast<const sockaddr*>(&a), sizeof a), 0);

        struct Timed final : SessionListener
        {
            Answers answers;
            Nanos connect = -1;
            void onAnswer(std::uint32_t t, const Answer& r, Nanos now) override { answers.onAnswer(t, r, now); }
            void onConnected(std::uint32_t, Nanos c, Nanos, bool, bool) override { connect = c; }
        } timed;
        Http1Session session(m_net.loop, timed, m_net.buffer.data(), m_net.buffer.size());
        static const std::string get = "GET /later HTTP/1.1\r\nHost: t\r\n\r\n";
        session.submit(to, get.data(), get.size(), false, SteadyClock::monotonicNow(), 10 * kNanosPerSecond,
                       10 * kNanosPerSecond);
        QCOMPARE(timed.connect, Nanos(-1));        // not up yet
        ::close(::accept(full, nullptr, nullptr)); // room for the retransmitted SYN
        ::close(filler);
        int server = -1;
        std::thread serve([&] {
            server = ::accept(full, nullptr, nullptr);
            char buf[256];
            const ssize_t n = ::read(server, buf, sizeof buf);
            const std::string ok = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
            if (n == ssize_t(get.size()))
                (void)!::write(server, ok.data(), ok.size());
        });
        const Nanos until = SteadyClock::monotonicNow() + 8 * kNanosPerSecond;
        while (timed.answers.answers == 0 && SteadyClock::monotonicNow() < until)
            dispatchEvents(m_net.loop, m_net.loop.wait(kNanosPerMilli), SteadyClock::monotonicNow());
        serve.join();
        QCOMPARE(timed.answers.answers, 1);
        QVERIFY2(timed.answers.status == 200, timed.answers.why.c_str());
        QVERIFY2(timed.connect > 500 * kNanosPerMilli, qPrintable(QString::number(timed.connect)));
        session.close();
        ::close(server);
        ::close(full);
    }

    // TLS 1.2: the client's Finished waits for the server's, so it is not
    // held: three flights, and the request answered.
    void aFlightTheServerAnswersIsNotHeld()
    {
        Answers answers;
        const Seen seen = getOnce(TLS1_2_VERSION, answers);
        QVERIFY2(seen.error.empty(), seen.error.c_str());
        QCOMPARE(seen.dataSegments, 3u);
        QCOMPARE(answers.answers, 1);
        QVERIFY2(answers.status == 200, answers.why.c_str());
    }
};

QTEST_APPLESS_MAIN(TestTlsFlight)
#include "tst_tlsflight.moc"
