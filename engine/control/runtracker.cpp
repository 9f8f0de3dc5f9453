#include "runtracker.h"

#include "stampede/v1/control.pb.h"
#include "wire/snapshotcodec.h"

#include <algorithm>

namespace stampede {

RunTracker::RunTracker(std::vector<std::string> agentNames, std::size_t stepCount, const Clock& clock, Policy policy)
    : m_stepCount(stepCount), m_clock(clock), m_policy(policy), m_start(clock.now())
{
    for (auto& name : agentNames) {
        Agent a;
        a.name = std::move(name);
        a.lastHeard = m_start;
        a.lastSnapshot = m_start;
        m_agents.push_back(std::move(a));
    }
}

std::size_t RunTracker::addAgent(std::string name, std::uint32_t fromSecond)
{
    Agent a;
    a.name = std::move(name);
    a.lastHeard = m_clock.now();
    a.lastSnapshot = a.lastHeard;
    a.lastSecond = fromSecond ? fromSecond - 1 : 0;
    m_agents.push_back(std::move(a));
    return m_agents.size() - 1;
}

double RunTracker::secondsSinceStart() const
{
    return double(m_clock.now() - m_start) / double(kNanosPerSecond);
}

void RunTracker::addEvent(const std::string& kind, const std::string& agent, const std::string& detail)
{
    m_events.push_back({secondsSinceStart(), kind, agent, detail, 0, 0});
}

void RunTracker::heard(std::size_t agent, Nanos at)
{
    Agent& a = m_agents[agent];
    a.lastHeard = std::max(a.lastHeard, at);
}

void RunTracker::snapshot(std::size_t agent, const v1::Snapshot& s, Nanos at)
{
    Agent& a = m_agents[agent];
    if (a.done || a.endedAfterLoss)
        return; // nothing follows a final snapshot
    if (a.lost)
        return lateSnapshot(a, s);
    heard(agent, at);
    a.lastSnapshot = std::max(a.lastSnapshot, at);
    if (s.final()) {
        a.done = true;
        if (!s.error().empty()) {
            // an engine that failed did not run its share: the run is not the one planned
            addEvent("agent_error", a.name, s.error());
            if (!m_aborted) {
                m_aborted = true;
                addEvent("run_aborted", a.name, "an engine failed: " + s.error());
            }
        }
        for (const auto& n : s.notes()) { // what the engine saw: at its own time
            m_events.push_back({n.at_s(), n.kind(), a.name, n.detail(), 0, 0});
            if (n.kind() == "stopped_by_step") // a step's error stops the whole run, not one engine
                m_stepStopped = true;
        }
        if (agent == 0)
            m_values.insert(s.values().begin(), s.values().end());
    }
    if (s.steps_size() == 0)
        return;
    auto m = std::make_unique<IntervalMetrics>();
    std::string error;
    if (!decodeSnapshot(s, *m, error)) {
        addEvent("agent_error", a.name, error);
        return;
    }
    if (!a.firstSecond)
        a.firstSecond = m->second;
    a.lastSecond = std::max(a.lastSecond, m->second);
    m_pending[m->second].emplace_back(agent, std::move(m));
}

void RunTracker::lateSnapshot(Agent& a, const v1::Snapshot& s)
{
    if (s.final()) {
        a.endedAfterLoss = true;
        for (const auto& n : s.notes())
            m_events.push_back({n.at_s(), n.kind(), a.name, n.detail(), 0, 0});
    }
    // Every second it reports now is outside the results, whichever second
    // it covers: those it had not delivered by the loss were merged without it.
    IntervalMetrics m;
    std::string error;
    if (s.steps_size() == 0 || !decodeSnapshot(s, m, error))
        return;
    for (const auto& step : m.steps)
        a.sentAfterLoss += step.counters.sent;
}

std::uint64_t RunTracker::sentAfterLoss() const
{
    std::uint64_t n = 0;
    for (const auto& a : m_agents)
        n += a.sentAfterLoss;
    return n;
}

void RunTracker::reportLateLoad()
{
    for (const auto& a : m_agents)
        if (a.sentAfterLoss)
            addEvent("sent_after_loss", a.name,
                     std::to_string(a.sentAfterLoss) +
                         " requests the agent reported after it was declared lost (not in the results)");
}

std::vector<std::size_t> RunTracker::checkHealth()
{
    std::vector<std::size_t> lost;
    const Nanos now = m_clock.now();
    for (std::size_t i = 0; i < m_agents.size(); ++i) {
        Agent& a = m_agents[i];
        const bool silent = now - a.lastHeard >= m_policy.lossTimeout;
        const bool stalled = m_policy.snapshotStall > 0 && now - a.lastSnapshot >= m_policy.snapshotStall;
        if (a.done || a.lost || (!a.gone && !silent && !stalled))
            continue;
        a.lost = true;
        a.lostAt = now;
        lost.push_back(i);
        m_events.push_back({secondsSinceStart(), "agent_lost", a.name,
                            a.gone    ? std::string("its process is gone (its stream broke and its port refuses)")
                            : !silent ? "it answers but sent no snapshot for " +
                                            std::to_string(m_policy.snapshotStall / kNanosPerMilli) +
                                            " ms (its stream's writes fail)"
                                      : "no word for " + std::to_string(m_policy.lossTimeout / kNanosPerMilli) + " ms",
                            a.firstSecond, a.lastSecond});
        if (m_policy.abortOnLoss && !m_aborted) {
            m_aborted = true;
            addEvent("run_aborted", a.name, "an agent was lost and the policy is abort");
        }
    }
    return lost;
}

std::vector<MergedSecond> RunTracker::takeReady(bool all)
{
    std::vector<MergedSecond> ready;
    while (!m_pending.empty()) {
        const std::uint32_t s = m_pending.begin()->first;
        const bool complete = std::all_of(m_agents.begin(), m_agents.end(),
                                          [s](const Agent& a) { return a.done || a.lost || a.lastSecond >= s; });
        if (!complete && !all)
            break;
        MergedSecond out;
        out.parts = std::move(m_pending.begin()->second);
        m_pending.erase(m_pending.begin());
        out.merged = std::make_unique<IntervalMetrics>();
        out.merged->second = s;
        out.merged->steps.resize(m_stepCount);
        for (const auto& part : out.parts)
            out.merged->merge(*part.second);
        ready.push_back(std::move(out));
    }
    return ready;
}

bool RunTracker::ended() const
{
    return std::all_of(m_agents.begin(), m_agents.end(), [](const Agent& a) { return a.done || a.lost; });
}

} // namespace stampede
