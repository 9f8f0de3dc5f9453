#include "http1session.h"

#include <algorithm>

namespace stampede {

namespace {
constexpr std::size_t kErrorSampleLimit = 8 * 1024;
constexpr std::size_t kStraySampleLimit = 1024;

// RFC 9110 9.2.2: methods whose request may be sent again without a
// different effect (what a connection's close cannot tell apart).
bool idempotent(std::string_view request)
{
    const std::string_view method = request.substr(0, request.find(' '));
    return method == "GET" || method == "HEAD" || method == "PUT" || method == "DELETE" || method == "OPTIONS" ||
           method == "TRACE";
}
} // namespace

Http1Session::Http1Session(EventLoop& loop, SessionListener& listener, char* readBuffer, std::size_t readBufferSize)
    : Transport(loop), m_listener(listener), m_readBuffer(readBuffer), m_readBufferSize(readBufferSize)
{
    noDelayWhenSplit(true);
}

void Http1Session::fail(ErrorClass error, const std::string& why, Nanos now)
{
    closeTransport();
    if (!m_busy)
        return; // nothing was asked: no request's outcome to report
    m_busy = false;
    m_listener.onAnswer(tag, Answer::failure(error, why), now);
}

void Http1Session::onTransportFailure(ErrorClass error, const std::string& why, Nanos now)
{
    if (!m_busy)
        return;
    m_busy = false;
    m_listener.onAnswer(tag, Answer::failure(error, why), now);
}

void Http1Session::submit(const Endpoint& endpoint, const char* data, std::size_t size, bool noBody, Nanos now,
                          Nanos timeout, Nanos connectTimeout, bool deferWrite, CaptureMode capture)
{
    m_capturing = capture != CaptureMode::None;
    m_capture.bodyLimit = capture == CaptureMode::All ? kCaptureBodyLimit : 0;
    m_parser.setCapture(m_capturing ? &m_capture : nullptr);
    m_busy = true;
    m_retried = false;
    m_noBody = noBody;
    m_connectTimeout = connectTimeout;
    m_request = data;
    m_requestSize = size;
    m_out = data;
    m_outLeft = size;
    m_bytesIn = 0;
    m_written = 0;
    m_timeout = timeout;
    m_deadline = now + timeout;
    m_parser.reset(noBody);
    if (isOpen() && endpoint.sameAs(*Transport::endpoint())) {
        // open and idle: it answered the request before this one in full
        m_reused = true;
        if (ready() && !deferWrite)
            flushWrite(now);
        return;
    }
    m_reused = false;
    // a different endpoint closes the old connection first; the request goes with the connect if it can
    open(endpoint, now, connectTimeout, std::string_view(m_out, m_outLeft));
}

bool Http1Session::retryOnFreshConnection(Nanos now)
{
    const bool unsent = m_outLeft == m_requestSize;
    if (!m_busy || m_bytesIn || !m_reused || m_retried ||
        !(unsent || idempotent(std::string_view(m_request, m_requestSize))))
        return false;
    closeTransport();
    m_retried = true;
    m_reused = false;
    m_out = m_request;
    m_outLeft = m_requestSize;
    m_parser.reset(m_noBody);
    if (!unsent) // it went out: a request sent twice is counted, so nothing is hidden
        m_listener.onRetry(tag, now);
    open(*Transport::endpoint(), now, m_connectTimeout, std::string_view(m_out, m_outLeft));
    return true;
}

void Http1Session::onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed)
{
    m_listener.onConnected(tag, connect, handshake, tls, resumed);
    if (const std::size_t sent = takeSentWithConnect(); sent && m_busy) {
        m_written = now; // went out with the connect
        m_out += sent;
        m_outLeft -= sent;
    }
    if (m_busy && isOpen())
        flushWrite(now);
}

void Http1Session::onWritable(Nanos now)
{
    if (m_busy && m_outLeft)
        flushWrite(now);
}

void Http1Session::flushWrite(Nanos now)
{
    if (m_outLeft == m_requestSize)
        m_written = now; // connected (and through the handshake): the request goes out now
    while (m_outLeft) {
        Io io;
        std::string why;
        const std::size_t n = writeSome(m_out, m_outLeft, io, why);
        if (io == Io::Done) {
            m_out += n;
            m_outLeft -= n;
            continue;
        }
        if (io == Io::Again)
            return; // the edge-triggered EPOLLOUT tells when to go on
        if (!retryOnFreshConnection(now))
            fail(ErrorClass::Reset, why, now);
        return;
    }
}

