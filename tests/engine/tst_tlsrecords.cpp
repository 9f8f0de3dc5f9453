// The engine's own TLS 1.3 record layer. Alone: records sealed by one side
// open on the other (both directions, every suite, a key update), and a
// record that was changed, replayed or misframed does not. Against OpenSSL's
// server over loopback sockets: keep-alive requests with answers of many
// records, the server's KeyUpdate (requested: the client sends its own),
// tickets that still make the next connection resume, a record that does
// not authenticate, a close_notify, and TLS 1.2 left to OpenSSL.
#include "loopbackserver.h"
#include "net/http1session.h"
#include "net/httpexchange.h"
#include "net/tlscontext.h"
#include "net/tlsrecords.h"
#include "tlstestserver.h"

#include <QTest>

#include <algorithm>
#include <atomic>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <thread>
#include <unistd.h>

using namespace stampede;

namespace {

constexpr std::uint32_t kAes128 = 0x03001301, kAes256 = 0x03001302, kChaCha = 0x03001303;

std::string randomBytes(std::size_t n)
{
    std::string s(n, '\0');
    RAND_bytes(reinterpret_cast<unsigned char*>(s.data()), int(n));
    return s;
}

// Opens every record of `wire` with `r`: the data records' plaintext, or "" with `why`.
// With `keyUpdates`, a KeyUpdate record moves the reader's key on and is counted.
std::string openAll(TlsRecords& r, const std::string& wire, std::string& why, int* keyUpdates = nullptr)
{
    std::string plain;
    std::size_t at = 0;
    while (at < wire.size()) {
        const auto* p = reinterpret_cast<const unsigned char*>(wire.data()) + at;
        const long length = TlsRecords::recordLength(p, wire.size() - at, why);
        if (length <= 0)
            return length == 0 ? (why = "incomplete", std::string()) : std::string();
        std::string out(std::size_t(length), '\0');
        std::uint8_t type = 0;
        std::size_t n = 0;
        if (!r.open(p, std::size_t(length), reinterpret_cast<unsigned char*>(out.data()), type, n, why))
            return {};
        if (keyUpdates && type == TlsRecords::kHandshake) {
            if (out.compare(0, n, std::string("\x18\x00\x00\x01\x00", 5)) != 0 || !r.updateReadKey())
                return why = "not a KeyUpdate", std::string();
            ++*keyUpdates;
        } else {
            plain.append(out.data(), n);
        }
        at += std::size_t(length);
    }
    return plain;
}

// What the server does after each request it reads on a connection.
enum class Then
{
    Answer,          // 200 with the body
    KeyUpdateFirst,  // a KeyUpdate asking for the client's, then the answer
    BadRecord,       // a record that does not authenticate, raw on the socket
    CloseNotifyAfter // the answer, then close_notify
};

struct ServerLog
{
    std::atomic<int> requests{0};
    std::atomic<int> clientKeyUpdates{0};
    std::string lastRequest;
};

void countKeyUpdates(int writeP, int, int contentType, const void* buf, size_t len, SSL*, void* arg)
{
    if (!writeP && contentType == SSL3_RT_HANDSHAKE && len > 0 && static_cast<const unsigned char*>(buf)[0] == 24)
        ++static_cast<ServerLog*>(arg)->clientKeyUpdates;
}

// Serves `connections` connections one after another; on each, answers until the client closes.
void serve(int listenFd, SSL_CTX* ctx, int connections, const std::string& body, std::vector<Then> plan, ServerLog& log)
{
    for (int c = 0; c < connections; ++c) {
        const int fd = ::accept(listenFd, nullptr, nullptr);
        SSL* ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        SSL_set_msg_callback(ssl, countKeyUpdates);
        SSL_set_msg_callback_arg(ssl, &log);
        if (SSL_accept(ssl) == 1) {
            std::string in;
            char buf[65536];
            for (;;) {
                const std::size_t end = in.find("\r\n\r\n");
                if (end == std::string::npos) {
                    const int n = SSL_read(ssl, buf, sizeof buf);
                    if (n <= 0)
                        break;
                    in.append(buf, std::size_t(n));
                    continue;
                }
                std::size_t length = 0;
                if (const std::size_t cl = in.find("Content-Length: "); cl != std::string::npos && cl < end)
                    length = std::stoul(in.substr(cl + 16));
                while (in.size() < end + 4 + length) {
                    const int n = SSL_read(ssl, buf, sizeof buf);
                    if (n <= 0)
                        break;
                    in.append(buf, std::size_t(n));
                }
                log.lastRequest = in.substr(0, end + 4 + length);
                in.erase(0, end + 4 + length);
                const int k = log.requests++;
                const Then then = std::size_t(k) < plan.size() ? plan[std::size_t(k)] : Then::Answer;
                if (then == Then::KeyUpdateFirst)
                    SSL_key_update(ssl, SSL_KEY_UPDATE_REQUESTED);
                if (then == Then::BadRecord) {
                    const std::string bad = std::string("\x17\x03\x03\x00\x20", 5) + std::string(32, 'x');
                    (void)!::write(fd, bad.data(), bad.size());
                    continue;
                }
                const std::string answer =
                    "HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
                SSL_write(ssl, answer.data(), int(answer.size()));
                if (then == Then::CloseNotifyAfter) {
                    SSL_shutdown(ssl);
                    break;
                }
            }
        }
        SSL_free(ssl);
        ::close(fd);
    }
}

// The bytes of the server's answer with `body`.
std::uint64_t answerBytes(const std::string& body)
{
    return ("HTTP/1.1 200 OK\r\nContent-Length: " + std::to_string(body.size()) + "\r\n\r\n").size() + body.size();
}

struct Answers final : SessionListener
{
    int answers = 0, status = 0, resumed = 0, connections = 0;
    std::uint64_t bytesIn = 0;
    std::string why;
    void onAnswer(std::uint32_t, const Answer& a, Nanos) override
    {
        ++answers;
        status = a.status;
        bytesIn = a.bytesIn;
        why = std::string(a.why);
    }
    void onConnected(std::uint32_t, Nanos, Nanos, bool, bool r) override
    {
        ++connections;
        resumed += r;
    }
};

} // namespace

