#include "wssessions.h"

#include "wssession.h"

#include <openssl/rand.h>

#include <cstdlib>

namespace stampede {

class WsConversations::Conversation final : public WsListener
{
public:
    Conversation(std::uint32_t slot, EventLoop& loop, SessionListener& listener, char* buffer, std::size_t size)
        : m_slot(slot), m_listener(listener), m_session(loop, *this, buffer, size)
    {
        m_session.tag = slot;
    }

    std::size_t start(const Outgoing& o, Nanos now, Nanos connectTimeout)
    {
        m_o = o;
        m_got = 0;
        m_sent = 0;
        m_want = o.ws ? o.ws->receive : 0;
        m_last.clear();
        m_sentAt.clear();
        m_latencies.clear();
        m_active = true;
        m_start = now;
        m_first = 0;
        m_deadline = now + o.timeout;
        const std::string_view line = requestLine(*o.request);
        if (m_session.isWebSocket() && m_kept == line && m_keptAt && m_keptAt->sameAs(*o.endpoint)) { // kept for it
            m_bytesBefore = m_session.bytesIn();
            std::size_t bytes = 0;
            for (const auto& m : o.request->messages)
                bytes += m.size();
            begin(now);
            return bytes;
        }
        m_kept.clear();
        m_bytesBefore = 0;
        std::uint8_t nonce[16];
        if (RAND_bytes(nonce, sizeof nonce) != 1)
            std::abort(); // no key the RFC allows can be made
        WsUpgrade u;
        u.key = wsKey(nonce);
        if (o.ws) {
            u.protocols = o.ws->protocols;
            u.deflate = o.ws->deflate;
        }
        // the rendered upgrade with the key before its blank line
        std::string request = o.request->wire;
        if (request.size() >= 2 && request.compare(request.size() - 2, 2, "\r\n") == 0)
            request.resize(request.size() - 2);
        request += "Sec-WebSocket-Key: " + u.key + "\r\n\r\n";
        std::size_t bytes = request.size();
        for (const auto& m : o.request->messages)
            bytes += m.size();
        m_session.open(*o.endpoint, std::move(u), now, o.timeout, connectTimeout, std::move(request));
        return bytes;
    }

    void checkDeadline(Nanos now)
    {
        m_session.checkDeadline(now);
        if (m_active && now >= m_deadline)
            fail(ErrorClass::Timeout,
                 std::to_string(m_got) + " of " + std::to_string(m_want) + " messages within " +
                     std::to_string(m_o.timeout / kNanosPerMilli) + " ms",
                 now);
    }
    bool open() const { return m_session.isOpen(); }
    void close() { m_session.close(1001, {}, 0, 0); }

