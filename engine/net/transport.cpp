#include "transport.h"

#include "tlsbio.h"
#include "tlsprobe.h"

#include "eventloop.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <netinet/tcp.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace stampede {

namespace {
// TLS records go through the same raw calls: OpenSSL's socket BIO reads and
// writes with glibc's read(2) and write(2), cancellation points both. The
// BIO's data is its TlsBioState; the BIO never closes the socket (the
// transport does). What OpenSSL asks of a socket BIO besides reads and
// writes: retry flags, the end of input (BIO_eof), and a flush that does nothing.
TlsBioState& bioState(BIO* b)
{
    return *static_cast<TlsBioState*>(BIO_get_data(b));
}
int bioFd(BIO* b)
{
    return bioState(b).fd;
}
int bioWrite(BIO* b, const char* data, int size)
{
    BIO_clear_retry_flags(b);
    if (TlsBioState& st = bioState(b); st.own) { // the transport seals the records now: never under OpenSSL's keys
        st.wroteAfterHandover = true;
        return size;
    } else if (st.holding || !st.held.empty()) {
        st.held.append(data, std::size_t(size));
        return size;
    }
    const ssize_t n = rawSend(bioFd(b), data, std::size_t(size));
    if (n >= 0)
        return int(n);
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        BIO_set_retry_write(b);
    return -1;
}
int bioRead(BIO* b, char* buffer, int size)
{
    BIO_clear_retry_flags(b);
    TlsBioState& st = bioState(b);
    if (st.own) { // only what the transport hands back
        if (st.feedAt < st.feed.size())
            return int(takeFrom(st.feed, st.feedAt, buffer, std::size_t(size)));
        BIO_set_retry_read(b);
        return -1;
    }
    if (st.inAt < st.in.size())
        return int(takeFrom(st.in, st.inAt, buffer, std::size_t(size)));
    // A large read (OpenSSL's read-ahead) goes straight to its buffer; a
    // small one (a record's header, without read-ahead) takes what the socket
    // has and keeps the rest.
    const bool direct = size >= 4096;
    char* to = direct ? buffer : reinterpret_cast<char*>(scratch());
    const ssize_t n = rawRecv(bioFd(b), to, direct ? std::size_t(size) : kScratch);
    if (n > 0) {
        if (direct)
            return int(n);
        st.in.assign(to, std::size_t(n));
        st.inAt = 0;
        return int(takeFrom(st.in, st.inAt, buffer, std::size_t(size)));
    }
    if (n == 0) {
        BIO_set_flags(b, BIO_FLAGS_IN_EOF);
        return 0;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK)
        BIO_set_retry_read(b);
    return -1;
}
long bioCtrl(BIO* b, int cmd, long, void* out)
{
    switch (cmd) {
    case BIO_CTRL_FLUSH:
        return 1;
    case BIO_CTRL_EOF:
        return BIO_test_flags(b, BIO_FLAGS_IN_EOF) != 0;
    case BIO_C_GET_FD: // BIO_get_fd(b, &fd), as the socket BIO answers it
        if (out)
            *static_cast<int*>(out) = bioFd(b);
        return bioFd(b);
    default:
        return 0;
    }
}
int bioCreate(BIO* b)
{
    BIO_set_init(b, 1);
    return 1;
}
int bioDestroy(BIO* b)
{
    delete static_cast<TlsBioState*>(BIO_get_data(b));
    BIO_set_data(b, nullptr);
    return 1;
}
const BIO_METHOD* rawSocketMethod()
{
    static BIO_METHOD* const method = [] {
        BIO_METHOD* m = BIO_meth_new(rawSocketType(), "stampede socket");
        if (m) {
            BIO_meth_set_write(m, bioWrite);
            BIO_meth_set_read(m, bioRead);
            BIO_meth_set_ctrl(m, bioCtrl);
            BIO_meth_set_create(m, bioCreate);
            BIO_meth_set_destroy(m, bioDestroy);
        }
        return m;
    }();
    return method;
}
// A BIO over the socket `fd` (null when OpenSSL could not make one); `state`, its data.
BIO* rawSocketBio(int fd, TlsBioState*& state)
{
    const BIO_METHOD* method = rawSocketMethod();
    BIO* b = method ? BIO_new(method) : nullptr;
    if (b) {
        state = new TlsBioState;
        state->fd = fd;
        BIO_set_data(b, state);
    }
    return b;
}
} // namespace

