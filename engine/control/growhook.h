#pragma once
// The pool's growth (`stampede-cli run --elastic --grow COMMAND`): when the
// busiest agent's CPU (the run's agent_cpu) stays at or above a level for N
// seconds of the run in a row, the controller runs COMMAND (sh -c, on its own
// thread, never holding the run) to add agents — `kubectl scale`, a cloud
// API, a script — and the agents it adds join through --elastic's look-ups.
// The decision is made on the run's seconds as they are merged (never a wall
// clock); after a firing the count starts again once the command ended, and
// it fires again no sooner than `pause` seconds after the last firing. Each
// firing and each outcome is a "grow" event of the run. The command gets
// STAMPEDE_RUN_ID, STAMPEDE_SCENARIO, STAMPEDE_AGENTS (agents in the run),
// STAMPEDE_AGENT_CPU (percent) and STAMPEDE_GROW_COUNT (1 for the first);
// it is killed with its process group after `timeout`, or when the run ends.
#include "core/clock.h"
#include "metrics/timeline.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace stampede {

struct GrowOptions
{
    std::string command;        // empty: no growth
    double cpuLevel = 0.9;      // a share of the agent's cores, 0..1 (--grow-at 90%)
    std::uint32_t seconds = 10; // in a row (--grow-after 10s)
    std::uint32_t pause = 60;   // seconds from one firing to the next, at least
    Nanos timeout = 120 * kNanosPerSecond;
};

// "90%" or "0.9" into a share 0..1; "10s" or "10" into whole seconds (1..3600); false with `error`.
bool parseGrowLevel(const std::string& text, double& level, std::string& error);
bool parseGrowSeconds(const std::string& text, std::uint32_t& seconds, std::string& error);

class GrowHook
{
public:
    GrowHook(GrowOptions options, std::string runId, std::string scenario);
    ~GrowHook(); // kills a command still running and waits for it
    GrowHook(const GrowHook&) = delete;
    GrowHook& operator=(const GrowHook&) = delete;

    // One merged second: its busiest agent's CPU and the agents in the run.
    // The events of this second: a firing, and the outcome of a command that
    // ended since the last call.
    std::vector<RunEvent> onSecond(std::uint32_t second, double agentCpu, std::size_t agents);
    // The run ended: a command still running is killed; its outcome, if any is left to say.
    std::vector<RunEvent> finish(double atS);
    std::uint32_t firings() const { return m_firings; }

private:
    struct Running;
    std::vector<RunEvent> ended(double atS);

    GrowOptions m_options;
    std::string m_runId, m_scenario;
    std::uint32_t m_above = 0; // seconds in a row at or above the level
    std::uint32_t m_firings = 0;
    std::int64_t m_lastFired = -1; // the second of the last firing
    std::unique_ptr<Running> m_running;
};

} // namespace stampede
