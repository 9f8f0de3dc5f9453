#pragma once
// One engine process's run: starts the workers, merges their per-second
// metrics exactly (histograms merged, never percentiles averaged) as each
// second completes on every worker, and keeps the whole-run totals.
#include "metrics/runmetrics.h"
#include "scenarioplan.h"

#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <vector>

namespace stampede {

// The most a run's planned level may be scaled by (a capacity search climbs
// from its start rate to at most this many times it).
constexpr double kMaxLevelFactor = 100000;

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
    double p50Ms = 0;
    double p99Ms = 0;
    double maxMs = 0;
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

struct RunResult
{
    bool ok = false;      // false: the run could not be carried out
    bool aborted = false; // stopped early by policy (an engine was lost)
    bool stopped = false; // stopped before its end when asked (Stop, Ctrl-C)
    std::string error;
    Nanos elapsed = 0;               // from the start to the last worker's end
    std::uint64_t sentAfterLoss = 0; // by engines after they were declared lost: not in `total`
    IntervalMetrics total;           // per step, over the whole run
    std::vector<SecondSummary> timeline;
    std::vector<RunEvent> events;
};

struct EngineSlice
{
    std::uint32_t index = 0; // this engine among `count` engines of the run
    std::uint32_t count = 1;
};

class RunEngine
{
public:
    using SecondCallback = std::function<void(const IntervalMetrics& second, const SecondSummary& summary)>;

    explicit RunEngine(const ScenarioPlan& plan, EngineSlice slice = {});
    // Runs to the end of the plan or until stop(); calls `onSecond` on this
    // thread as each second completes on every worker.
    RunResult run(const SecondCallback& onSecond = {});
    // Thread-safe; asks the workers to stop issuing requests and wind down.
    void stop() { m_stop.store(true); }
    // Thread-safe; scales the planned level (rate or users) from now on.
    void adjust(double factor) { m_levelFactor.store(factor < 0 ? 0 : factor); }
    // Thread-safe; the load may go on until `until` on the steady clock and
    // not after, unless the lease is renewed (an agent renews it each time its
    // controller speaks). Workers check it before sending and after each wait,
    // so a process frozen past its lease sends nothing when it thaws: its
    // schedule is thrown away. 0 (the default): no lease.
    void renewLease(Nanos until) { m_lease.store(until); }

private:
    const ScenarioPlan& m_plan;
    EngineSlice m_slice;
    std::atomic<bool> m_stop{false};
    std::atomic<double> m_levelFactor{1.0};
    std::atomic<Nanos> m_lease{0};
};

SecondSummary summarizeSecond(const IntervalMetrics& m);

} // namespace stampede