Transport::~Transport()
{
    closeTransport();
}

std::string Transport::alpn() const
{
    if (!m_ssl)
        return {};
    const unsigned char* p = nullptr;
    unsigned len = 0;
    SSL_get0_alpn_selected(m_ssl, &p, &len);
    return p ? std::string(reinterpret_cast<const char*>(p), len) : std::string();
}

bool Transport::pendingBytes() const
{
    if (!m_ssl)
        return false;
    if (m_records) { // plaintext not handed out, or a whole record read
        std::string why;
        const auto* in = reinterpret_cast<const unsigned char*>(m_bio->in.data());
        return m_plainAt < m_plain.size() ||
               TlsRecords::recordLength(in + m_bio->inAt, m_bio->in.size() - m_bio->inAt, why) != 0;
    }
    return SSL_has_pending(m_ssl) == 1 || m_bio->inAt < m_bio->in.size();
}

void Transport::watchWrites(bool on)
{
    m_wantsWrites = on;
    setWatch(on || holdsBytes());
}

bool Transport::writeQueued(const std::string& out, std::size_t& at, std::uint64_t& written, std::string& why)
{
    while (at < out.size()) {
        Io io;
        const std::size_t n = writeSome(out.data() + at, out.size() - at, io, why);
        if (io == Io::Done) {
            at += n;
            written += n;
            continue;
        }
        if (io == Io::Again) {
            watchWrites(true);
            return true;
        }
        return false;
    }
    watchWrites(false);
    return true;
}

void Transport::setWatch(bool on)
{
    if (m_fd < 0 || on == m_watchingWrites)
        return;
    m_watchingWrites = on;
    m_loop.watchWrites(m_fd, static_cast<PollTarget*>(this), on);
}

bool Transport::holdsBytes() const
{
    return m_bio && !m_bio->held.empty();
}

// Writes what the BIO holds; what the socket does not take waits for its
// EPOLLOUT edge. A failed send drops it: the socket's error comes to the
// read side as the connection's failure.
void Transport::flushHeld()
{
    m_bio->holding = false;
    std::string& held = m_bio->held;
    while (!held.empty()) {
        const ssize_t n = rawSend(m_fd, held.data(), held.size());
        if (n > 0) {
            held.erase(0, std::size_t(n));
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            setWatch(true);
            return;
        }
        held.clear();
    }
    setWatch(m_wantsWrites);
}

