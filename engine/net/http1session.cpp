#include "http1session.h"

#include "eventloop.h"

#include <cerrno>
#include <cstring>
#include <netinet/tcp.h>
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
        flushWrite(now);
    } else if (errno == EINPROGRESS) {
        m_connecting = true;
    } else {
        fail(ErrorClass::Connect, "connect to " + m_endpoint->label + ": " + std::strerror(errno), now);
    }
}

void Http1Session::flushWrite(Nanos now)
{
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
        m_connectDeadline = 0;
        if (m_busy)
            flushWrite(now);
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
        const ssize_t n = ::recv(m_fd, m_readBuffer, m_readBufferSize, 0);
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
        if (std::size_t(n) < m_readBufferSize && !peerClosed)
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
    if (now >= m_deadline)
        fail(ErrorClass::Timeout, "no complete response within " + std::to_string(m_timeout / kNanosPerMilli) + " ms",
             now);
}

} // namespace stampede
