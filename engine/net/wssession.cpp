#include "wssession.h"

#include <openssl/rand.h>

#include <algorithm>
#include <cstdlib>

namespace stampede {

WsSession::WsSession(EventLoop& loop, WsListener& listener, char* readBuffer, std::size_t readBufferSize,
                     WsReader::Limits limits)
    : Transport(loop), m_listener(listener), m_readBuffer(readBuffer), m_readBufferSize(readBufferSize),
      m_limits(limits), m_reader(limits)
{
}

void WsSession::open(const Endpoint& endpoint, WsUpgrade u, Nanos now, Nanos timeout, Nanos connectTimeout,
                     std::string request)
{
    closeTransport();
    m_upgrade = std::move(u);
    m_reader = WsReader(m_limits);
    m_deflate.reset(); // agreed again (or not) by this connection's handshake
    m_state = State::Handshake;
    m_head.clear();
    m_out = request.empty() ? wsUpgradeRequest(m_upgrade) : std::move(request);
    m_outAt = 0;
    m_closeSent = false;
    m_bytesIn = m_bytesOut = m_pongs = 0; // this connection's
    m_timeout = timeout;
    m_deadline = now + timeout;
    Transport::open(endpoint, now, connectTimeout);
}

void WsSession::onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed)
{
    m_listener.onWsConnected(tag, connect, handshake, tls, resumed);
    flush(now);
}

void WsSession::onTransportFailure(ErrorClass error, const std::string& why, Nanos now)
{
    if (m_state == State::Idle)
        return;
    m_state = State::Idle;
    m_why = why;
    WsEnd e;
    e.failed = true;
    e.error = error;
    e.why = m_why;
    m_listener.onWsEnd(tag, e, now);
}

void WsSession::onWritable(Nanos now)
{
    flush(now);
}

void WsSession::queueFrame(WsOpcode op, std::string_view payload, bool compressed)
{
    if (m_randomAt + 4 > sizeof m_random) {
        if (RAND_bytes(m_random, sizeof m_random) != 1)
            std::abort(); // no masking key the RFC allows can be made
        m_randomAt = 0;
    }
    if (m_outAt == m_out.size()) {
        m_out.clear();
        m_outAt = 0;
    }
    appendWsFrame(m_out, op, payload, m_random + m_randomAt, true, compressed);
    m_randomAt += 4;
}

void WsSession::flush(Nanos now)
{
    if (!ready())
        return;
    if (std::string why; !writeQueued(m_out, m_outAt, m_bytesOut, why))
        fail(ErrorClass::Reset, why, now);
}

bool WsSession::send(WsOpcode type, std::string_view data, Nanos now)
{
    if (m_state != State::Open)
        return false;
    if (m_deflate && (type == WsOpcode::Text || type == WsOpcode::Binary)) {
        m_deflate->compress(data, m_compressed);
        queueFrame(type, m_compressed, true);
    } else {
        queueFrame(type, data);
    }
    flush(now);
    return true;
}

void WsSession::close(std::uint16_t code, std::string_view reason, Nanos now, Nanos timeout)
{
    if (m_state == State::Handshake) {
        fail(ErrorClass::Reset, "closed before the handshake ended", now);
        return;
    }
    if (m_state != State::Open)
        return;
    m_state = State::Closing;
    m_closeSent = true;
    m_timeout = timeout;
    m_deadline = now + timeout;
    queueFrame(WsOpcode::Close, wsClosePayload(code, reason));
    flush(now);
}

void WsSession::checkDeadline(Nanos now)
{
    if (m_state == State::Handshake && !checkConnectDeadline(now) && now >= m_deadline)
        fail(ErrorClass::Timeout, "no WebSocket handshake within " + std::to_string(m_timeout / kNanosPerMilli) + " ms",
             now);
    else if (m_state == State::Closing && now >= m_deadline)
        fail(ErrorClass::Timeout,
             "the server did not answer the close within " + std::to_string(m_timeout / kNanosPerMilli) + " ms", now);
}

void WsSession::end(WsEnd e, Nanos now)
{
    closeTransport();
    m_state = State::Idle;
    m_listener.onWsEnd(tag, e, now);
}

void WsSession::fail(ErrorClass error, const std::string& why, Nanos now, std::uint16_t code)
{
    m_why = why;
    WsEnd e;
    e.failed = true;
    e.error = error;
    e.why = m_why;
    e.code = code;
    end(e, now);
}