void Transport::closeTransport()
{
    if (m_ssl) {
        if (!m_handshaking)
            m_lastReused = m_writes > 1;
        m_writes = 0;
        if (!m_handshaking && SSL_is_init_finished(m_ssl) && m_endpoint->tls->resumes()) {
            // keep the session for the next connect; with TLS 1.3 its ticket came after the handshake
            if (SSL_SESSION* session = SSL_get1_session(m_ssl))
                m_tlsSession.reset(session);
            // Freed without a shutdown, OpenSSL would mark the session as not
            // to be resumed; this close is deliberate (no close_notify is sent).
            SSL_set_shutdown(m_ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
        }
        SSL_free(m_ssl); // and its BIO's state
        m_ssl = nullptr;
        m_bio = nullptr;
        m_records.reset();
        m_plain.clear();
        m_plainAt = 0;
        m_emptyRecords = 0;
        m_warnAlerts = 0;
        m_tlsFault = false;
        m_handshakeBytes.clear();
    }
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    m_connecting = false;
    m_handshaking = false;
    m_sentWithConnect = 0;
}

void Transport::failConnect(ErrorClass error, const std::string& why, Nanos now)
{
    closeTransport();
    onTransportFailure(error, why, now);
}

void Transport::setNoDelay()
{
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    m_noDelay = true;
}

void Transport::noDelayIfSplit(std::size_t written, std::size_t size)
{
    if (written < size && !m_noDelay)
        setNoDelay(); // the rest goes in a write of its own: Nagle would hold it back
}

void Transport::open(const Endpoint& endpoint, Nanos now, Nanos connectTimeout, std::string_view first)
{
    if (m_fd >= 0 && m_endpoint && !m_endpoint->sameAs(endpoint))
        closeTransport();
    m_endpoint = &endpoint;
    if (m_fd >= 0)
        return;
    ++m_opened;
    // Durations are read from the clock itself: a handshake on loopback may
    // finish within one call, where the event's time would say it took nothing.
    m_connectStart = SteadyClock::monotonicNow();
    m_connectDeadline = now + connectTimeout;
    m_watchingWrites = m_wantsWrites = true; // the connect completes as writable
    if (endpoint.length == 0) {
        failConnect(ErrorClass::Connect,
                    endpoint.unresolved.empty() ? "no address for " + endpoint.label : endpoint.unresolved, now);
        return;
    }
    m_fd = ::socket(endpoint.address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_fd < 0) {
        failConnect(ErrorClass::Connect, std::string("socket: ") + std::strerror(errno), now);
        return;
    }
    m_noDelay = false;
    if (!m_noDelayWhenSplit || endpoint.tls)
        setNoDelay();
    if (!m_loop.add(m_fd, static_cast<PollTarget*>(this))) {
        failConnect(ErrorClass::Connect, std::string("epoll_ctl: ") + std::strerror(errno), now);
        return;
    }
    const int rc = ::connect(m_fd, reinterpret_cast<const sockaddr*>(&endpoint.address), endpoint.length);
    if (rc == 0) {
        connected(now);
    } else if (errno == EINPROGRESS) {
        m_connecting = true;
        if (!first.empty() && !endpoint.tls)
            sendWithConnect(first, now);
    } else {
        failConnect(ErrorClass::Connect, "connect to " + endpoint.label + ": " + std::strerror(errno), now);
    }
}

// The first bytes, right after connect(). A send that takes them says the
// connection is up (on loopback it is by the time connect() returns): the
// request goes out without a turn of the loop for the connect's EPOLLOUT, and
// the server finds it as it accepts the connection (one wake-up of the
// server's, not two). EAGAIN: still connecting, the EPOLLOUT goes on as
// before. Any other error is the connect's: the send took the socket's
// error, which SO_ERROR would no longer tell.
void Transport::sendWithConnect(std::string_view first, Nanos now)
{
    const Nanos up = SteadyClock::monotonicNow(); // it was up before the send, if the send takes anything
    const ssize_t n = rawSend(m_fd, first.data(), first.size());
    if (n > 0) {
        m_sentWithConnect = std::size_t(n);
        noDelayIfSplit(std::size_t(n), first.size());
        connected(now, up);
    } else if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
        failConnect(ErrorClass::Connect, "connect to " + m_endpoint->label + ": " + std::strerror(errno), now);
    }
}

void Transport::connected(Nanos now, Nanos up)
{
    m_connecting = false;
    m_connectTime = (up ? up : SteadyClock::monotonicNow()) - m_connectStart;
    if (!m_endpoint->tls) {
        m_connectDeadline = 0;
        onReady(now, m_connectTime, 0, false, false);
        return;
    }
    // The key log (and with it the own records) for a connection likely to
    // carry more than one request: the first, and those after one that did.
    const bool keyLog = m_endpoint->tls->ownRecords() && (m_opened == 1 || m_lastReused);
    m_ssl = SSL_new(keyLog ? m_endpoint->tls->keyLogHandle() : m_endpoint->tls->handle());
    BIO* bio = m_ssl ? rawSocketBio(m_fd, m_bio) : nullptr;
    if (!bio) {
        failConnect(ErrorClass::Tls, tlsErrorText("cannot start TLS"), now);
        return;
    }
    SSL_set_bio(m_ssl, bio, bio); // one reference, for both directions
    if (m_keepTlsBuffers)
        SSL_clear_mode(m_ssl, SSL_MODE_RELEASE_BUFFERS);
    if (keyLog)
        SSL_set_read_ahead(m_ssl, 0); // the handshake's end is where the own records begin (startOwnRecords)
    const std::string& name = m_endpoint->serverName;
    in6_addr probe{};
    const bool ipLiteral =
        inet_pton(AF_INET, name.c_str(), &probe) == 1 || inet_pton(AF_INET6, name.c_str(), &probe) == 1;
    if (!name.empty() && !ipLiteral)
        SSL_set_tlsext_host_name(m_ssl, name.c_str());
    if (m_endpoint->tls->verifies() && !name.empty()) {
        if (ipLiteral)
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(m_ssl), name.c_str());
        else
            SSL_set1_host(m_ssl, name.c_str());
    }
    if (m_tlsSession)
        SSL_set_session(m_ssl, m_tlsSession.get());
    m_handshaking = true;
    m_handshakeStart = SteadyClock::monotonicNow();
    continueHandshake(now);
}