class TestTlsRecords : public QObject
{
    Q_OBJECT
private:
    loopbacktest::Loopback m_net;

    struct Client
    {
        Endpoint endpoint;
        Answers answers;
        std::unique_ptr<Http1Session> session;
    };
    void makeClient(Client& c, bool ownRecords = true, std::size_t readBuffer = 65536)
    {
        std::string error;
        TlsOptions options;
        options.verify = false;
        options.ownRecords = ownRecords;
        c.endpoint = m_net.endpoint;
        c.endpoint.tls = TlsContext::create(options, error);
        c.session = std::make_unique<Http1Session>(m_net.loop, c.answers, m_net.buffer.data(),
                                                   std::min(readBuffer, m_net.buffer.size()));
    }
    // Sends `request` and runs the loop until its answer (5 s at most).
    void exchange(Client& c, const std::string& request)
    {
        const int before = c.answers.answers;
        c.session->submit(c.endpoint, request.data(), request.size(), false, SteadyClock::monotonicNow(),
                          5 * kNanosPerSecond, 5 * kNanosPerSecond);
        const Nanos until = SteadyClock::monotonicNow() + 5 * kNanosPerSecond;
        while (c.answers.answers == before && SteadyClock::monotonicNow() < until) {
            dispatchEvents(m_net.loop, m_net.loop.wait(kNanosPerMilli), SteadyClock::monotonicNow());
            c.session->checkDeadline(SteadyClock::monotonicNow());
        }
    }

private slots:
    void initTestCase() { QVERIFY(m_net.fd >= 0); }

    void sealedRecordsOpen_data()
    {
        QTest::addColumn<quint32>("suite");
        QTest::addColumn<int>("hashLength");
        QTest::newRow("AES-128-GCM") << quint32(kAes128) << 32;
        QTest::newRow("AES-256-GCM") << quint32(kAes256) << 48;
        QTest::newRow("ChaCha20-Poly1305") << quint32(kChaCha) << 32;
    }
    // Both directions, sizes from nothing to three records, data that ends in zeros (not padding).
    void sealedRecordsOpen()
    {
        QFETCH(quint32, suite);
        QFETCH(int, hashLength);
        const std::string c = randomBytes(std::size_t(hashLength)), s = randomBytes(std::size_t(hashLength));
        TlsRecords client, server; // the server's view: it writes with s and reads with c
        QVERIFY(client.start(suite, c, s));
        QVERIFY(server.start(suite, s, c));
        for (const std::size_t size : {std::size_t(0), std::size_t(1), std::size_t(100), TlsRecords::kMaxPlain,
                                       TlsRecords::kMaxPlain + 1, std::size_t(40000)}) {
            std::string data = randomBytes(size);
            if (size > 2)
                data[size - 1] = data[size - 2] = '\0';
            std::string wire, why;
            QVERIFY(client.seal(TlsRecords::kData, data.data(), data.size(), wire));
            QCOMPARE(wire.size(),
                     data.size() +
                         ((size + TlsRecords::kMaxPlain - 1) / TlsRecords::kMaxPlain + (size == 0)) * (5 + 1 + 16));
            QCOMPARE(openAll(server, wire, why), data);
            wire.clear();
            QVERIFY(server.seal(TlsRecords::kData, data.data(), data.size(), wire));
            QCOMPARE(openAll(client, wire, why), data);
        }
        // a key update: the reader that does not follow cannot open what follows
        std::string wire, why;
        QVERIFY(client.updateWriteKey());
        QVERIFY(client.seal(TlsRecords::kData, "after", 5, wire));
        QVERIFY(openAll(server, wire, why).empty());
        QVERIFY2(why.find("bad record MAC") != std::string::npos, why.c_str());
        TlsRecords fresh, peer;
        QVERIFY(fresh.start(suite, c, s));
        QVERIFY(peer.start(suite, s, c));
        wire.clear();
        QVERIFY(fresh.updateWriteKey() && peer.updateReadKey());
        QVERIFY(fresh.seal(TlsRecords::kData, "after", 5, wire));
        QCOMPARE(openAll(peer, wire, why), std::string("after"));
    }

