#include "iterationtrace.h"

#include "core/tracecontext.h"

#include <random>

namespace stampede {

IterationTrace::IterationTrace(const ScenarioPlan& plan, std::uint32_t users)
    : m_on(plan.trace), m_newIds(plan.newTraceIds),
      m_random(std::random_device{}() ^ (std::uint64_t(std::random_device{}()) << 32))
{
    if (!m_on)
        return;
    m_users.resize(users);
    for (std::size_t i = 0; i < plan.variables.size(); ++i)
        if (plan.variables[i].name == "$traceId" && plan.variables[i].used && !plan.variables[i].extracted)
            m_variable = int(i);
}

std::string_view IterationTrace::replay(std::uint32_t user, const TrafficRecord& record, std::uint32_t copy)
{
    if (!m_on)
        return {};
    std::string_view recorded;
    for (const auto& [name, value] : record.headers)
        if (name == "traceparent")
            recorded = traceIdOf(value);
    m_traceparent.assign("00-");
    if (recorded.empty() || m_newIds)
        appendTraceHex(m_traceparent, m_random, 32);
    else if (copy == 0)
        m_traceparent.append(recorded);
    else
        m_traceparent.append(derivedTraceId(recorded, copy));
    m_traceparent += '-';
    appendTraceHex(m_traceparent, m_random, 16);
    m_traceparent += "-01";
    m_users[user].assign(m_traceparent, 3, 32);
    return m_traceparent;
}

} // namespace stampede
