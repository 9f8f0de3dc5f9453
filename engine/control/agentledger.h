#pragma once
#include "metrics/runmetrics.h"
#include "metrics/timeline.h"

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

namespace stampede {

// What each agent carried and how it fared, second by second; an agent whose
// own figures say it was saturated (limitedBy) is an event, once each, naming
// the figure: the generator, not the target, may have limited the run.
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
        const std::string why = limitedBy(part.health.cpu, double(part.health.loopLag) / 1e6, lagP99);
        if (why.empty())
            return {};
        if (a.limitedSeconds++)
            return {};
        a.limitedBy = why;
        return "in second " + std::to_string(part.second) + ": " + why +
               ": the generator, not the target, may have limited this run";
    }
    // Which of an engine's own figures says it was saturated in a second (empty: none): its CPU over 90 % of its
    // cores; or its send lag p99 over 10 ms while its own event loop lagged over 10 ms and it was busy (CPU over
    // 50 %). A send lag alone is no evidence: on a machine busy with other work it rises while the generator idles.
    static std::string limitedBy(double cpu, double loopLagMs, double sendLagP99Ms)
    {
        char text[160];
        if (cpu > kLimitedCpu) {
            std::snprintf(text, sizeof text, "CPU %.0f %% of its cores (over %.0f %%)", cpu * 100, kLimitedCpu * 100);
            return text;
        }
        if (sendLagP99Ms > kLimitedSendLagMs && loopLagMs > kLimitedLoopLagMs && cpu > kBusyCpu) {
            std::snprintf(text, sizeof text,
                          "send lag p99 %.1f ms with its event loop %.1f ms late at CPU %.0f %% (over %.0f ms, "
                          "%.0f ms and %.0f %%)",
                          sendLagP99Ms, loopLagMs, cpu * 100, kLimitedSendLagMs, kLimitedLoopLagMs, kBusyCpu * 100);
            return text;
        }
        return {};
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
    static constexpr double kLimitedLoopLagMs = 10;
    static constexpr double kBusyCpu = 0.5;

private:
    std::vector<AgentReport> m_agents;
    std::vector<LatencyHistogram> m_sendLag;
    std::vector<double> m_cpuSum; // per agent: the sum of its seconds' CPU shares
};

} // namespace stampede
