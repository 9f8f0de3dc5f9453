#include "clientsessions.h"

#include "http1session.h"
#include "http2session.h"
#include "ssesessions.h"
#include "wssessions.h"

#include <algorithm>

namespace stampede {

namespace {

// Up to so many connections a worker, each TLS connection keeps its record
// buffers between requests instead of freeing and allocating them again for
// every record: about 1 % more requests per CPU-second on HTTPS keep-alive,
// for about 8 KiB more per idle connection (49.7 against 41.4 KB, measured).
// Past it, memory per idle connection comes first.
constexpr std::size_t kKeepTlsBuffersUpTo = 256;

class Http1Sessions final : public ClientSessions
{
public:
    Http1Sessions(const SessionsConfig& c, EventLoop& loop, SessionListener& listener, char* buffer, std::size_t size)
        : m_connectTimeout(c.connectTimeout)
    {
        const std::uint32_t slots = c.slots;
        m_sessions.reserve(slots);
        m_held.reserve(slots);
        const bool keepTlsBuffers = slots <= kKeepTlsBuffersUpTo;
        for (std::uint32_t i = 0; i < slots; ++i) {
            m_sessions.push_back(std::make_unique<Http1Session>(loop, listener, buffer, size));
            m_sessions.back()->tag = i;
            m_sessions.back()->keepTlsBuffers(keepTlsBuffers);
        }
    }
    std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now) override
    {
        const std::string* wire = &o.request->wire;
        if (changesRequest(o)) { // kept for the slot until its answer
            if (m_encoded.size() <= slot)
                m_encoded.resize(m_sessions.size());
            encodeHttp1(o, m_encoded[slot]);
            wire = &m_encoded[slot];
        }
        m_sessions[slot]->submit(*o.endpoint, wire->data(), wire->size(), o.noResponseBody, now, o.timeout,
                                 m_connectTimeout, m_inBatch, o.capture);
        if (m_inBatch)
            m_held.push_back(slot);
        return wire->size();
    }
    void beforeEvents() override { m_inBatch = true; }
    void afterEvents(Nanos now) override
    {
        m_inBatch = false;
        for (const std::uint32_t slot : m_held)
            m_sessions[slot]->writeDeferred(now);
        m_held.clear();
    }
    void checkDeadlines(Nanos now) override
    {
        for (auto& s : m_sessions)
            s->checkDeadline(now);
    }
    std::uint32_t maxConnections() const override { return std::uint32_t(m_sessions.size()); }
    std::uint32_t openConnections() const override
    {
        std::uint32_t open = 0;
        for (const auto& s : m_sessions)
            open += s->connected();
        return open;
    }
    void close() override
    {
        for (auto& s : m_sessions)
            s->close();
    }

private:
    Nanos m_connectTimeout;
    std::vector<std::unique_ptr<Http1Session>> m_sessions;
    bool m_inBatch = false;
    std::vector<std::uint32_t> m_held;  // slots whose request waits for the end of the batch
    std::vector<std::string> m_encoded; // per slot: its request with a cookie or a hop applied
};

class Http2Sessions final : public ClientSessions
{
public:
    Http2Sessions(const SessionsConfig& c, EventLoop& loop, SessionListener& listener, char* buffer, std::size_t size)
        : m_connectTimeout(c.connectTimeout), m_streams(c.streams), m_perServer((c.slots + c.streams - 1) / c.streams),
          m_slots(c.slots), m_paced(c.pacedStreams)
    {
        const std::uint32_t connections = m_perServer * c.servers;
        for (std::uint32_t i = 0; i < connections; ++i) {
            m_sessions.push_back(std::make_unique<Http2Session>(loop, listener, buffer, size, m_streams));
            m_sessions.back()->setFlushQueue(&m_held);
            m_sessions.back()->keepTlsBuffers(connections <= kKeepTlsBuffersUpTo);
        }
    }
    std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now) override
    {
        Http2Session& session = *m_sessions[o.server * m_perServer + slot / m_streams];
        const RenderedRequest& r = *o.request;
        if (!changesRequest(o)) {
            session.submit(slot, *o.endpoint, r.nv.data(), r.nv.size(), r.body.data(), r.body.size(), now, o.timeout,
                           m_connectTimeout, o.protocol == Protocol::Grpc, o.capture, o.callStream);
            return r.bytes;
        }
        if (m_encoded.empty()) // kept for the slot until its answer
            m_encoded.resize(m_slots);
        Http2Encoding& e = m_encoded[slot];
        encodeHttp2(o, e);
        session.submit(slot, *o.endpoint, e.nv.data(), e.nv.size(), e.body.data(), e.body.size(), now, o.timeout,
                       m_connectTimeout, o.protocol == Protocol::Grpc, o.capture, o.callStream);
        return e.bytes;
    }
    void checkDeadlines(Nanos now) override
    {
        for (auto& s : m_sessions)
            s->checkDeadlines(now);
    }
    // The connections read in this batch write what they have, or hold it a
    // little longer for a fuller write.
    void afterEvents(Nanos now) override
    {
        if (m_held.empty())
            return;
        std::size_t kept = 0;
        for (Http2Session* s : m_held)
            if (!s->flushQueued(now))
                m_held[kept++] = s;
        m_held.resize(kept);
    }
    Nanos wakeBy(Nanos limit) const override
    {
        for (const Http2Session* s : m_held)
            limit = std::min(limit, s->holdUntil());
        return limit;
    }
    Nanos dueAt() const override
    {
        Nanos due = GrpcStreamCall::kNever;
        if (m_paced)
            for (const auto& s : m_sessions)
                due = std::min(due, s->nextRelease());
        return due;
    }
    void onDue(Nanos now) override
    {
        if (m_paced)
            for (auto& s : m_sessions)
                s->releaseDue(now);
    }
    std::uint32_t maxConnections() const override { return std::uint32_t(m_sessions.size()); }
    std::uint32_t openConnections() const override
    {
        std::uint32_t open = 0;
        for (const auto& s : m_sessions)
            open += s->connected();
        return open;
    }
    std::uint64_t goaways() const override
    {
        std::uint64_t n = 0;
        for (const auto& s : m_sessions)
            n += s->goaways();
        return n;
    }
    void close() override
    {
        for (auto& s : m_sessions)
            s->close();
    }

private:
    Nanos m_connectTimeout;
    std::uint32_t m_streams;
    std::uint32_t m_perServer; // sessions per server: m_sessions[server * this + connection]
    std::vector<std::unique_ptr<Http2Session>> m_sessions;
    std::uint32_t m_slots;
    std::vector<Http2Session*> m_held;    // connections with requests to write after this batch
    std::vector<Http2Encoding> m_encoded; // per slot: its request with a cookie or a hop applied
    bool m_paced;                         // some calls pace their messages: dueAt looks
};

} // namespace