void Http1Session::stray(std::string_view bytes, Nanos now)
{
    closeTransport();
    m_listener.onStray(tag, bytes.substr(0, kStraySampleLimit), now);
}

// The answer is whole: `consumed` of the `n` bytes just read were its last.
void Http1Session::complete(std::size_t consumed, std::size_t n, bool peerClosed, Nanos now)
{
    const int status = m_parser.status();
    // Bytes past the answer's framing were asked for by nobody; an answer
    // that came before the request was written in full leaves the rest of
    // the request unsent: neither connection can carry the next request.
    std::string extra;
    if (consumed != n) {
        extra.assign(m_readBuffer + consumed, std::min(n - consumed, kStraySampleLimit));
    } else if (pendingBytes()) { // TLS: records past the answer were read from the socket already
        Io io;
        std::string why;
        const std::size_t more = readSome(m_readBuffer, m_readBufferSize, io, why);
        if (io == Io::Done)
            extra.assign(m_readBuffer, std::min(more, kStraySampleLimit));
        else if (io != Io::Again)
            peerClosed = true; // a close_notify (or a fault) came after the answer
    }
    // A FIN or reset that came with the answer (EPOLLRDHUP in this edge, and
    // no later edge will tell): the connection is not reused.
    if (!m_parser.keepAlive() || m_outLeft || !extra.empty() || peerClosed)
        closeTransport();
    m_busy = false;
    Answer a;
    a.setHttpStatus(status);
    a.bytesIn = m_bytesIn;
    a.timeToFirstByte = m_written ? std::max<Nanos>(0, m_firstByte - m_written) : -1;
    a.errorSample = m_errorSample;
    if (m_capturing) {
        a.headers = &m_capture.headers;
        a.trailers = &m_capture.trailers;
        a.body = &m_capture.body;
    }
    // The listener may submit the next request on this session right away
    // (the capture and the sample are not touched until its next answer).
    m_listener.onAnswer(tag, a, now);
    if (!extra.empty())
        m_listener.onStray(tag, extra, now);
}

void Http1Session::onReadable(Nanos now, bool peerClosed)
{
    for (;;) {
        Io io;
        std::string why;
        const std::size_t n = readSome(m_readBuffer, m_readBufferSize, io, why);
        if (io == Io::Again)
            return;
        if (io == Io::Error || io == Io::Closed) {
            if (!m_busy) {
                closeTransport(); // an idle keep-alive connection the server let go
                return;
            }
            if (io == Io::Error && tlsFault()) { // a record that does not authenticate, an alert: not an idle close
                fail(ErrorClass::Tls, why, now);
                return;
            }
            if (retryOnFreshConnection(now))
                return;
            if (io == Io::Error) {
                fail(ErrorClass::Reset, why, now);
            } else if (m_parser.finish() == Http1ResponseParser::Result::Complete) {
                closeTransport(); // a body framed by the close
                complete(0, 0, true, now);
            } else {
                fail(ErrorClass::Reset, m_parser.error(), now);
            }
            return;
        }
        if (!m_busy) {
            stray(std::string_view(m_readBuffer, n), now);
            return;
        }
        const bool first = m_bytesIn == 0;
        if (first)
            m_firstByte = now;
        m_bytesIn += n;
        std::size_t consumed = 0;
        const auto r = m_parser.feed(m_readBuffer, n, consumed);
        if (first && m_parser.status() >= 400) // one compare per response; a copy only for errors
            m_errorSample.assign(m_readBuffer, std::min(n, kErrorSampleLimit));
        if (r == Http1ResponseParser::Result::Error) {
            fail(ErrorClass::Protocol, m_parser.error(), now);
            return;
        }
        if (r == Http1ResponseParser::Result::Complete) {
            complete(consumed, n, peerClosed, now);
            return;
        }
        // A short read drained the socket: TCP gives all it has up to the
        // buffer size. But a close or reset that came with this edge is not
        // reported by that read, and no later edge will report it. (A TLS read
        // returns one record at a time: read on until it wants more.)
        if (shortReadDrains() && n < m_readBufferSize && !peerClosed)
            return;
    }
}

void Http1Session::checkDeadline(Nanos now)
{
    if (!m_busy)
        return;
    if (now < m_deadline && checkConnectDeadline(now))
        return;
    if (now >= m_deadline)
        fail(ErrorClass::Timeout, "no complete response within " + std::to_string(m_timeout / kNanosPerMilli) + " ms",
             now);
}

} // namespace stampede
