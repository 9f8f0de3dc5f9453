#pragma once
// One engine process's run: starts the workers, merges their per-second
// metrics exactly (histograms merged, never percentiles averaged) as each
// second completes on every worker, and keeps the whole-run totals.
#include "core/shareddata.h"
#include "flow/rendezvous.h"
#include "metrics/runmetrics.h"
#include "metrics/timeline.h"
#include "plan/scenarioplan.h"

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace stampede {

class Worker;
struct WorkerSetup;

// The most a run's planned level may be scaled by (a capacity search climbs
// from its start rate to at most this many times it).
constexpr double kMaxLevelFactor = 100000;
// The most shares a run may be split into (--shares).
constexpr std::uint32_t kMaxShares = 1024;

struct EngineSlice
{
    std::uint32_t index = 0; // this engine among `count` engines of the run
    std::uint32_t count = 1;
    // The run split into more shares than engines: these too are this
    // engine's from the start (each a share as `index` is).
    std::vector<std::uint32_t> more;
    // An engine that joins a running run: the run is `elapsed` old when this
    // engine starts, and its shares begin with second `fromSecond` (0: with the run).
    Nanos elapsed = 0;
    std::uint32_t fromSecond = 0;
};

class RunEngine
{
public:
    using SecondCallback = std::function<void(const IntervalMetrics& second, const SecondSummary& summary)>;

    // `clock` (default: the steady clock) times the run; it outlives the engine.
    explicit RunEngine(const ScenarioPlan& plan, EngineSlice slice = {}, const Clock* clock = nullptr);
    // Runs to the end of the plan or until stop(); calls `onSecond` on this
    // thread as each second completes on every worker.
    RunResult run(const SecondCallback& onSecond = {});
    // Thread-safe; asks the workers to stop issuing requests and wind down.
    void stop() { m_stop.store(true); }
    // The run's rendezvous points (null when it has none): on several engines
    // the controller releases them (releaseRendezvous); the engine tells the
    // caller of each arrival through the board's observer.
    RendezvousBoard* rendezvous() { return m_rendezvous.get(); }
    // Where the run's shared data is asked (before run(); the access outlives the engine's run): by default, when
    // the plan uses it, a store of the engine's own (a run on one engine).
    void setShared(SharedAccess* access) { m_shared = access; }
    // Thread-safe; scales the planned level (rate or users) from now on.
    void adjust(double factor) { m_levelFactor.store(factor < 0 ? 0 : factor); }
    // The clock that times the run (its workers' sends, seconds and lease).
    const Clock& clock() const { return m_clock; }
    // Thread-safe; the load may go on until `until` on clock() and
    // not after, unless the lease is renewed (an agent renews it each time its
    // controller speaks). Workers check it before sending and after each wait,
    // so a process frozen past its lease sends nothing when it thaws: its
    // schedule is thrown away. 0 (the default): no lease.
    void renewLease(Nanos until) { m_lease.store(until); }
    // Thread-safe; from the next second on, this engine also runs engine
    // `index`'s share of the run (a lost engine's: its rate, its data slice,
    // its increment stride, its users), on as many workers as it has of its
    // own. False when `index` is no other engine's share of this run.
    bool adopt(std::uint32_t index);
    // Thread-safe, while run() runs; this engine gives share `index` (one it
    // runs) to another engine: it sends none of its arrivals due from the
    // start of second `fromSecond` on, or of the first second that starts
    // more than 20 ms from now if that is later. Returns the second applied
    // (0: `index` is not a share this engine runs, or the run is not running).
    std::uint32_t handOver(std::uint32_t index, std::uint32_t fromSecond);

private:
    struct Running; // what run() keeps while the workers run
    void addWorkers(const ScenarioPlan& scenario, const WorkerSetup& common, std::uint64_t seed,
                    std::vector<std::unique_ptr<Worker>>& workers, std::uint32_t share) const;
    void takeOver(Running& r);

    const ScenarioPlan& m_plan;
    EngineSlice m_slice;
    SteadyClock m_steady;
    const Clock& m_clock;
    std::atomic<bool> m_stop{false};
    std::atomic<double> m_levelFactor{1.0};
    std::atomic<Nanos> m_lease{0};
    std::atomic<bool> m_stepStoppedRun{false}; // a step's onError stopRun: every worker ends as at the plan's end
    std::unique_ptr<RendezvousBoard> m_rendezvous;
    std::unique_ptr<LocalSharedAccess> m_ownShared;
    SharedAccess* m_shared = nullptr;
    std::mutex m_adoptMutex;
    std::vector<std::uint32_t> m_adopt; // shares to take over at the next turn of run()'s loop
    Running* m_running = nullptr;       // while run()'s loop runs (under m_adoptMutex)
    // Under m_adoptMutex: the shares this engine runs (or will, adopted), and
    // each share's release time, read by its workers (kept for the whole run:
    // a worker of a share handed over and taken back still reads its own).
    std::vector<std::uint32_t> m_shares;
    std::vector<std::unique_ptr<std::atomic<Nanos>>> m_releases;
    std::map<std::uint32_t, std::atomic<Nanos>*> m_releaseOf;
    std::atomic<Nanos>* freshRelease(std::uint32_t share);
};

} // namespace stampede