void Transport::continueHandshake(Nanos now)
{
    ERR_clear_error();
    m_bio->holding = true;
    const int rc = SSL_connect(m_ssl);
    if (rc == 1) {
        // The client's last flight waits for the first request: one write,
        // one segment, one wake-up of the server for both.
        m_handshaking = false;
        m_connectDeadline = 0;
        startOwnRecords();
        const std::uint32_t opened = m_opened;
        onReady(now, m_connectTime, SteadyClock::monotonicNow() - m_handshakeStart, true,
                SSL_session_reused(m_ssl) == 1);
        if (m_fd >= 0 && opened == m_opened && m_bio)
            flushHeld();
        return;
    }
    flushHeld(); // a flight the server answers (or an alert): now
    const int err = SSL_get_error(m_ssl, rc);
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE)
        return; // the next edge goes on
    std::string why;
    const long verify = SSL_get_verify_result(m_ssl);
    const std::string& name = m_endpoint->serverName.empty() ? m_endpoint->label : m_endpoint->serverName;
    if (verify != X509_V_OK)
        why = "certificate of " + name + " not accepted: " + certificateProblem(verify, name);
    else if (err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0)
        why = "the server closed the connection during the TLS handshake";
    else if (ERR_GET_REASON(ERR_peek_error()) == SSL_R_TLSV1_ALERT_NO_APPLICATION_PROTOCOL)
        why =
            (ERR_clear_error(), "no protocol in common by ALPN: the server does not offer the HTTP version asked for");
    else
        why = tlsErrorText("TLS handshake failed");
    ERR_clear_error();    // what was not read for the reason (readSome relies on an empty queue)
    m_tlsSession.reset(); // the session may have been the trouble: start afresh next time
    failConnect(ErrorClass::Tls, "TLS with " + m_endpoint->label + ": " + why, now);
}

bool Transport::checkConnectDeadline(Nanos now)
{
    if (!m_connectDeadline || now < m_connectDeadline || m_fd < 0)
        return false;
    if (m_connecting) {
        failConnect(ErrorClass::Connect, "connect to " + m_endpoint->label + " timed out", now);
        return true;
    }
    if (m_handshaking) {
        failConnect(ErrorClass::Tls, "TLS with " + m_endpoint->label + ": no handshake within the connect timeout",
                    now);
        return true;
    }
    return false;
}

void Transport::onEvents(std::uint32_t events, Nanos now)
{
    if (m_fd < 0)
        return;
    if (m_connecting) {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
            return;
        // A failed connect comes with EPOLLERR (and EPOLLHUP): only then is
        // its error asked for (a system call per connection saved).
        int err = 0;
        socklen_t len = sizeof err;
        if (events & (EPOLLERR | EPOLLHUP))
            ::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err) {
            failConnect(ErrorClass::Connect, "connect to " + m_endpoint->label + ": " + std::strerror(err), now);
            return;
        }
        connected(now);
        return;
    }
    if (m_handshaking) {
        continueHandshake(now);
        return;
    }
    if (events & EPOLLOUT) {
        if (holdsBytes())
            flushHeld();
        const std::uint32_t opened = m_opened;
        onWritable(now);
        if (m_fd < 0 || opened != m_opened)
            return; // closed, or another connection now: these events were the old one's
    }
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        onReadable(now, events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR));
}