// HTTP/1.1 requests, WebSocket conversations and event streams side by side: each request to the sessions of its
// protocol (those a plan has no step of are absent).
class MixedSessions final : public ClientSessions
{
public:
    MixedSessions(ClientSessionsPtr http, std::unique_ptr<WsConversations> ws, std::unique_ptr<SseConversations> sse)
        : m_http(std::move(http)), m_ws(std::move(ws)), m_sse(std::move(sse))
    {
    }
    std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now) override
    {
        if (o.protocol == Protocol::WebSocket && m_ws)
            return m_ws->send(slot, o, now);
        if (o.protocol == Protocol::EventStream && m_sse)
            return m_sse->send(slot, o, now);
        return m_http->send(slot, o, now);
    }
    void checkDeadlines(Nanos now) override
    {
        m_http->checkDeadlines(now);
        if (m_ws)
            m_ws->checkDeadlines(now);
        if (m_sse)
            m_sse->checkDeadlines(now);
    }
    void beforeEvents() override { m_http->beforeEvents(); }
    void afterEvents(Nanos now) override { m_http->afterEvents(now); }
    Nanos wakeBy(Nanos limit) const override { return m_http->wakeBy(limit); }
    Nanos dueAt() const override { return m_http->dueAt(); }
    void onDue(Nanos now) override { m_http->onDue(now); }
    std::uint32_t openConnections() const override
    {
        return m_http->openConnections() + (m_ws ? m_ws->openConnections() : 0) +
               (m_sse ? m_sse->openConnections() : 0);
    }
    std::uint32_t maxConnections() const override { return m_http->maxConnections(); }
    std::uint64_t goaways() const override { return m_http->goaways(); }
    void close() override
    {
        m_http->close();
        if (m_ws)
            m_ws->close();
        if (m_sse)
            m_sse->close();
    }

private:
    ClientSessionsPtr m_http;
    std::unique_ptr<WsConversations> m_ws;
    std::unique_ptr<SseConversations> m_sse;
};

ClientSessionsPtr makeClientSessions(const SessionsConfig& config, EventLoop& loop, SessionListener& listener,
                                     char* readBuffer, std::size_t readBufferSize)
{
    ClientSessionsPtr http;
    if (config.http2)
        http = std::make_unique<Http2Sessions>(config, loop, listener, readBuffer, readBufferSize);
    else
        http = std::make_unique<Http1Sessions>(config, loop, listener, readBuffer, readBufferSize);
    if (!config.websocket && !config.eventStream) // stream steps have HTTP/1.1 connections of their own
        return http;
    return std::make_unique<MixedSessions>(
        std::move(http),
        config.websocket ? std::make_unique<WsConversations>(config.slots, loop, listener, readBuffer, readBufferSize,
                                                             config.connectTimeout)
                         : nullptr,
        config.eventStream ? std::make_unique<SseConversations>(config.slots, loop, listener, readBuffer,
                                                                readBufferSize, config.connectTimeout)
                           : nullptr);
}

} // namespace stampede