    void onWsConnected(std::uint32_t, Nanos connect, Nanos handshake, bool tls, bool resumed) override
    {
        m_listener.onConnected(m_slot, connect, handshake, tls, resumed);
    }
    void onWsOpen(std::uint32_t, std::string_view, Nanos now) override
    {
        if (m_active)
            begin(now);
    }
    // The conversation's messages out, on a connection just opened or kept from the step before.
    void begin(Nanos now)
    {
        const std::size_t count = m_o.request->messages.size();
        for (std::size_t i = 0; i < (m_o.ws && m_o.ws->requestReply ? std::min<std::size_t>(count, 1) : count); ++i)
            sendMessage(i, now);
        if (m_want == 0)
            succeed(now);
    }
    void sendMessage(std::size_t i, Nanos now)
    {
        const bool binary = m_o.ws && i < m_o.ws->binary.size() && m_o.ws->binary[i];
        if (m_session.send(binary ? WsOpcode::Binary : WsOpcode::Text, m_o.request->messages[i], now)) {
            ++m_sent;
            m_listener.onStreamMessages(m_slot, 1, 0, now);
        }
        m_sentAt.push_back(now);
    }
    void onWsMessage(std::uint32_t, WsOpcode, std::string_view data, Nanos now) override
    {
        if (!m_active)
            return;
        m_listener.onStreamMessages(m_slot, 0, 1, now);
        if (m_o.ws && !m_o.ws->match.empty() && data.find(m_o.ws->match) == std::string_view::npos)
            return;                  // counted, not awaited
        if (m_got < m_sentAt.size()) // the n-th message in answers the n-th out
            m_latencies.push_back(now - m_sentAt[m_got]);
        if (m_got++ == 0)
            m_first = now;
        if (m_o.capture != CaptureMode::None)
            m_last.assign(data);
        if (m_got >= m_want) {
            succeed(now);
            return;
        }
        if (m_o.ws && m_o.ws->requestReply && m_sentAt.size() < m_o.request->messages.size())
            sendMessage(m_sentAt.size(), now);
    }
    void onWsEnd(std::uint32_t, const WsEnd& e, Nanos now) override
    {
        if (!m_active)
            return;
        if (e.failed) {
            fail(e.error, std::string(e.why), now);
            return;
        }
        fail(ErrorClass::Protocol,
             "the server closed (" + std::to_string(e.code) +
                 (e.reason.empty() ? "" : " \"" + std::string(e.reason) + "\"") + ") after " + std::to_string(m_got) +
                 " of " + std::to_string(m_want) + " messages",
             now);
    }

private:
    void succeed(Nanos now)
    {
        m_active = false;
        if (m_o.ws && m_o.ws->keepOpen) { // for this user's next step to the same URL
            m_kept.assign(requestLine(*m_o.request));
            m_keptAt = m_o.endpoint;
        } else {
            m_session.close(1000, {}, now, kCloseTimeout); // its end is heard by no step
        }
        Answer a;
        a.setHttpStatus(101);
        a.bytesIn = m_session.bytesIn() - m_bytesBefore;
        a.timeToFirstByte = m_first ? m_first - m_start : -1;
        a.messageLatencies = m_latencies.empty() ? nullptr : &m_latencies;
        if (m_o.capture != CaptureMode::None) {
            a.headers = &m_noHeaders;
            a.body = &m_last;
        }
        m_listener.onAnswer(m_slot, a, now); // may start the slot's next conversation
    }
    void fail(ErrorClass error, std::string why, Nanos now)
    {
        m_active = false;
        m_kept.clear();
        m_why = std::move(why);
        if (m_session.isWebSocket())
            m_session.close(error == ErrorClass::Timeout ? 1001 : 1002, {}, now, kCloseTimeout);
        Answer a = Answer::failure(error, m_why);
        a.messageLatencies = m_latencies.empty() ? nullptr : &m_latencies;
        m_listener.onAnswer(m_slot, a, now);
    }

    std::uint32_t m_slot;
    SessionListener& m_listener;
    WsSession m_session;
    Outgoing m_o;
    // The request line of a rendered upgrade: the URL a kept connection is kept for.
    static std::string_view requestLine(const RenderedRequest& r)
    {
        return std::string_view(r.wire).substr(0, r.wire.find("\r\n"));
    }

    std::uint32_t m_got = 0, m_want = 0; // awaited messages come, awaited
    std::string m_kept;                  // the request line of the upgrade kept open ("" none)
    const Endpoint* m_keptAt = nullptr;
    std::uint64_t m_bytesBefore = 0; // a kept connection's bytes before this step
    std::size_t m_sent = 0;
    std::string m_last, m_why;
    std::vector<Nanos> m_sentAt, m_latencies; // each message's send; each reply's time from it
    Answer::HeaderList m_noHeaders;
    bool m_active = false;
    Nanos m_start = 0, m_first = 0, m_deadline = 0;
};

WsConversations::WsConversations(std::uint32_t slots, EventLoop& loop, SessionListener& listener, char* readBuffer,
                                 std::size_t readBufferSize, Nanos connectTimeout)
    : m_connectTimeout(connectTimeout)
{
    m_slots.reserve(slots);
    for (std::uint32_t i = 0; i < slots; ++i)
        m_slots.push_back(std::make_unique<Conversation>(i, loop, listener, readBuffer, readBufferSize));
}

WsConversations::~WsConversations() = default;

std::size_t WsConversations::send(std::uint32_t slot, const Outgoing& o, Nanos now)
{
    return m_slots[slot]->start(o, now, m_connectTimeout);
}

void WsConversations::checkDeadlines(Nanos now)
{
    for (auto& c : m_slots)
        c->checkDeadline(now);
}

std::uint32_t WsConversations::openConnections() const
{
    std::uint32_t n = 0;
    for (const auto& c : m_slots)
        n += c->open();
    return n;
}

void WsConversations::close()
{
    for (auto& c : m_slots)
        c->close();
}

} // namespace stampede