    // After its records per key the writer sends a KeyUpdate and moves on by
    // itself (2^23 in use; 3 here): a reader that follows opens everything.
    void theWriterMovesToANewKey()
    {
        const std::string c = randomBytes(32), s = randomBytes(32);
        TlsRecords client(3), server;
        QVERIFY(client.start(kAes128, c, s) && server.start(kAes128, s, c));
        std::string wire, sent, why;
        for (int i = 0; i < 7; ++i) {
            const std::string data = "record " + std::to_string(i);
            QVERIFY(client.seal(TlsRecords::kData, data.data(), data.size(), wire));
            sent += data;
        }
        int keyUpdates = 0;
        QCOMPARE(openAll(server, wire, why, &keyUpdates), sent);
        QCOMPARE(keyUpdates, 2); // after records 3 and 6
        TlsRecords stuck;        // a reader that stays on the first key opens the first three only
        QVERIFY(stuck.start(kAes128, s, c));
        QVERIFY(openAll(stuck, wire, why).empty());
    }

    // A changed byte, a replayed record, a wrong key: none opens.
    void alteredRecordsDoNotOpen()
    {
        const std::string c = randomBytes(32), s = randomBytes(32);
        TlsRecords client, server, stranger;
        QVERIFY(client.start(kAes128, c, s) && server.start(kAes128, s, c));
        QVERIFY(stranger.start(kAes128, randomBytes(32), randomBytes(32)));
        std::string wire, why;
        QVERIFY(client.seal(TlsRecords::kData, "GET / HTTP/1.1\r\n\r\n", 18, wire));
        for (std::size_t i = 0; i < wire.size(); ++i) {
            std::string changed = wire;
            changed[i] = char(changed[i] ^ 0x01);
            TlsRecords reader;
            QVERIFY(reader.start(kAes128, s, c));
            why.clear();
            QVERIFY2(openAll(reader, changed, why).empty(), std::to_string(i).c_str());
            QVERIFY(!why.empty());
        }
        QCOMPARE(openAll(server, wire, why), std::string("GET / HTTP/1.1\r\n\r\n"));
        QVERIFY(openAll(server, wire, why).empty()); // the same record again: the next number does not fit
        QVERIFY(openAll(stranger, wire, why).empty());
        QVERIFY(!client.start(kAes128, c.substr(0, 31), s)); // a secret of the wrong length
        QVERIFY(!TlsRecords::supports(0x03001304));          // AES-128-CCM stays OpenSSL's
    }

    // The header is checked before anything is opened.
    void framingIsChecked()
    {
        std::string why;
        const auto len = [&](const std::string& h) {
            why.clear();
            return TlsRecords::recordLength(reinterpret_cast<const unsigned char*>(h.data()), h.size(), why);
        };
        QCOMPARE(len(std::string("\x17\x03\x03", 3)), 0L);
        QCOMPARE(len(std::string("\x17\x03\x03\x00\x20", 5)), 0L);
        QCOMPARE(len(std::string("\x17\x03\x03\x00\x20", 5) + std::string(32, 'x')), 37L);
        QCOMPARE(len(std::string("\x16\x03\x03\x00\x20", 5)), -1L);
        QVERIFY(why.find("type 22") != std::string::npos);
        QCOMPARE(len(std::string("\x15\x03\x03\x00\x02\x02\x28", 7)), -1L);
        QVERIFY(why.find("unprotected alert") != std::string::npos);
        QCOMPARE(len(std::string("\x17\x03\x03\x41\x01", 5)), -1L); // 16641 > 16384 + 256
        QVERIFY(why.find("overflow") != std::string::npos);
        QCOMPARE(len(std::string("\x17\x03\x03\x00\x10", 5)), -1L); // shorter than a tag and a type
    }

