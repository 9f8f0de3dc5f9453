#include "http1session.h"

#include "eventloop.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/tcp.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stampede {

namespace {
constexpr std::size_t kErrorSampleLimit = 8 * 1024;
}

Http1Session::Http1Session(EventLoop& loop, SessionListener& listener, char* readBuffer, std::size_t readBufferSize)
    : m_loop(loop), m_listener(listener), m_readBuffer(readBuffer), m_readBufferSize(readBufferSize)
{
}

Http1Session::~Http1Session()
{
    close();
}

void Http1Session::close()
{
    if (m_ssl) {
        // keep the session for the next connect; with TLS 1.3 its ticket came after the handshake
        if (!m_handshaking && SSL_is_init_finished(m_ssl)) {
            if (SSL_SESSION* session = SSL_get1_session(m_ssl))
                m_tlsSession.reset(session);
            // Freed without a shutdown, OpenSSL would mark the session as not
            // to be resumed; this close is deliberate (no close_notify is sent).
            SSL_set_shutdown(m_ssl, SSL_SENT_SHUTDOWN | SSL_RECEIVED_SHUTDOWN);
        }
        SSL_free(m_ssl);
        m_ssl = nullptr;
        m_handshaking = false;
    }
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    m_connecting = false;
}

void Http1Session::fail(ErrorClass error, const std::string& why, Nanos now)
{
    close();
    m_busy = false;
    m_listener.onFailure(*this, error, why, now);
}

void Http1Session::submit(const Endpoint& endpoint, const char* data, std::size_t size, bool noBody, Nanos now,
                          Nanos timeout, Nanos connectTimeout)
{
    m_busy = true;
    m_noBody = noBody;
    m_out = data;
    m_outLeft = size;
    m_bytesIn = 0;
    m_timeout = timeout;
    m_deadline = now + timeout;
    m_parser.reset(noBody);
    if (m_fd >= 0 && m_endpoint && !m_endpoint->sameAs(endpoint))
        close();
    m_endpoint = &endpoint;
    if (m_fd < 0) {
        m_connectDeadline = now + connectTimeout;
        startConnect(now);
        return;
    }
    if (!m_connecting)
        flushWrite(now);
}

void Http1Session::startConnect(Nanos now)
{
    m_connectStart = now;
    m_fd = ::socket(m_endpoint->address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (m_fd < 0) {
        fail(ErrorClass::Connect, std::string("socket: ") + std::strerror(errno), now);
        return;
    }
    const int one = 1;
    ::setsockopt(m_fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (!m_loop.add(m_fd, this)) {
        fail(ErrorClass::Connect, std::string("epoll_ctl: ") + std::strerror(errno), now);
        return;
    }
    const int rc = ::connect(m_fd, reinterpret_cast<const sockaddr*>(&m_endpoint->address), m_endpoint->length);
    if (rc == 0) {
        m_connecting = false;
        connected(now);
    } else if (errno == EINPROGRESS) {
        m_connecting = true;
    } else {
        fail(ErrorClass::Connect, "connect to " + m_endpoint->label + ": " + std::strerror(errno), now);
    }
}

void Http1Session::connected(Nanos now)
{
    m_connectTime = now - m_connectStart;
    if (!m_endpoint->tls) {
        m_connectDeadline = 0;
        m_listener.onConnected(*this, m_connectTime, 0, false, false);
        if (m_busy && m_fd >= 0)
            flushWrite(now);
        return;
    }
    m_ssl = SSL_new(m_endpoint->tls->handle());
    if (!m_ssl || SSL_set_fd(m_ssl, m_fd) != 1) {
        fail(ErrorClass::Tls, tlsErrorText("cannot start TLS"), now);
        return;
    }
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
    m_handshakeStart = now;
    continueHandshake(now);
}

void Http1Session::continueHandshake(Nanos now)
{
    ERR_clear_error();
    const int rc = SSL_connect(m_ssl);
    if (rc == 1) {
        m_handshaking = false;
        m_connectDeadline = 0;
        m_listener.onConnected(*this, m_connectTime, now - m_handshakeStart, true, SSL_session_reused(m_ssl) == 1);
        if (m_busy && m_fd >= 0)
            flushWrite(now);
        return;
    }
    const int err = SSL_get_error(m_ssl, rc);
    if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE)
        return; // the next edge goes on
    std::string why;
    const long verify = SSL_get_verify_result(m_ssl);
    if (verify != X509_V_OK)
        why = "certificate of " + (m_endpoint->serverName.empty() ? m_endpoint->label : m_endpoint->serverName) +
              " not accepted: " + X509_verify_cert_error_string(verify);
    else if (err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0)
        why = "the server closed the connection during the TLS handshake";
    else
        why = tlsErrorText("TLS handshake failed");
    // the session may have been the trouble: start afresh next time
    m_tlsSession.reset();
    fail(ErrorClass::Tls, "TLS with " + m_endpoint->label + ": " + why, now);
}

void Http1Session::flushWrite(Nanos now)
{
    if (m_ssl) {
        while (m_outLeft) {
            ERR_clear_error();
            const int n = SSL_write(m_ssl, m_out, int(std::min<std::size_t>(m_outLeft, 1 << 30)));
            if (n > 0) {
                m_out += n;
                m_outLeft -= std::size_t(n);
                continue;
            }
            const int err = SSL_get_error(m_ssl, n);
            if (err == SSL_ERROR_WANT_WRITE || err == SSL_ERROR_WANT_READ)
                return;
            fail(ErrorClass::Reset, tlsErrorText(std::string("TLS write: ") + std::strerror(errno)), now);
            return;
        }
        return;
    }
    while (m_outLeft) {
        const ssize_t n = ::send(m_fd, m_out, m_outLeft, MSG_NOSIGNAL);
        if (n > 0) {
            m_out += n;
            m_outLeft -= std::size_t(n);
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return; // the edge-triggered EPOLLOUT tells when to go on
        fail(ErrorClass::Reset, std::string("send: ") + std::strerror(errno), now);
        return;
    }
}

void Http1Session::onEvents(std::uint32_t events, Nanos now)
{
    if (m_fd < 0)
        return;
    if (m_connecting) {
        if (!(events & (EPOLLOUT | EPOLLERR | EPOLLHUP)))
            return;
        int err = 0;
        socklen_t len = sizeof err;
        ::getsockopt(m_fd, SOL_SOCKET, SO_ERROR, &err, &len);
        if (err) {
            fail(ErrorClass::Connect, "connect to " + m_endpoint->label + ": " + std::strerror(err), now);
            return;
        }
        m_connecting = false;
        connected(now);
        return;
    }
    if (m_handshaking) {
        continueHandshake(now);
        return;
    }
    if ((events & EPOLLOUT) && m_busy && m_outLeft) {
        flushWrite(now);
        if (m_fd < 0)
            return;
    }
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR))
        readResponse(now, events & (EPOLLRDHUP | EPOLLHUP | EPOLLERR));
}

