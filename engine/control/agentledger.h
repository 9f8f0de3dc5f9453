#pragma once
#include "metrics/runmetrics.h"
#include "metrics/timeline.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace stampede {

// What each agent carried and how it fared, second by second; an agent over
// 90 % CPU or whose send lag passes 10 ms is an event (once each): the
// generator, not the target, may have limited the run.
class AgentLedger
{
public:
    // Each agent's name and the shares it runs from the start.
    AgentLedger(const std::vector<std::string>& names, const std::vector<std::vector<std::uint32_t>>& shares)
    {
        for (std::size_t i = 0; i < names.size(); ++i)
            join(names[i], shares[i], 0);
    }
    // An agent in the run from `second` (0: the start) with `shares`.
    void join(const std::string& name, const std::vector<std::uint32_t>& shares, std::uint32_t second)
    {
        AgentReport& a = m_agents.emplace_back();
        a.name = name;
        for (const std::uint32_t share : shares)
            a.shares.push_back(share + 1);
        a.joinedAt = second;
        m_sendLag.emplace_back();
        m_cpuSum.push_back(0);
    }
    // Returns the detail of an event to add (empty: none).
    std::string add(std::size_t agent, const IntervalMetrics& part)
    {
        AgentReport& a = m_agents[agent];
        LatencyHistogram lag;
        for (const StepMetrics& st : part.steps) {
            a.sent += st.counters.sent;
            a.requests += st.counters.requests;
            lag.merge(st.sendLag);
        }
        m_sendLag[agent].merge(lag);
        a.connectionsMax = std::max(a.connectionsMax, part.openConnections);
        if (!part.health.known())
            return {};
        ++a.seconds;
        m_cpuSum[agent] += part.health.cpu;
        a.cpuMax = std::max(a.cpuMax, part.health.cpu);
        a.rssMaxBytes = std::max(a.rssMaxBytes, part.health.rssBytes);
        a.loopLagMaxMs = std::max(a.loopLagMaxMs, double(part.health.loopLag) / 1e6);
        const double lagP99 = lag.percentile(99) / 1000.0;
        if (part.health.cpu <= kLimitedCpu && lagP99 <= kLimitedSendLagMs)
            return {};
        if (a.limitedSeconds++)
            return {};
        char detail[256];
        std::snprintf(detail, sizeof detail,
                      "in second %u: CPU %.0f %% of its cores, send lag p99 %.1f ms: the generator, not the target, "
                      "may have limited this run",
                      part.second, part.health.cpu * 100, lagP99);
        return detail;
    }
    void shareTaken(std::size_t agent, std::uint32_t share) { m_agents[agent].shares.push_back(share + 1); }
    void lost(std::size_t agent) { m_agents[agent].lost = true; }
    std::vector<AgentReport> reports()
    {
        for (std::size_t i = 0; i < m_agents.size(); ++i) {
            AgentReport& a = m_agents[i];
            a.cpuMean = a.seconds ? m_cpuSum[i] / a.seconds : 0;
            a.sendLagP99Ms = m_sendLag[i].percentile(99) / 1000.0;
        }
        return m_agents;
    }

    static constexpr double kLimitedCpu = 0.9;
    static constexpr double kLimitedSendLagMs = 10;

private:
    std::vector<AgentReport> m_agents;
    std::vector<LatencyHistogram> m_sendLag;
    std::vector<double> m_cpuSum; // per agent: the sum of its seconds' CPU shares
};

} // namespace stampede