    void keepAliveAgainstOpenSsl_data()
    {
        QTest::addColumn<QString>("suite");
        QTest::newRow("AES-128-GCM") << "TLS_AES_128_GCM_SHA256";
        QTest::newRow("AES-256-GCM") << "TLS_AES_256_GCM_SHA384";
        QTest::newRow("ChaCha20-Poly1305") << "TLS_CHACHA20_POLY1305_SHA256";
    }
    // Three requests on one connection, the answers 40,000 bytes (three
    // records each), a request body of 20,000 bytes (two records); before
    // the second answer the server updates its key and asks for ours.
    void keepAliveAgainstOpenSsl()
    {
        QFETCH(QString, suite);
        SSL_CTX* ctx = loopbacktest::serverContext(TLS1_3_VERSION, suite.toLatin1().constData());
        ServerLog log;
        const std::string body = randomBytes(40000);
        std::thread server([&] { serve(m_net.fd, ctx, 1, body, {Then::Answer, Then::KeyUpdateFirst}, log); });
        Client c;
        makeClient(c);
        const std::string upload = randomBytes(20000);
        const std::string post =
            "POST /up HTTP/1.1\r\nHost: t\r\nContent-Length: " + std::to_string(upload.size()) + "\r\n\r\n" + upload;
        for (int i = 0; i < 3; ++i) {
            exchange(c, post);
            QCOMPARE(c.answers.why, std::string());
            QCOMPARE(c.answers.status, 200);
            QCOMPARE(c.answers.bytesIn, answerBytes(body));
            QVERIFY(c.session->ownsRecords());
        }
        QCOMPARE(c.answers.connections, 1);
        c.session->close();
        server.join();
        SSL_CTX_free(ctx);
        QCOMPARE(log.requests.load(), 3);
        QCOMPARE(log.lastRequest, post);          // byte for byte, through our records
        QCOMPARE(log.clientKeyUpdates.load(), 1); // asked for, sent, and the server read on with it
    }

    // The tickets came after the handshake, through our records: handed to
    // OpenSSL, they make the next connection resume.
    void ticketsStillResume()
    {
        SSL_CTX* ctx = loopbacktest::serverContext(TLS1_3_VERSION);
        ServerLog log;
        std::thread server([&] { serve(m_net.fd, ctx, 2, "ok", {}, log); });
        Client c;
        makeClient(c);
        const std::string get = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
        exchange(c, get);
        QCOMPARE(c.answers.status, 200);
        QVERIFY(c.session->ownsRecords());
        exchange(c, get); // the tickets were read by now
        c.session->close();
        exchange(c, get);
        QCOMPARE(c.answers.status, 200);
        c.session->close();
        server.join();
        SSL_CTX_free(ctx);
        QCOMPARE(c.answers.connections, 2);
        QCOMPARE(c.answers.resumed, 1);
    }

    // A reader's buffer smaller than a record: the tickets (about 250 bytes)
    // and the answers' records open aside and are handed out in pieces;
    // nothing of a ticket reaches the reader, and the session still resumes.
    void aBufferSmallerThanARecord()
    {
        SSL_CTX* ctx = loopbacktest::serverContext(TLS1_3_VERSION);
        ServerLog log;
        const std::string body = randomBytes(40000);
        std::thread server([&] { serve(m_net.fd, ctx, 2, body, {}, log); });
        Client c;
        makeClient(c, true, 64);
        const std::string get = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
        for (int i = 0; i < 3; ++i) {
            exchange(c, get);
            QCOMPARE(c.answers.why, std::string());
            QCOMPARE(c.answers.bytesIn, answerBytes(body));
            QVERIFY(c.session->ownsRecords());
        }
        c.session->close();
        exchange(c, get);
        QCOMPARE(c.answers.bytesIn, answerBytes(body));
        c.session->close();
        server.join();
        SSL_CTX_free(ctx);
        QCOMPARE(c.answers.resumed, 1);
    }

