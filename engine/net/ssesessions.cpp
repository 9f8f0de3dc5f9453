#include "ssesessions.h"

#include "core/text.h"
#include "http1responseparser.h"
#include "stream/sseparser.h"
#include "transport.h"

#include <algorithm>
#include <limits>

namespace stampede {

namespace {

// The request with Last-Event-ID set to `id` (the one written, if any, taken out).
std::string withLastEventId(const std::string& wire, const std::string& id)
{
    std::string out;
    out.reserve(wire.size() + id.size() + 16);
    std::size_t at = 0;
    while (at < wire.size()) {
        std::size_t end = wire.find("\r\n", at);
        if (end == std::string::npos)
            end = wire.size();
        const std::string_view line(wire.data() + at, end - at);
        if (line.empty()) // the blank line: ours goes before it
            break;
        const std::size_t colon = line.find(':');
        if (at == 0 || colon == std::string_view::npos || !equalsNoCase(line.substr(0, colon), "Last-Event-ID"))
            out.append(line).append("\r\n");
        at = end + 2;
    }
    out += "Last-Event-ID: " + id + "\r\n";
    if (at < wire.size())
        out.append(wire, at, std::string::npos);
    else
        out += "\r\n";
    return out;
}

} // namespace

class SseConversations::Stream final : public Transport
{
public:
    Stream(std::uint32_t slot, EventLoop& loop, SessionListener& listener, char* buffer, std::size_t size)
        : Transport(loop), m_slot(slot), m_listener(listener), m_buffer(buffer), m_size(size)
    {
        m_capture.bodyLimit = std::numeric_limits<std::size_t>::max(); // emptied after each read
    }

    std::size_t start(const Outgoing& o, Nanos now, Nanos connectTimeout)
    {
        m_o = o;
        m_want = o.sse ? o.sse->receive : 1;
        m_left = o.sse ? o.sse->reconnects : 0;
        m_got = 0;
        m_bytesIn = 0;
        m_lastId.clear();
        m_last.clear();
        m_active = true;
        m_start = now;
        m_first = 0;
        m_deadline = now + o.timeout;
        m_connectTimeout = connectTimeout;
        connect(now);
        return o.request->wire.size();
    }

    void checkDeadline(Nanos now)
    {
        if (!m_active)
            return;
        if (m_waiting && now >= m_reconnectAt && now < m_deadline) {
            connect(now);
            return;
        }
        if (!m_waiting && checkConnectDeadline(now))
            return;
        if (now >= m_deadline)
            fail(ErrorClass::Timeout,
                 std::to_string(m_got) + " of " + std::to_string(m_want) + " events within " +
                     std::to_string(m_o.timeout / kNanosPerMilli) + " ms",
                 now);
    }
    void stop() { closeTransport(); }
    EventObserver observer;

private:
    void connect(Nanos now)
    {
        m_waiting = false;
        m_out = m_lastId.empty() ? m_o.request->wire : withLastEventId(m_o.request->wire, m_lastId);
        m_outAt = 0;
        m_parser.setCapture(&m_capture);
        m_parser.reset();
        m_headChecked = false;
        m_sse = SseParser();
        Transport::open(*m_o.endpoint, now, m_connectTimeout);
    }

    void onReady(Nanos now, Nanos connect, Nanos handshake, bool tls, bool resumed) override
    {
        m_listener.onConnected(m_slot, connect, handshake, tls, resumed);
        flush(now);
    }
    void onTransportFailure(ErrorClass error, const std::string& why, Nanos now) override
    {
        if (m_active)
            fail(error, why, now);
    }
    void onWritable(Nanos now) override { flush(now); }

    void flush(Nanos now)
    {
        if (!ready())
            return;
        if (std::string why; !writeQueued(m_out, m_outAt, m_bytesOut, why))
            fail(ErrorClass::Reset, why, now);
    }

    void onReadable(Nanos now, bool peerClosed) override
    {
        const std::uint32_t connection = m_connection;
        while (m_active && connection == m_connection) {
            Io io;
            std::string why;
            const std::size_t n = readSome(m_buffer, m_size, io, why);
            if (io == Io::Again)
                return;
            if (io == Io::Error) {
                fail(tlsFault() ? ErrorClass::Tls : ErrorClass::Reset, why, now);
                return;
            }
            if (io == Io::Closed) {
                if (!m_headChecked)
                    fail(ErrorClass::Reset, "the connection ended before the stream's answer", now);
                else
                    ended(now, m_parser.finish() == Http1ResponseParser::Result::Complete);
                return;
            }
            m_bytesIn += n;
            read(std::string_view(m_buffer, n), now);
            if (shortReadDrains() && n < m_size && !peerClosed)
                return;
        }
    }

    // Bytes of the answer: its head checked once whole, its body read as events.
    void read(std::string_view bytes, Nanos now)
    {
        std::size_t consumed = 0;
        const auto r = m_parser.feed(bytes.data(), bytes.size(), consumed);
        if (r == Http1ResponseParser::Result::Error) {
            fail(ErrorClass::Protocol, m_parser.error(), now);
            return;
        }
        if (!m_headChecked && m_parser.headDone() && !checkHead(now))
            return;
        if (!m_capture.body.empty()) {
            const bool more = events(now);
            m_capture.body.clear();
            if (!more)
                return;
        }
        if (r == Http1ResponseParser::Result::Complete)
            ended(now, true);
    }

