#include "clientsessions.h"

#include "net/http1session.h"
#include "net/http2session.h"

#include <algorithm>

namespace stampede {

namespace {

// What a step's checks, extractors, cookies and redirects read of its answers.
CaptureMode captureFor(const PlannedStep& step)
{
    return (step.needs & kNeedsBody) ? CaptureMode::All : step.needs ? CaptureMode::Head : CaptureMode::None;
}

class Http1Sessions final : public ClientSessions
{
public:
    Http1Sessions(const ScenarioPlan& plan, std::uint32_t slots, EventLoop& loop, SessionListener& listener,
                  char* buffer, std::size_t size)
        : m_connectTimeout(plan.connectTimeout)
    {
        m_sessions.reserve(slots);
        m_held.reserve(slots);
        for (std::uint32_t i = 0; i < slots; ++i) {
            m_sessions.push_back(std::make_unique<Http1Session>(loop, listener, buffer, size));
            m_sessions.back()->tag = i;
        }
    }
    void send(std::uint32_t slot, const PlannedStep& step, const RenderedRequest& r, Nanos now) override
    {
        m_sessions[slot]->submit(step.endpoint, r.wire.data(), r.wire.size(), step.noResponseBody, now, step.timeout,
                                 m_connectTimeout, m_inBatch, captureFor(step));
        if (m_inBatch)
            m_held.push_back(slot);
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
    std::vector<std::uint32_t> m_held; // slots whose request waits for the end of the batch
};

class Http2Sessions final : public ClientSessions
{
public:
    Http2Sessions(const ScenarioPlan& plan, std::uint32_t slots, EventLoop& loop, SessionListener& listener,
                  char* buffer, std::size_t size)
        : m_connectTimeout(plan.connectTimeout), m_streams(plan.streams),
          m_perServer((slots + plan.streams - 1) / plan.streams)
    {
        for (std::uint32_t c = 0; c < m_perServer * plan.endpointCount; ++c) {
            m_sessions.push_back(std::make_unique<Http2Session>(loop, listener, buffer, size, m_streams));
            m_sessions.back()->setFlushQueue(&m_held);
        }
    }
    void send(std::uint32_t slot, const PlannedStep& step, const RenderedRequest& r, Nanos now) override
    {
        m_sessions[step.endpointIndex * m_perServer + slot / m_streams]->submit(
            slot, step.endpoint, r.nv.data(), r.nv.size(), r.body.data(), r.body.size(), now, step.timeout,
            m_connectTimeout, step.grpc != nullptr, captureFor(step));
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
    std::vector<Http2Session*> m_held; // connections with requests to write after this batch
};

} // namespace

std::uint32_t slotCount(const ScenarioPlan& plan, std::uint32_t slots)
{
    return plan.http == HttpVersion::Http2 ? slots * plan.load->slotsPerConnection(plan.streams) : slots;
}

ClientSessionsPtr makeClientSessions(const ScenarioPlan& plan, std::uint32_t slots, EventLoop& loop,
                                     SessionListener& listener, char* readBuffer, std::size_t readBufferSize)
{
    if (plan.http == HttpVersion::Http2)
        return std::make_unique<Http2Sessions>(plan, slots, loop, listener, readBuffer, readBufferSize);
    return std::make_unique<Http1Sessions>(plan, slots, loop, listener, readBuffer, readBufferSize);
}

} // namespace stampede
