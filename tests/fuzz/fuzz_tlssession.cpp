// libFuzzer target: a TLS 1.3 server driven by the input, on loopback, against
// a real Http1Session over TLS, on the engine's own record layer or OpenSSL's
// (the input's first byte says). The server is OpenSSL: after a real
// handshake every record it writes authenticates, so the fuzzer reaches what
// lies past the integrity check (answers split over records of any padding,
// key updates asked for or not, tickets between records, close_notify, a FIN,
// bytes that do not authenticate in between). The listener must hear of each
// request exactly once and only while it is outstanding; AddressSanitizer
// watches the buffers.
#include "../engine/tlstestserver.h"
#include "loopbackpeer.h"
#include "net/endpoint.h"
#include "net/eventloop.h"
#include "net/http1session.h"
#include "net/tlscontext.h"

#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <utility>
#include <vector>

using namespace stampede;

namespace {

using fuzzpeer::listener;

const std::string kGet = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";

// The server's context: a P-256 key and a certificate made once, no tickets
// unless the input asks, padding as the input last said.
std::size_t g_padding = 0;
std::size_t padding(SSL*, int, std::size_t, void*)
{
    return g_padding;
}
SSL_CTX* serverContext()
{
    static SSL_CTX* const ctx = [] {
        ::signal(SIGPIPE, SIG_IGN); // the server's SSL_write to a client that closed (the engine ignores it too)
        SSL_CTX* c = loopbacktest::serverContext(TLS1_3_VERSION);
        SSL_CTX_set_min_proto_version(c, TLS1_3_VERSION);
        SSL_CTX_set_num_tickets(c, 0);
        SSL_CTX_set_session_cache_mode(c, SSL_SESS_CACHE_OFF); // a fuzz run makes millions of sessions
        SSL_CTX_set_record_padding_callback(c, padding);
        return c;
    }();
    return ctx;
}

const Endpoint& endpoint(bool own)
{
    static const auto make = [](bool ownRecords) {
        Endpoint e = fuzzpeer::endpoint();
        TlsOptions o;
        o.verify = false;
        o.ownRecords = ownRecords;
        std::string why;
        e.tls = TlsContext::create(o, why);
        return e;
    };
    static const Endpoint withOwn = make(true), withOpenSsl = make(false);
    return own ? withOwn : withOpenSsl;
}

struct Listener final : SessionListener
{
    Http1Session* session = nullptr;
    const Endpoint* target = nullptr;
    bool outstanding = false;
    int submitted = 0;
    int toSubmit = 0;
    std::vector<std::pair<int, int>> outcomes; // (status, error class + 1000 when it failed), in order
    void next(Nanos now)
    {
        if (submitted >= toSubmit)
            return;
        ++submitted;
        outstanding = true;
        session->submit(*target, kGet.data(), kGet.size(), false, now, 200 * kNanosPerMilli, 200 * kNanosPerMilli);
    }
    void onAnswer(std::uint32_t, const Answer& a, Nanos now) override
    {
        if (!outstanding)
            __builtin_trap(); // an outcome for a request nobody is waiting for
        if (!a.failed && (a.status < 100 || a.status > 599))
            __builtin_trap();
        outstanding = false;
        outcomes.emplace_back(a.status, a.failed ? 1000 + int(a.error) : 0);
        next(now); // as the worker does: the next request from inside the outcome
    }
    void onStray(std::uint32_t, std::string_view bytes, Nanos) override
    {
        if (bytes.empty() || bytes.size() > 1024)
            __builtin_trap();
    }
};

// One accepted connection: OpenSSL's handshake, then the input's operations.
struct Server
{
    int fd = -1;
    SSL* ssl = nullptr;
    bool ready = false;
    bool done = false; // a FIN or close_notify went: nothing more is written
    int requests = 0;  // requests read (their heads' ends)
    int awaited = 0;   // operations wait until this many requests came (the wait operations so far)
    explicit Server(int accepted) : fd(accepted), ssl(SSL_new(serverContext()))
    {
        const int one = 1; // each write goes at once: Nagle would hold a small one back for the client's ACK
        ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        SSL_set_fd(ssl, fd);
    }
    ~Server()
    {
        SSL_free(ssl);
        ::close(fd);
    }
    // Reads what the client sent (its requests, its KeyUpdate) and drives the handshake.
    void pump()
    {
        if (!ready) {
            ready = SSL_accept(ssl) == 1;
            ERR_clear_error();
            return;
        }
        char in[4096];
        for (int n; (n = SSL_read(ssl, in, sizeof in)) > 0;)
            for (int i = 0; i + 3 < n; ++i) // a request's head comes whole: it is small, written at once
                requests += std::memcmp(in + i, "\r\n\r\n", 4) == 0;
        ERR_clear_error();
    }
    // Whether the next operation waits for a request.
    bool waiting() const { return requests < awaited; }
    // Applies one operation from `in`; the bytes it took.
    std::size_t apply(const std::uint8_t* in, std::size_t left)
    {
        const std::uint8_t op = in[0] % 9;
        const std::size_t arg = left > 1 ? in[1] : 0;
        switch (op) {
        case 0: { // an answer's bytes, through SSL_write: records of the padding last set
            const std::size_t n = std::min(left - 1, 1 + arg);
            if (n > 1)
                SSL_write(ssl, in + 2, int(n - 1));
            ERR_clear_error();
            return 1 + n;
        }
        case 1:
            g_padding = arg * 64;
            return 2;
        case 2:
        case 3:
            SSL_key_update(ssl, op == 3 ? SSL_KEY_UPDATE_REQUESTED : SSL_KEY_UPDATE_NOT_REQUESTED);
            SSL_do_handshake(ssl);
            ERR_clear_error();
            return 1;
        case 4:
            SSL_new_session_ticket(ssl);
            SSL_do_handshake(ssl);
            ERR_clear_error();
            return 1;
        case 5: { // bytes past the TLS layer, on the socket: they do not authenticate
            const std::size_t n = std::min(left - 1, 1 + arg % 32);
            [[maybe_unused]] const auto sent = ::send(fd, in + 1, n, MSG_NOSIGNAL | MSG_DONTWAIT);
            return 1 + n;
        }
        case 6:
            SSL_shutdown(ssl);
            ERR_clear_error();
            done = true;
            return 1;
        case 8: // the next operations wait for one request more on this connection
            ++awaited;
            return 1;
        default:
            ::shutdown(fd, SHUT_WR);
            done = true;
            return 1;
        }
    }
};

// The outcomes of one run of the input, on the own records or OpenSSL's.
std::vector<std::pair<int, int>> run(const std::uint8_t* data, std::size_t size, bool own)
{
    EventLoop loop;
    std::vector<char> buffer(64 + data[1] % 128 * 64); // small reads split answers further
    Listener l;
    l.target = &endpoint(own);
    l.toSubmit = 1 + data[0] / 2 % 4;
    g_padding = 0;
    Http1Session session(loop, l, buffer.data(), buffer.size());
    l.session = &session;
    Nanos now = SteadyClock::monotonicNow();
    l.next(now);
    std::unique_ptr<Server> server;
    const std::uint8_t* in = data + 2;
    std::size_t left = size - 2;
    // loopback delivers at once: each turn polls without waiting
    for (std::size_t turn = 0; turn < 256 + size && (left || l.outstanding); ++turn) {
        // the session may have opened a new connection (after a close or a retry)
        const int c = ::accept4(listener(), nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (c >= 0)
            server = std::make_unique<Server>(c);
        if (server) {
            server->pump();
            if (server->ready && !server->done && left && !server->waiting()) {
                const std::size_t used = server->apply(in, left);
                in += used;
                left -= std::min(used, left);
            } else if (server->ready && !server->done && (!left || (server->waiting() && !l.outstanding))) {
                server->apply(reinterpret_cast<const std::uint8_t*>("\x07"),
                              1); // the input's end, or no request to come: a FIN
            }
        }
        const int events = loop.wait(0);
        now = SteadyClock::monotonicNow();
        dispatchEvents(loop, events, now);
        session.checkDeadline(now);
    }
    session.close();
    server.reset();
    // connections the session opened that were never accepted
    for (int c; (c = ::accept4(listener(), nullptr, nullptr, SOCK_CLOEXEC)) >= 0;)
        ::close(c);
    return l.outcomes;
}

} // namespace

// The same server operations against both record layers: the same outcomes,
// in the same order (the own records' one known difference, padding past
// 2^14 + 1 bytes, cannot come from OpenSSL's server, which caps it).
extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    if (run(data, size, true) != run(data, size, false))
        __builtin_trap();
    return 0;
}
