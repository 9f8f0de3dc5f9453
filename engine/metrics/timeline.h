#pragma once
// The run's timeline as every room after the engine keeps it (the controller,
// storage, reports, outputs): one small summary per second, the events on the
// time axis, and the whole run's result. Value types only.
#include "metrics/runmetrics.h"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace stampede {

// What one second of the run looked like, kept for the whole run (small).
struct SecondSummary
{
    std::uint32_t second = 0;
    std::uint64_t planned = 0; // a replay's requests due in this second (0 otherwise)
    std::uint64_t sent = 0;
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::uint64_t late = 0;
    std::uint64_t dropped = 0;
    double minMs = 0; // beside the percentiles: the fastest answer and the mean
    double meanMs = 0;
    double p50Ms = 0;
    double p99Ms = 0;
    double maxMs = 0;
    double cpu = 0;                 // the busiest engine's CPU share (0..1; 0: not known)
    double loopLagMs = 0;           // the engines' longest event-loop lag
    std::uint64_t checksPassed = 0; // check judgements of the second, over every step's checks
    std::uint64_t checksFailed = 0;
    std::map<std::string, double> server; // the target's own metrics read in this second (server:NAME)
};

// Something that happened during a run, for the time axis and the report.
struct RunEvent
{
    double atS = 0;   // seconds after the start
    std::string kind; // "agent_lost", "run_aborted", "agent_error"
    std::string agent;
    std::string detail;
    std::uint32_t fromSecond = 0; // for agent_lost: the seconds its data covers
    std::uint32_t toSecond = 0;
};

// What one agent (engine) of a run carried and how it fared: the shares of
// the run it ran (its own, and those it took over from lost agents) and its
// health over its seconds.
struct AgentReport
{
    std::string name;
    std::vector<std::uint32_t> shares; // 1-based: share k of the run's engines
    std::uint32_t joinedAt = 0;        // the second it joined the running run (--elastic; 0: from the start)
    bool lost = false;
    std::uint64_t sent = 0;
    std::uint64_t requests = 0;
    std::uint32_t seconds = 0;      // seconds it reported
    double cpuMean = 0, cpuMax = 0; // shares of its cores (0..1)
    std::uint64_t rssMaxBytes = 0;
    double loopLagMaxMs = 0;
    double sendLagP99Ms = 0; // intended start to send, over its seconds (paced models)
    std::uint32_t connectionsMax = 0;
    std::uint32_t limitedSeconds = 0; // seconds its own figures said it was saturated (AgentLedger::limitedBy)
    std::string limitedBy;            // which figure said so, the first time
};

struct RunResult
{
    bool ok = false;      // false: the run could not be carried out
    bool aborted = false; // stopped early by policy (an engine was lost)
    bool stopped = false; // stopped before its end when asked (Stop, Ctrl-C)
    std::string error;
    std::int64_t elapsed = 0;        // nanoseconds from the start to the last worker's end
    std::uint64_t sentAfterLoss = 0; // by engines after they were declared lost: not in `total`
    IntervalMetrics total;           // per step, over the whole run
    std::vector<SecondSummary> timeline;
    std::vector<RunEvent> events;
    // The values the first virtual user extracted, as its last iteration left
    // them (a plan's setup hands them to every scenario).
    std::map<std::string, std::string> values;
    std::vector<AgentReport> agents; // a controller's run: each agent's part
    // Per step, the names of tests its scripts ran that the plan did not know: its checks after the plan's
    // (control/namedtests.h).
    std::vector<std::vector<std::string>> testNames;
};

// A second's summary from its merged metrics (percentiles over every step).
SecondSummary summarizeSecond(const IntervalMetrics& m);

} // namespace stampede
