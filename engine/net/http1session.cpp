#include "http1session.h"

#include <algorithm>

namespace stampede {

namespace {
constexpr std::size_t kErrorSampleLimit = 8 * 1024;
}

Http1Session::Http1Session(EventLoop& loop, SessionListener& listener, char* readBuffer, std::size_t readBufferSize)
    : Transport(loop), m_listener(listener), m_readBuffer(readBuffer), m_readBufferSize(readBufferSize)
{
}

void Http1Session::fail(ErrorClass error, const std::string& why, Nanos now)
{
    closeTransport();
    m_busy = false;
    m_listener.onFailure(tag, error, why, now);
}

void Http1Session::onTransportFailure(ErrorClass error, const std::string& why, Nanos now)
{
    if (!m_busy)
        return;
    m_busy = false;
    m_listener.onFailure(tag, error, why, now);
}

void Http1Session::submit(const Endpoint& endpoint, const char* data, std::size_t size, bool noBody, Nanos now,
                          Nanos timeout, Nanos connectTimeout, bool deferWrite, CaptureMode capture)
{
    m_capturing = capture != CaptureMode::None;
    m_capture.bodyLimit = capture == CaptureMode::All ? kCaptureBodyLimit : 0;
    m_parser.setCapture(m_capturing ? &m_capture : nullptr);
    m_busy = true;
    m_out = data;
    m_outLeft = size;
    m_bytesIn = 0;
    m_timeout = timeout;
    m_deadline = now + timeout;
    m_parser.reset(noBody);
    if (isOpen() && endpoint.sameAs(*Transport::endpoint())) {
        if (ready() && !deferWrite)
            flushWrite(now);
        return;
    }
    open(endpoint, now, connectTimeout); // a different endpoint closes the old connection first
}

void Http1Session::onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed)
{
    m_listener.onConnected(tag, connect, handshake, tls, resumed);
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
        fail(ErrorClass::Reset, why, now);
        return;
    }
}

void Http1Session::onReadable(Nanos now, bool peerClosed)
{
    for (;;) {
        Io io;
        std::string why;
        const std::size_t n = readSome(m_readBuffer, m_readBufferSize, io, why);
        if (io == Io::Again)
            return;
        if (io == Io::Error) {
            if (!m_busy) {
                closeTransport();
                return;
            }
            fail(ErrorClass::Reset, why, now);
            return;
        }
        if (io == Io::Closed) {
            if (!m_busy) {
                closeTransport(); // an idle keep-alive connection the server let go
                return;
            }
            if (m_parser.finish() == Http1ResponseParser::Result::Complete) {
                const int status = m_parser.status();
                closeTransport();
                m_busy = false;
                if (m_capturing)
                    m_listener.onCaptured(tag, m_capture.headers, m_capture.trailers, m_capture.body);
                m_listener.onResponse(tag, status, m_bytesIn, m_errorSample, now);
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
            if (consumed != n) {
                fail(ErrorClass::Protocol, "more data than the response framing allows", now);
                return;
            }
            const int status = m_parser.status();
            if (!m_parser.keepAlive())
                closeTransport();
            m_busy = false;
            if (m_capturing)
                m_listener.onCaptured(tag, m_capture.headers, m_capture.trailers, m_capture.body);
            // The listener may submit the next request on this session right away.
            m_listener.onResponse(tag, status, m_bytesIn, m_errorSample, now);
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