    bool checkHead(Nanos now)
    {
        m_headChecked = true;
        if (m_parser.status() != 200) {
            Answer refused; // a 4xx or 5xx counted as any answer's status is; else the stream's fault
            refused.setHttpStatus(m_parser.status());
            fail(refused.statusFailed() ? refused.statusError : ErrorClass::Protocol,
                 "the event stream was answered " + std::to_string(m_parser.status()) + ", not 200", now);
            return false;
        }
        std::string type;
        for (const auto& [name, value] : m_capture.headers)
            if (equalsNoCase(name, "Content-Type"))
                type = value;
        if (!equalsNoCase(std::string_view(type).substr(0, 17), "text/event-stream")) {
            fail(ErrorClass::Protocol,
                 "the answer is " + (type.empty() ? std::string("without a Content-Type") : "\"" + type + "\"") +
                     ", not text/event-stream",
                 now);
            return false;
        }
        m_headers = m_capture.headers;
        return true;
    }

    // The body read so far as events; false once the step is settled.
    bool events(Nanos now)
    {
        const auto onEvent = [&](const SseEvent& e) {
            m_listener.onStreamMessages(m_slot, 0, 1, now);
            if (observer)
                observer(e, now);
            if (m_o.sse && !m_o.sse->event.empty() && e.type != m_o.sse->event)
                return true;
            if (m_got++ == 0)
                m_first = now;
            if (m_o.capture != CaptureMode::None)
                m_last = e.data;
            return m_got < m_want;
        };
        const SseParser::Result r = m_sse.feed(m_capture.body, onEvent);
        if (!m_sse.lastEventId().empty())
            m_lastId = m_sse.lastEventId();
        if (r == SseParser::Result::Stopped) {
            succeed(now);
            return false;
        }
        if (r == SseParser::Result::Fault) {
            fail(ErrorClass::Protocol, "the event stream: " + m_sse.error(), now);
            return false;
        }
        return true;
    }

    // The stream's answer ended (`whole`: as its framing says; else the connection broke in its middle) before
    // the awaited events: connected again if the step allows.
    void ended(Nanos now, bool whole)
    {
        closeTransport();
        ++m_connection;
        if (m_left == 0) {
            fail(whole ? ErrorClass::Protocol : ErrorClass::Reset,
                 std::string(whole ? "the stream ended" : "the connection ended in the middle of the stream") +
                     " after " + std::to_string(m_got) + " of " + std::to_string(m_want) + " events",
                 now);
            return;
        }
        --m_left;
        const Nanos retry = std::min<Nanos>(
            Nanos(std::min<std::uint64_t>(m_sse.retry().value_or(0), std::uint64_t(kMaxRetry / kNanosPerMilli))) *
                kNanosPerMilli,
            kMaxRetry);
        m_waiting = true;
        m_reconnectAt = now + retry;
        if (retry == 0)
            connect(now);
    }

    void succeed(Nanos now)
    {
        m_active = false;
        closeTransport();
        ++m_connection;
        Answer a;
        a.setHttpStatus(200);
        a.bytesIn = m_bytesIn;
        a.timeToFirstByte = m_first ? m_first - m_start : -1;
        if (m_o.capture != CaptureMode::None) {
            a.headers = &m_headers;
            a.body = &m_last;
        }
        m_listener.onAnswer(m_slot, a, now); // may start the slot's next stream
    }
    void fail(ErrorClass error, std::string why, Nanos now)
    {
        m_active = false;
        m_waiting = false;
        closeTransport();
        ++m_connection;
        m_why = std::move(why);
        Answer a = Answer::failure(error, m_why);
        a.bytesIn = m_bytesIn;
        m_listener.onAnswer(m_slot, a, now);
    }

    std::uint32_t m_slot;
    SessionListener& m_listener;
    char* m_buffer;
    std::size_t m_size;
    Outgoing m_o;
    Http1ResponseParser m_parser;
    Http1ResponseParser::Capture m_capture;
    SseParser m_sse;
    Answer::HeaderList m_headers;
    std::string m_out, m_last, m_lastId, m_why;
    std::size_t m_outAt = 0;
    std::uint32_t m_got = 0, m_want = 1, m_left = 0, m_connection = 0;
    std::uint64_t m_bytesIn = 0, m_bytesOut = 0;
    bool m_active = false, m_waiting = false, m_headChecked = false;
    Nanos m_start = 0, m_first = 0, m_deadline = 0, m_reconnectAt = 0, m_connectTimeout = 0;
};

SseConversations::SseConversations(std::uint32_t slots, EventLoop& loop, SessionListener& listener, char* readBuffer,
                                   std::size_t readBufferSize, Nanos connectTimeout)
    : m_connectTimeout(connectTimeout)
{
    m_slots.reserve(slots);
    for (std::uint32_t i = 0; i < slots; ++i)
        m_slots.push_back(std::make_unique<Stream>(i, loop, listener, readBuffer, readBufferSize));
}

SseConversations::~SseConversations() = default;

std::size_t SseConversations::send(std::uint32_t slot, const Outgoing& o, Nanos now)
{
    return m_slots[slot]->start(o, now, m_connectTimeout);
}

void SseConversations::checkDeadlines(Nanos now)
{
    for (auto& s : m_slots)
        s->checkDeadline(now);
}

std::uint32_t SseConversations::openConnections() const
{
    std::uint32_t n = 0;
    for (const auto& s : m_slots)
        n += s->isOpen();
    return n;
}

void SseConversations::observe(std::uint32_t slot, EventObserver observer)
{
    m_slots[slot]->observer = std::move(observer);
}

void SseConversations::close()
{
    for (auto& s : m_slots)
        s->stop();
}

} // namespace stampede
