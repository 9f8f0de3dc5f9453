#include "growhook.h"

#include "core/number.h"
#include "rollbackcommand.h"

#include <cstdio>

namespace stampede {

struct GrowHook::Running
{
    std::thread thread;
    std::atomic<bool> cancel{false};
    std::atomic<bool> done{false};
    CommandOutcome outcome; // written before `done`
};

bool parseGrowLevel(const std::string& text, double& level, std::string& error)
{
    std::string t = text;
    const bool percent = !t.empty() && t.back() == '%';
    if (percent)
        t.pop_back();
    double v = 0;
    if (!parseDecimal(t, "--grow-at", 0, percent ? 100 : 1, v, error)) {
        error = "--grow-at: \"" + text + "\" is not a CPU level (give 90% or 0.9)";
        return false;
    }
    level = percent ? v / 100 : v;
    return true;
}

bool parseGrowSeconds(const std::string& text, std::uint32_t& seconds, std::string& error)
{
    std::string t = text;
    if (!t.empty() && t.back() == 's')
        t.pop_back();
    std::uint64_t v = 0;
    if (!parseWhole(t, "--grow-after", 1, 3600, v, error)) {
        error = "--grow-after: \"" + text + "\" is not a number of seconds from 1 to 3600 (give 10s)";
        return false;
    }
    seconds = std::uint32_t(v);
    return true;
}

GrowHook::GrowHook(GrowOptions options, std::string runId, std::string scenario)
    : m_options(std::move(options)), m_runId(std::move(runId)), m_scenario(std::move(scenario))
{
}

GrowHook::~GrowHook()
{
    finish(0);
}

std::vector<RunEvent> GrowHook::ended(double atS)
{
    if (!m_running || !m_running->done)
        return {};
    if (m_running->thread.joinable())
        m_running->thread.join();
    RunEvent e{atS, "grow", "", "--grow: " + m_running->outcome.text(), 0, 0};
    m_running.reset();
    return {e};
}

std::vector<RunEvent> GrowHook::onSecond(std::uint32_t second, double agentCpu, std::size_t agents)
{
    std::vector<RunEvent> out = ended(double(second));
    if (m_options.command.empty())
        return out;
    m_above = agentCpu >= m_options.cpuLevel && !m_running ? m_above + 1 : 0;
    const bool rested = m_lastFired < 0 || std::int64_t(second) - m_lastFired >= std::int64_t(m_options.pause);
    if (m_above < m_options.seconds || !rested)
        return out;
    m_above = 0;
    m_lastFired = second;
    ++m_firings;
    char cpu[16];
    std::snprintf(cpu, sizeof cpu, "%.0f", agentCpu * 100);
    char level[16];
    std::snprintf(level, sizeof level, "%.0f", m_options.cpuLevel * 100);
    out.push_back({double(second), "grow", "",
                   "the busiest agent's CPU was at or above " + std::string(level) + " % for " +
                       std::to_string(m_options.seconds) + " s (" + cpu + " % now, " + std::to_string(agents) +
                       (agents == 1 ? " agent" : " agents") + "): running --grow (firing " + std::to_string(m_firings) +
                       ")",
                   0, 0});
    m_running = std::make_unique<Running>();
    std::vector<std::pair<std::string, std::string>> env{{"STAMPEDE_RUN_ID", m_runId},
                                                         {"STAMPEDE_SCENARIO", m_scenario},
                                                         {"STAMPEDE_AGENTS", std::to_string(agents)},
                                                         {"STAMPEDE_AGENT_CPU", cpu},
                                                         {"STAMPEDE_GROW_COUNT", std::to_string(m_firings)}};
    Running* r = m_running.get();
    r->thread = std::thread([r, command = m_options.command, env = std::move(env), timeout = m_options.timeout] {
        r->outcome = runCommand(command, env, timeout, &r->cancel);
        r->done = true;
    });
    return out;
}

std::vector<RunEvent> GrowHook::finish(double atS)
{
    if (!m_running)
        return {};
    m_running->cancel = true;
    m_running->thread.join();
    return ended(atS);
}

} // namespace stampede