std::size_t Transport::readSome(char* buffer, std::size_t size, Io& io, std::string& why)
{
    if (m_records)
        return readOwn(buffer, size, io, why);
    if (m_ssl) {
        // The error queue is empty here: every call that leaves errors in it
        // is followed by tlsErrorText or ERR_clear_error (one clear per read
        // was 1.2 % of a worker's CPU).
        errno = 0;
        const int n = SSL_read(m_ssl, buffer, int(size));
        if (n > 0) {
            io = Io::Done;
            return std::size_t(n);
        }
        const int err = SSL_get_error(m_ssl, n);
        if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE) {
            io = Io::Again;
        } else if (err == SSL_ERROR_ZERO_RETURN || (err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 && errno == 0)) {
            io = Io::Closed;
        } else {
            io = Io::Error;
            // the records', not the socket's (a FIN without close_notify is the socket's: a server's idle close)
            m_tlsFault = err == SSL_ERROR_SSL && ERR_GET_REASON(ERR_peek_error()) != SSL_R_UNEXPECTED_EOF_WHILE_READING;
            why = tlsErrorText(std::string("TLS read: ") + std::strerror(errno));
        }
        return 0;
    }
    const ssize_t n = rawRecv(m_fd, buffer, size);
    if (n > 0) {
        io = Io::Done;
        return std::size_t(n);
    }
    if (n == 0) {
        io = Io::Closed;
        return 0;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK) {
        io = Io::Again;
    } else {
        io = Io::Error;
        why = std::string("recv: ") + std::strerror(errno);
    }
    return 0;
}

std::size_t Transport::writeSome(const char* data, std::size_t size, Io& io, std::string& why)
{
    m_writes += m_ssl != nullptr;
    if (m_records)
        return writeOwn(data, size, io, why);
    if (m_ssl) {
        errno = 0; // the error queue is empty (readSome)
        const int n = SSL_write(m_ssl, data, int(std::min<std::size_t>(size, 1 << 30)));
        if (n > 0) {
            io = Io::Done;
            return std::size_t(n);
        }
        const int err = SSL_get_error(m_ssl, n);
        if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ) {
            io = Io::Again;
        } else {
            io = Io::Error;
            why = tlsErrorText(std::string("TLS write: ") + std::strerror(errno));
        }
        return 0;
    }
    const ssize_t n = rawSend(m_fd, data, size);
    if (n > 0) {
        noDelayIfSplit(std::size_t(n), size);
        io = Io::Done;
        return std::size_t(n);
    }
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
        io = Io::Again;
    } else {
        io = Io::Error;
        why = std::string("send: ") + std::strerror(errno);
    }
    return 0;
}

std::string probeAlpn(const Endpoint& endpoint, Nanos timeout, std::string& error)
{
    if (!endpoint.tls)
        return {};
    const TlsThreadStateRelease release;
    std::string why;
    const int fd = connectBlocking(endpoint, timeout, why);
    if (fd < 0) {
        error = "connect to " + endpoint.label + ": " + why;
        return {};
    }
    std::string out;
    SSL* ssl = SSL_new(endpoint.tls->handle());
    SSL_set_fd(ssl, fd);
    in6_addr probe{};
    const std::string& name = endpoint.serverName;
    if (!name.empty() && inet_pton(AF_INET, name.c_str(), &probe) != 1 &&
        inet_pton(AF_INET6, name.c_str(), &probe) != 1)
        SSL_set_tlsext_host_name(ssl, name.c_str());
    ERR_clear_error();
    // verification is left to the run, which reports it per request; this only asks
    SSL_set_verify(ssl, SSL_VERIFY_NONE, nullptr);
    if (SSL_connect(ssl) == 1) {
        const unsigned char* p = nullptr;
        unsigned len = 0;
        SSL_get0_alpn_selected(ssl, &p, &len);
        if (p)
            out.assign(reinterpret_cast<const char*>(p), len);
        SSL_shutdown(ssl);
    } else {
        error = "TLS with " + endpoint.label + ": " + tlsErrorText("handshake failed");
    }
    SSL_free(ssl);
    ::close(fd);
    return out;
}

} // namespace stampede