bool WsSession::readHead(std::string_view bytes, Nanos now)
{
    m_head.append(bytes); // at most the limit and one read: a head not whole past the limit fails
    const std::size_t end = m_head.find("\r\n\r\n");
    if (end == std::string::npos || end > kHeadLimit) {
        if (m_head.size() > kHeadLimit)
            fail(ErrorClass::Protocol, "the handshake's answer head passed " + std::to_string(kHeadLimit) + " bytes",
                 now);
        return m_state != State::Handshake;
    }
    std::vector<std::pair<std::string, std::string>> headers;
    const std::string_view head = std::string_view(m_head).substr(0, end);
    const std::size_t lineEnd = std::min(head.find("\r\n"), head.size());
    const std::string_view status = head.substr(0, lineEnd);
    int code = 0;
    if (status.size() >= 12 && status.substr(0, 5) == "HTTP/")
        code = std::atoi(std::string(status.substr(9, 3)).c_str());
    for (std::size_t at = lineEnd; at < head.size();) {
        const std::size_t next = std::min(head.find("\r\n", at + 2), head.size());
        const std::string_view line = head.substr(at + 2, next - at - 2);
        if (const std::size_t colon = line.find(':'); colon != std::string_view::npos)
            headers.emplace_back(std::string(line.substr(0, colon)), std::string(line.substr(colon + 1)));
        at = next;
    }
    std::string protocol;
    bool deflate = false;
    if (const std::string why = wsCheckAnswer(code, headers, m_upgrade, protocol, &deflate); !why.empty()) {
        Answer refused; // a 4xx or 5xx counted as any answer's status is; else the handshake's fault
        refused.setHttpStatus(code);
        fail(refused.statusFailed() ? refused.statusError : ErrorClass::Protocol, why, now);
        return true;
    }
    m_state = State::Open;
    if (deflate) {
        m_deflate = std::make_unique<WsDeflate>();
        m_reader.inflateMessages();
    }
    // the frames that came with the head: kept before the listener hears of the open (it may send at once)
    const std::string rest = m_head.substr(end + 4);
    m_head.clear();
    m_listener.onWsOpen(tag, protocol, now);
    if (!rest.empty() && (m_state == State::Open || m_state == State::Closing))
        readFrames(rest, now);
    return true;
}

void WsSession::readFrames(std::string_view bytes, Nanos now)
{
    WsReader::Events ev;
    ev.message = [&](WsOpcode t, std::string_view d) {
        m_listener.onWsMessage(tag, t, d, now);
        return m_state == State::Open || m_state == State::Closing; // the listener may have ended it
    };
    ev.ping = [&](std::string_view p) {
        queueFrame(WsOpcode::Pong, p);
        ++m_pongs;
    };
    const WsReader::Result r = m_reader.feed(bytes, ev);
    if (m_state == State::Idle)
        return;
    if (r == WsReader::Result::Fault) {
        queueFrame(WsOpcode::Close, wsClosePayload(m_reader.faultCode(), {}));
        flush(now);
        fail(ErrorClass::Protocol, m_reader.error(), now, m_reader.faultCode());
        return;
    }
    if (r == WsReader::Result::Closed) {
        if (!m_closeSent) { // the server's close is echoed with its code (RFC 6455 5.5.1)
            const std::uint16_t code = m_reader.closeCode();
            queueFrame(WsOpcode::Close, wsClosePayload(code == 1005 ? 0 : code, {}));
            m_closeSent = true;
        }
        flush(now);
        WsEnd e;
        e.code = m_reader.closeCode();
        e.reason = m_reader.closeReason();
        end(e, now);
        return;
    }
    flush(now); // the pongs
}

void WsSession::onReadable(Nanos now, bool peerClosed)
{
    for (;;) {
        if (m_state == State::Idle)
            return;
        Io io;
        std::string why;
        const std::size_t n = readSome(m_readBuffer, m_readBufferSize, io, why);
        if (io == Io::Again)
            return;
        if (io == Io::Error || io == Io::Closed) {
            fail(io == Io::Error && tlsFault() ? ErrorClass::Tls : ErrorClass::Reset,
                 io == Io::Error ? why : "the connection ended without a close frame", now);
            return;
        }
        m_bytesIn += n;
        const std::string_view bytes(m_readBuffer, n);
        if (m_state == State::Handshake) {
            if (!readHead(bytes, now))
                continue;
        } else {
            readFrames(bytes, now);
        }
        if (shortReadDrains() && n < m_readBufferSize && !peerClosed)
            return;
    }
}

} // namespace stampede
