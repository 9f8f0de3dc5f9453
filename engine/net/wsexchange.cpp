#include "wsexchange.h"

#include "eventloop.h"
#include "wssession.h"

#include <openssl/rand.h>

#include <algorithm>

namespace stampede {

namespace {

class Conversation final : public WsListener
{
public:
    Conversation(const WsExchangeRequest& rq, WsExchangeResult& r, Nanos start) : m_rq(rq), m_r(r), m_start(start) {}
    WsSession* session = nullptr;
    bool done = false;

    void onWsConnected(std::uint32_t, Nanos connect, Nanos handshake, bool, bool) override
    {
        m_r.connectTime = connect + handshake;
    }
    void onWsOpen(std::uint32_t, std::string_view protocol, Nanos now) override
    {
        m_r.opened = true;
        m_r.protocol = protocol;
        m_r.deflate = session && session->deflating();
        m_r.openTime = now - m_start;
        const std::size_t first =
            m_rq.requestReply ? std::min<std::size_t>(1, m_rq.messages.size()) : m_rq.messages.size();
        for (std::size_t i = 0; i < first; ++i)
            send(i, now);
        if (m_rq.receive == 0)
            finish(now);
    }
    void onWsMessage(std::uint32_t, WsOpcode type, std::string_view data, Nanos now) override
    {
        keep(false, type == WsOpcode::Binary, data, now);
        ++m_r.received;
        if (m_closing)
            return;
        if (m_r.received >= m_rq.receive) {
            finish(now);
            return;
        }
        if (m_rq.requestReply && m_sent < m_rq.messages.size())
            send(m_sent, now);
    }
    void onWsEnd(std::uint32_t, const WsEnd& e, Nanos now) override
    {
        if (e.failed && m_r.error.empty() && !m_closing)
            m_r.error = std::string(e.why);
        else if (!e.failed && !m_closing && m_r.received < m_rq.receive)
            m_r.error = "the server closed after " + std::to_string(m_r.received) + " of " +
                        std::to_string(m_rq.receive) + " messages";
        m_r.closeCode = e.code;
        m_r.closeReason = std::string(e.reason);
        m_r.totalTime = now - m_start;
        done = true;
    }
    void timeOut(Nanos now)
    {
        if (m_closing)
            return;
        m_r.error = std::to_string(m_r.received) + " of " + std::to_string(m_rq.receive) + " messages within " +
                    std::to_string(m_rq.timeout / kNanosPerMilli) + " ms";
        finish(now);
    }

private:
    void send(std::size_t i, Nanos now)
    {
        const bool binary = i < m_rq.binary.size() && m_rq.binary[i];
        session->send(binary ? WsOpcode::Binary : WsOpcode::Text, m_rq.messages[i], now);
        keep(true, binary, m_rq.messages[i], now);
        ++m_sent;
    }
    void keep(bool out, bool binary, std::string_view data, Nanos now)
    {
        if (m_r.log.size() >= WsExchangeResult::kLogCap)
            return;
        WsLogEntry e;
        e.at = now - m_start;
        e.out = out;
        e.binary = binary;
        e.size = data.size();
        e.data.assign(data.substr(0, WsLogEntry::kDataCap));
        m_r.log.push_back(std::move(e));
    }
    void finish(Nanos now)
    {
        m_closing = true;
        if (session->isWebSocket())
            session->close(1000, {}, now, kNanosPerSecond);
        else
            session->close(1000, {}, now, 0);
    }

    const WsExchangeRequest& m_rq;
    WsExchangeResult& m_r;
    Nanos m_start;
    std::size_t m_sent = 0;
    bool m_closing = false;
};

} // namespace

WsExchangeResult wsExchange(const WsExchangeRequest& rq)
{
    WsExchangeResult r;
    EventLoop loop;
    if (!loop.valid() || !rq.endpoint) {
        r.error = rq.endpoint ? "cannot create an event loop" : "no server to connect to";
        return r;
    }
    std::uint8_t nonce[16];
    if (RAND_bytes(nonce, sizeof nonce) != 1) {
        r.error = "no random key could be made";
        return r;
    }
    WsUpgrade u;
    u.key = wsKey(nonce);
    u.protocols = rq.protocols;
    u.deflate = rq.deflate;
    std::string request = rq.upgrade;
    if (request.size() >= 2 && request.compare(request.size() - 2, 2, "\r\n") == 0)
        request.resize(request.size() - 2);
    request += "Sec-WebSocket-Key: " + u.key + "\r\n\r\n";
    const Nanos start = SteadyClock::monotonicNow();
    Conversation c(rq, r, start);
    std::vector<char> buffer(64 * 1024);
    WsSession session(loop, c, buffer.data(), buffer.size());
    c.session = &session;
    session.open(*rq.endpoint, std::move(u), start, rq.timeout, std::min<Nanos>(rq.timeout, 10 * kNanosPerSecond),
                 std::move(request));
    const Nanos deadline = start + rq.timeout;
    const Nanos hardStop = deadline + 2 * kNanosPerSecond; // the close's own second, and a margin
    while (!c.done) {
        const int n = loop.wait(10 * kNanosPerMilli);
        const Nanos now = SteadyClock::monotonicNow();
        dispatchEvents(loop, n, now);
        if (c.done)
            break;
        session.checkDeadline(now);
        if (now >= deadline)
            c.timeOut(now);
        if (now >= hardStop && !c.done) { // the session goes with this scope, its connection with it
            r.totalTime = now - start;
            break;
        }
    }
    return r;
}

} // namespace stampede
