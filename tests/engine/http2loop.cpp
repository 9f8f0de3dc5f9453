#include "http2loop.h"

#include "net/transport.h"

#include <algorithm>
#include <cstring>

using namespace stampede;

Http2Loop::Http2Loop(std::uint16_t port, std::uint32_t streams, std::uint32_t slowSlot)
    : m_streams(streams), m_slowSlot(slowSlot), m_authority("127.0.0.1:" + std::to_string(port))
{
    std::string error;
    m_endpoint = *Endpoint::resolve("127.0.0.1", port, error);
    m_fast = rendered("/fast");
    m_slow = rendered("/slow");
    SessionsConfig c;
    c.http2 = true;
    c.slots = streams;
    c.streams = streams;
    m_sessions = makeClientSessions(c, m_loop, *this, m_buffer.data(), m_buffer.size());
}

void Http2Loop::send(std::uint32_t slot, Nanos now)
{
    Outgoing o;
    o.request = slot == m_slowSlot ? &m_slow : &m_fast;
    o.endpoint = &m_endpoint;
    o.timeout = 10 * kNanosPerSecond;
    m_sessions->send(slot, o, now);
}

Nanos Http2Loop::sendAll()
{
    const Nanos now = SteadyClock::monotonicNow();
    for (std::uint32_t slot = 0; slot < m_streams; ++slot)
        send(slot, now);
    return now;
}

// One turn of a worker's loop: wait (no later than the sessions ask), the
// events, then what the sessions write after them.
void Http2Loop::turn(Nanos now, Nanos until)
{
    const Nanos wakeAt = m_sessions->wakeBy(std::min(until, now + 10 * kNanosPerMilli));
    const int n = m_loop.wait(std::max<Nanos>(0, wakeAt - now));
    m_sessions->beforeEvents();
    dispatchEvents(m_loop, n, SteadyClock::monotonicNow());
    m_sessions->afterEvents(SteadyClock::monotonicNow());
}

void Http2Loop::onAnswer(std::uint32_t tag, const Answer& a, Nanos now)
{
    if (a.failed || a.status != 200) {
        failures.push_back(std::string(a.why) + " status " + std::to_string(a.status));
        return;
    }
    if (tag == m_slowSlot) {
        slowAnswered = now;
        return;
    }
    ++fastAnswers;
    if (resend)
        send(tag, now);
}

RenderedRequest Http2Loop::rendered(const char* path) const
{
    RenderedRequest r;
    r.values = {"GET", "http", m_authority, path};
    static const char* const names[] = {":method", ":scheme", ":authority", ":path"};
    for (std::size_t i = 0; i < r.values.size(); ++i)
        r.nv.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(names[i])),
                        reinterpret_cast<std::uint8_t*>(r.values[i].data()), std::strlen(names[i]), r.values[i].size(),
                        NGHTTP2_NV_FLAG_NONE});
    return r;
}