    // A record that does not authenticate fails the request with what happened.
    void aBadRecordFailsTheRequest()
    {
        SSL_CTX* ctx = loopbacktest::serverContext(TLS1_3_VERSION);
        ServerLog log;
        std::thread server([&] { serve(m_net.fd, ctx, 1, "ok", {Then::BadRecord}, log); });
        Client c;
        makeClient(c);
        exchange(c, "GET / HTTP/1.1\r\nHost: t\r\n\r\n");
        c.session->close();
        server.join();
        SSL_CTX_free(ctx);
        QCOMPARE(c.answers.answers, 1);
        QCOMPARE(c.answers.status, 0);
        QVERIFY2(c.answers.why.find("bad record MAC") != std::string::npos, c.answers.why.c_str());
    }

    // After a close_notify the connection is not reused: the next request opens another.
    void closeNotifyEndsTheConnection()
    {
        SSL_CTX* ctx = loopbacktest::serverContext(TLS1_3_VERSION);
        ServerLog log;
        std::thread server([&] { serve(m_net.fd, ctx, 2, "ok", {Then::CloseNotifyAfter}, log); });
        Client c;
        makeClient(c);
        const std::string get = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
        exchange(c, get);
        QCOMPARE(c.answers.status, 200);
        exchange(c, get);
        QCOMPARE(c.answers.why, std::string());
        QCOMPARE(c.answers.status, 200);
        c.session->close();
        server.join();
        SSL_CTX_free(ctx);
        QCOMPARE(c.answers.connections, 2);
    }

    // The key log costs a handshake about 18 us, which a connection of one
    // request never earns back: after a connection that carried one request,
    // the next does without (OpenSSL's records); after one that carried
    // more, the next has its own again.
    void oneRequestConnectionsDoWithout()
    {
        SSL_CTX* ctx = loopbacktest::serverContext(TLS1_3_VERSION);
        ServerLog log;
        std::thread server([&] { serve(m_net.fd, ctx, 4, "ok", {}, log); });
        Client c;
        makeClient(c);
        const std::string get = "GET / HTTP/1.1\r\nHost: t\r\n\r\n";
        std::vector<bool> owned;
        for (const int requests : {1, 2, 1, 1}) {
            for (int i = 0; i < requests; ++i) {
                exchange(c, get);
                QCOMPARE(c.answers.status, 200);
            }
            owned.push_back(c.session->ownsRecords());
            c.session->close();
        }
        server.join();
        SSL_CTX_free(ctx);
        QCOMPARE(owned, (std::vector<bool>{true, false, true, false}));
        QCOMPARE(c.answers.resumed, 3); // either way the session goes on
    }

    // The request builder's Send (one request on a connection of its own):
    // a body of 37 records out (more than the socket takes at once), an
    // answer of seven back, byte for byte.
    void sendThroughOwnRecords()
    {
        SSL_CTX* ctx = loopbacktest::serverContext(TLS1_3_VERSION);
        ServerLog log;
        const std::string body = randomBytes(100000);
        std::thread server([&] { serve(m_net.fd, ctx, 1, body, {}, log); });
        HttpExchangeRequest request;
        request.method = "POST";
        request.url = "https://" + m_net.endpoint.label + "/send";
        request.body = randomBytes(600000); // past a write's 256 KiB and the socket's buffer: writes wait for EPOLLOUT
        request.verify = false;
        request.timeout = 5 * kNanosPerSecond;
        const HttpExchangeResult result = stampede::exchange(request);
        server.join();
        SSL_CTX_free(ctx);
        QVERIFY2(result.ok, result.error.c_str());
        QCOMPARE(result.status, 200);
        QCOMPARE(result.body, body);
        QVERIFY(log.lastRequest.size() > request.body.size());
        QCOMPARE(log.lastRequest.substr(log.lastRequest.size() - request.body.size()), request.body);
    }

    // TLS 1.2, or the option off: OpenSSL's records, as before.
    void otherwiseOpenSslsRecords()
    {
        for (const bool tls12 : {true, false}) {
            SSL_CTX* ctx = loopbacktest::serverContext(tls12 ? TLS1_2_VERSION : TLS1_3_VERSION);
            ServerLog log;
            const std::string body = randomBytes(40000);
            std::thread server([&] { serve(m_net.fd, ctx, 1, body, {}, log); });
            Client c;
            makeClient(c, tls12);
            for (int i = 0; i < 2; ++i) {
                exchange(c, "GET / HTTP/1.1\r\nHost: t\r\n\r\n");
                QCOMPARE(c.answers.why, std::string());
                QCOMPARE(c.answers.bytesIn, answerBytes(body));
            }
            QVERIFY(!c.session->ownsRecords());
            c.session->close();
            server.join();
            SSL_CTX_free(ctx);
        }
    }
};

QTEST_GUILESS_MAIN(TestTlsRecords)
#include "tst_tlsrecords.moc"
