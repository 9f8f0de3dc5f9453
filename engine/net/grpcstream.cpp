#include "grpcstream.h"

#include "core/grpcprefix.h"

namespace stampede {

std::uint32_t GrpcStreamCall::start(const CallStreamPlan* plan, std::string_view body, Nanos now)
{
    m_plan = plan;
    m_ends.clear();
    m_outAt.clear();
    m_released = 0;
    m_lastRelease = now;
    m_in = m_awaited = 0;
    m_firstAt = 0;
    m_answer.clear();
    m_latencies.clear();
    // the body is the renderer's: framed messages, each a 5-byte prefix and its length's bytes
    std::size_t at = 0;
    while (body.size() - at >= 5) {
        at = std::min(body.size(), at + kGrpcPrefix + grpcPrefixLength(body.substr(at)));
        m_ends.push_back(at);
    }
    if (at < body.size() || m_ends.empty())
        m_ends.push_back(body.size());
    if (!plan->paced()) {
        m_released = std::uint32_t(m_ends.size());
        m_outAt.assign(m_ends.size(), now);
        return m_released;
    }
    m_released = 1;
    m_outAt.push_back(now);
    return 1;
}

Nanos GrpcStreamCall::nextRelease() const
{
    if (!m_plan || m_released >= m_ends.size())
        return kNever;
    if (m_plan->requestReply && m_in < m_released)
        return kNever; // a reply first: onMessage releases the next
    return m_lastRelease + m_plan->interval;
}

std::uint32_t GrpcStreamCall::release(Nanos now)
{
    std::uint32_t n = 0;
    for (Nanos due = nextRelease(); due != kNever && due <= now; due = nextRelease()) {
        m_outAt.push_back(now);
        m_lastRelease = m_plan->interval ? due : now; // an interval keeps its rhythm when the loop wakes late
        ++m_released;
        ++n;
    }
    return n;
}

bool GrpcStreamCall::onMessage(std::string_view frame, Nanos now)
{
    if (!m_plan)
        return false;
    if (m_in == 0)
        m_firstAt = now;
    if (m_plan->clientStreams && m_plan->serverStreams && m_in < m_outAt.size())
        m_latencies.push_back(now - m_outAt[m_in]);
    ++m_in;
    bool awaited = true;
    if (!m_plan->match.empty()) {
        awaited =
            m_plan->codec && m_plan->codec->decode(frame, m_json) && m_json.find(m_plan->match) != std::string::npos;
    }
    if (awaited) {
        ++m_awaited;
        m_answer.assign(frame);
    }
    return done();
}

std::string GrpcStreamCall::shortOf() const
{
    if (!m_plan || !m_plan->receive || m_awaited >= m_plan->receive)
        return {};
    return "the stream ended (OK) after " + std::to_string(m_awaited) + " of " + std::to_string(m_plan->receive) +
           " messages" + (m_plan->match.empty() ? "" : " holding \"" + m_plan->match + "\"") + " (" +
           std::to_string(m_in) + " in all)";
}

} // namespace stampede