void Http1Session::readResponse(Nanos now, bool peerClosed)
{
    for (;;) {
        ssize_t n;
        if (m_ssl) {
            ERR_clear_error();
            n = SSL_read(m_ssl, m_readBuffer, int(m_readBufferSize));
            if (n <= 0) {
                const int err = SSL_get_error(m_ssl, int(n));
                if (err == SSL_ERROR_WANT_READ || err == SSL_ERROR_WANT_WRITE)
                    return;
                if (err == SSL_ERROR_ZERO_RETURN || (err == SSL_ERROR_SYSCALL && ERR_peek_error() == 0 && errno == 0)) {
                    n = 0; // closed by the peer
                } else {
                    if (!m_busy) {
                        close();
                        return;
                    }
                    fail(ErrorClass::Reset, tlsErrorText(std::string("TLS read: ") + std::strerror(errno)), now);
                    return;
                }
            }
        } else {
            n = ::recv(m_fd, m_readBuffer, m_readBufferSize, 0);
        }
        if (n < 0) {
            if (errno == EINTR)
                continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK)
                return;
            if (!m_busy) {
                close();
                return;
            }
            fail(ErrorClass::Reset, std::string("recv: ") + std::strerror(errno), now);
            return;
        }
        if (n == 0) {
            if (!m_busy) {
                close(); // an idle keep-alive connection the server let go
                return;
            }
            if (m_parser.finish() == Http1ResponseParser::Result::Complete) {
                const int status = m_parser.status();
                close();
                m_busy = false;
                m_listener.onResponse(*this, status, m_bytesIn, now);
            } else {
                fail(ErrorClass::Reset, m_parser.error(), now);
            }
            return;
        }
        if (!m_busy) {
            fail(ErrorClass::Protocol, "data from the server while no request was waiting", now);
            return;
        }
        const bool first = m_bytesIn == 0;
        m_bytesIn += std::uint64_t(n);
        std::size_t consumed = 0;
        const auto r = m_parser.feed(m_readBuffer, std::size_t(n), consumed);
        if (first && m_parser.status() >= 400) // one compare per response; a copy only for errors
            m_errorSample.assign(m_readBuffer, std::min<std::size_t>(std::size_t(n), kErrorSampleLimit));
        if (r == Http1ResponseParser::Result::Error) {
            fail(ErrorClass::Protocol, m_parser.error(), now);
            return;
        }
        if (r == Http1ResponseParser::Result::Complete) {
            if (consumed != std::size_t(n)) {
                fail(ErrorClass::Protocol, "more data than the response framing allows", now);
                return;
            }
            const int status = m_parser.status();
            if (!m_parser.keepAlive())
                close();
            m_busy = false;
            // The listener may submit the next request on this session right away.
            m_listener.onResponse(*this, status, m_bytesIn, now);
            return;
        }
        // A short read drained the socket: TCP gives all it has up to the
        // buffer size. But a close or reset that came with this edge is not
        // reported by that read, and no later edge will report it.
        // (A TLS read returns one record at a time: read on until it wants more.)
        if (!m_ssl && std::size_t(n) < m_readBufferSize && !peerClosed)
            return;
    }
}

void Http1Session::checkDeadline(Nanos now)
{
    if (!m_busy)
        return;
    if (m_connecting && m_connectDeadline && now >= m_connectDeadline && now < m_deadline) {
        fail(ErrorClass::Connect, "connect to " + m_endpoint->label + " timed out", now);
        return;
    }
    if (m_handshaking && m_connectDeadline && now >= m_connectDeadline && now < m_deadline) {
        fail(ErrorClass::Tls, "TLS with " + m_endpoint->label + ": no handshake within the connect timeout", now);
        return;
    }
    if (now >= m_deadline)
        fail(ErrorClass::Timeout, "no complete response within " + std::to_string(m_timeout / kNanosPerMilli) + " ms",
             now);
}

} // namespace stampede
