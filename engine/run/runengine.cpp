#include "runengine.h"

#include <cstdio>

#include "worker.h"

#include "core/descriptors.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <thread>

namespace stampede {

namespace {

// Collects the workers' seconds; a second is complete when every worker has
// delivered it or has finished.
class Collector final : public SecondSink
{
public:
    explicit Collector(std::uint32_t workers) : m_marks(workers, 0), m_done(workers, false) {}

    void deliver(std::uint32_t worker, IntervalMetricsPtr second, bool last) override
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back({worker, std::move(second), last});
        m_cv.notify_one();
    }

    // Drains the queue, merging into pending seconds; returns the seconds that
    // became complete, in order. Blocks up to `wait`.
    std::vector<IntervalMetricsPtr> take(std::chrono::milliseconds wait)
    {
        std::deque<Item> items;
        {
            std::unique_lock lock(m_mutex);
            m_cv.wait_for(lock, wait, [&] { return !m_queue.empty() || m_wake; });
            m_wake = false;
            items.swap(m_queue);
        }
        for (auto& it : items) {
            const std::uint32_t s = it.metrics->second;
            auto& slot = m_pending[s];
            if (!slot)
                slot = std::move(it.metrics);
            else
                slot->merge(*it.metrics);
            m_marks[it.worker] = s;
            if (it.last)
                m_done[it.worker] = true;
        }
        std::vector<IntervalMetricsPtr> ready;
        while (!m_pending.empty()) {
            const std::uint32_t s = m_pending.begin()->first;
            bool complete = true;
            for (std::size_t w = 0; w < m_marks.size(); ++w)
                complete &= m_done[w] || m_marks[w] >= s;
            if (!complete)
                break;
            ready.push_back(std::move(m_pending.begin()->second));
            m_pending.erase(m_pending.begin());
            m_lastReady = s;
        }
        return ready;
    }

    // A worker that joins the run (a share taken over) and delivers from second `first` on.
    void addWorker(std::uint32_t first)
    {
        m_marks.push_back(first - 1);
        m_done.push_back(false);
    }
    // take() returns now (a share to take over).
    void wake()
    {
        std::lock_guard lock(m_mutex);
        m_wake = true;
        m_cv.notify_one();
    }
    // The last second take() returned (0: none yet).
    std::uint32_t lastReady() const { return m_lastReady; }

    bool allDone() const
    {
        for (bool d : m_done)
            if (!d)
                return false;
        return true;
    }

private:
    struct Item
    {
        std::uint32_t worker;
        IntervalMetricsPtr metrics;
        bool last;
    };
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<Item> m_queue;
    std::map<std::uint32_t, IntervalMetricsPtr> m_pending;
    std::vector<std::uint32_t> m_marks;
    std::vector<bool> m_done;
    bool m_wake = false;
    std::uint32_t m_lastReady = 0;
};

} // namespace

RunEngine::RunEngine(const ScenarioPlan& plan, EngineSlice slice, const Clock* clock)
    : m_plan(plan), m_slice(slice), m_clock(clock ? *clock : m_steady)
{
    std::vector<RendezvousRule::Point> points;
    for (const PlannedStep& st : plan.steps)
        points.push_back({st.rendezvousUsers, st.rendezvousTimeout});
    auto board = std::make_unique<RendezvousBoard>(std::move(points), slice.count <= 1); // alone: it decides
    if (board->any())
        m_rendezvous = std::move(board);
}

namespace {

std::string at(double seconds)
{
    char when[32];
    std::snprintf(when, sizeof when, "%.1f s", seconds);
    return when;
}

// What the workers saw that the run's events should say: a step that stopped
// the run, a data set that ran out, a lease that expired (the first of each).
void workerEvents(const std::vector<std::unique_ptr<Worker>>& workers, const ScenarioPlan& plan, Nanos start,
                  std::vector<RunEvent>& events)
{
    const Worker* stopper = nullptr;
    for (const auto& w : workers)
        if (w->ending().stopRunAt() && (!stopper || w->ending().stopRunAt() < stopper->ending().stopRunAt()))
            stopper = w.get();
    if (stopper) {
        const double t = double(stopper->ending().stopRunAt() - start) / 1e9;
        events.push_back({t, "stopped_by_step", "",
                          "an error of step \"" + plan.steps[stopper->ending().stopRunStep()].name + "\" at " + at(t) +
                              " stopped the run (its onError is stopRun)",
                          0, 0});
    }
    for (const auto& w : workers) { // a data set in stop mode that ran out ends the run early: said, not silent
        if (w->ending().exhausted().empty())
            continue;
        const double t = double(w->ending().exhaustedAt() - start) / 1e9;
        events.push_back(
            {t, "data_exhausted", "",
             "the data set \"" + w->ending().exhausted() + "\" ran out at " + at(t) + ": no iteration started after it",
             0, 0});
        break;
    }
    for (const auto& w : workers) {
        if (!w->ending().leaseExpiredAt())
            continue;
        const double t = double(w->ending().leaseExpiredAt() - start) / 1e9;
        events.push_back({t, "lease_expired", "",
                          "the controller was not heard from in time: the load stopped at " + at(t) +
                              " and what was scheduled after was thrown away",
                          0, 0});
        break;
    }
}

// Starts the threads of workers [from, end). The descriptor table is grown
// first for every connection they open (descriptors.h): no worker stalls on
// its growth in its first second.
void startWorkers(const std::vector<std::unique_ptr<Worker>>& workers, std::vector<std::thread>& threads,
                  std::size_t from)
{
    std::size_t connections = 0;
    for (std::size_t w = from; w < workers.size(); ++w)
        connections += workers[w]->maxConnections();
    reserveDescriptors(connections + 64); // 64: the files the run opens beside them (data, logs, the link)
    for (std::size_t w = from; w < workers.size(); ++w)
        threads.emplace_back([p = workers[w].get()] { p->run(); });
}

} // namespace

// The workers of one scenario (the plan's own, or one of a plan's), its
// threads each a part of the whole run's load: this engine's own share's, or
// `share`'s (another engine's, taken over).
void RunEngine::addWorkers(const ScenarioPlan& scenario, const WorkerSetup& common, std::uint64_t seed,
                           std::vector<std::unique_ptr<Worker>>& workers, std::uint32_t share) const
{
    const std::uint32_t threads = std::max(1u, scenario.threads);
    for (std::uint32_t t = 0; t < threads; ++t) {
        WorkerSetup ws = common;
        ws.plan = &scenario;
        ws.index = std::uint32_t(workers.size());
        ws.part = share * threads + t;
        ws.parts = m_slice.count * threads;
        // Connections (open model) or users (closed model) of the whole run
        // are shared by all parts: part p owns the users with global index
        // p mod parts, and an even share of the connections.
        ws.slots = scenario.load->slotsOf(std::max(1u, scenario.connections), ws.part, ws.parts);
        ws.seed = seed + workers.size() * 0x9E3779B9ull;
        workers.push_back(std::make_unique<Worker>(ws));
    }
}

struct RunEngine::Running
{
    std::vector<std::unique_ptr<Worker>> workers;
    std::vector<std::thread> threads;
    std::unique_ptr<Collector> collector;
    std::vector<std::pair<const ScenarioPlan*, WorkerSetup>> scenarios; // each scenario's common setup
    std::uint64_t seed = 0;
    Nanos start = 0;
    std::vector<std::pair<std::uint32_t, Nanos>> joined; // shares taken over, and when their workers joined
};

bool RunEngine::adopt(std::uint32_t index)
{
    if (index >= m_slice.count)
        return false;
    std::lock_guard lock(m_adoptMutex);
    if (std::find(m_shares.begin(), m_shares.end(), index) != m_shares.end())
        return false; // already this engine's
    m_shares.push_back(index);
    m_adopt.push_back(index);
    if (m_running)
        m_running->collector->wake();
    return true;
}

std::uint32_t RunEngine::handOver(std::uint32_t index, std::uint32_t fromSecond)
{
    std::lock_guard lock(m_adoptMutex);
    const auto it = std::find(m_shares.begin(), m_shares.end(), index);
    const auto rel = m_releaseOf.find(index);
    if (!m_running || it == m_shares.end() || rel == m_releaseOf.end())
        return 0; // not running, or a share adopted whose workers are not built yet
    const Nanos soonest = m_clock.now() + 20 * kNanosPerMilli;
    std::uint32_t second = std::max(1u, fromSecond);
    if (m_running->start + Nanos(second - 1) * kNanosPerSecond < soonest)
        second = std::uint32_t((soonest - m_running->start) / kNanosPerSecond) + 2;
    rel->second->store(m_running->start + Nanos(second - 1) * kNanosPerSecond);
    m_shares.erase(it);
    m_releaseOf.erase(rel);
    return second;
}

// Under m_adoptMutex: a new release time for `share`'s workers about to be built.
std::atomic<Nanos>* RunEngine::freshRelease(std::uint32_t share)
{
    m_releases.push_back(std::make_unique<std::atomic<Nanos>>(0));
    return m_releaseOf[share] = m_releases.back().get();
}

// The shares adopt() asked for: their workers join now (or, if this engine
// has already given out the current second, at the next), as the lost
// engine's would have gone on from then, and the collector waits for them
// from that second on.
void RunEngine::takeOver(Running& r)
{
    std::vector<std::uint32_t> shares;
    {
        std::lock_guard lock(m_adoptMutex);
        shares.swap(m_adopt);
    }
    if (shares.empty() || r.collector->allDone())
        return;
    Nanos joinAt = m_clock.now();
    auto first = std::uint32_t((joinAt - r.start) / kNanosPerSecond) + 1;
    if (first <= r.collector->lastReady()) {
        first = r.collector->lastReady() + 1;
        joinAt = r.start + Nanos(first - 1) * kNanosPerSecond;
    }
    for (const std::uint32_t share : shares) {
        const std::size_t before = r.workers.size();
        std::atomic<Nanos>* release = nullptr;
        {
            std::lock_guard lock(m_adoptMutex);
            release = freshRelease(share);
        }
        try {
            for (auto [scenario, common] : r.scenarios) {
                common.joinAt = joinAt;
                common.releaseAt = release;
                addWorkers(*scenario, common, r.seed ^ (std::uint64_t(share) << 40), r.workers, share);
            }
        } catch (const std::exception&) {
            r.workers.resize(before); // a share that cannot be built (its data slice): not taken
            std::lock_guard lock(m_adoptMutex);
            m_shares.erase(std::remove(m_shares.begin(), m_shares.end(), share), m_shares.end());
            m_releaseOf.erase(share);
            continue;
        }
        for (std::size_t w = before; w < r.workers.size(); ++w)
            r.collector->addWorker(first);
        startWorkers(r.workers, r.threads, before);
        r.joined.emplace_back(share, joinAt);
    }
}

RunResult RunEngine::run(const SecondCallback& onSecond)
{
    RunResult result;
    result.total.steps.resize(m_plan.steps.size());
    result.total.groups.resize(m_plan.groups.size());
    std::random_device rd;
    Running r;
    r.seed = (std::uint64_t(rd()) << 32) ^ rd();
    r.start = m_clock.now() - m_slice.elapsed;
    std::vector<std::uint32_t> shares{m_slice.index};
    for (const std::uint32_t s : m_slice.more)
        if (s < m_slice.count && std::find(shares.begin(), shares.end(), s) == shares.end())
            shares.push_back(s);
    try {
        // every scenario's workers write the run's steps and groups at their places
        std::uint32_t threads = 0;
        for (const ScenarioPlan& sc : m_plan.scenarios)
            threads += std::max(1u, sc.threads);
        r.collector = std::make_unique<Collector>(std::uint32_t(shares.size()) *
                                                  (m_plan.scenarios.empty() ? std::max(1u, m_plan.threads) : threads));
        WorkerSetup common;
        common.start = r.start;
        if (m_slice.fromSecond > 1) // joined a running run: from the start of that second
            common.joinAt = r.start + Nanos(m_slice.fromSecond - 1) * kNanosPerSecond;
        common.clock = &m_clock;
        common.sink = r.collector.get();
        common.stop = &m_stop;
        common.levelFactor = &m_levelFactor;
        common.lease = &m_lease;
        common.stopRun = &m_stepStoppedRun;
        common.rendezvous = m_rendezvous.get();
        if (m_plan.sharedData && !m_shared) {
            m_ownShared = std::make_unique<LocalSharedAccess>();
            m_shared = m_ownShared.get();
        }
        common.shared = m_plan.sharedData ? m_shared : nullptr;
        if (m_plan.scenarios.empty())
            r.scenarios.emplace_back(&m_plan, common);
        for (std::size_t k = 0; k < m_plan.scenarios.size(); ++k) {
            WorkerSetup ws = common;
            ws.startAfter = m_plan.places[k].startAfter;
            ws.stepOffset = m_plan.places[k].firstStep;
            ws.groupOffset = m_plan.places[k].firstGroup;
            ws.steps = std::uint32_t(m_plan.steps.size());
            ws.groups = std::uint32_t(m_plan.groups.size());
            r.scenarios.emplace_back(&m_plan.scenarios[k], ws);
        }
        std::lock_guard lock(m_adoptMutex);
        for (const std::uint32_t share : shares) {
            std::atomic<Nanos>* release = freshRelease(share);
            m_shares.push_back(share);
            for (auto [scenario, setup] : r.scenarios) {
                setup.releaseAt = release;
                addWorkers(*scenario, setup, share == m_slice.index ? r.seed : r.seed ^ (std::uint64_t(share) << 40),
                           r.workers, share);
            }
        }
    } catch (const std::exception& e) {
        result.error = e.what();
        return result;
    }
    startWorkers(r.workers, r.threads, 0);
    auto consume = [&](std::vector<IntervalMetricsPtr> ready) {
        for (auto& sec : ready) {
            const SecondSummary s = summarizeSecond(*sec);
            result.timeline.push_back(s);
            if (onSecond)
                onSecond(*sec, s);
            result.total.accumulate(*sec);
        }
    };
    {
        std::lock_guard lock(m_adoptMutex);
        m_running = &r;
    }
    while (!r.collector->allDone()) {
        takeOver(r);
        consume(r.collector->take(std::chrono::milliseconds(100)));
    }
    {
        std::lock_guard lock(m_adoptMutex);
        m_running = nullptr;
    }
    consume(r.collector->take(std::chrono::milliseconds(0)));
    for (auto& t : r.threads)
        t.join();
    workerEvents(r.workers, m_plan, r.start, result.events);
    for (const auto& [share, joinAt] : r.joined) { // when a share taken over really went on here (not when asked)
        const double t = double(joinAt - r.start) / 1e9;
        result.events.push_back({t, "share_joined", "",
                                 "share " + std::to_string(share + 1) + " of " + std::to_string(m_slice.count) +
                                     " went on here from " + at(t) +
                                     ": what it had due between its engine's loss and then was not sent",
                                 0, 0});
    }
    if (!r.workers.empty())
        result.values = r.workers.front()->extractedValues();
    // The workers' last, partial second may be empty: it is not part of the run.
    const auto planned = std::uint32_t((m_plan.duration + kNanosPerSecond - 1) / kNanosPerSecond);
    while (!result.timeline.empty() && result.timeline.back().second > planned && !result.timeline.back().requests &&
           !result.timeline.back().sent)
        result.timeline.pop_back();
    result.elapsed = m_clock.now() - r.start;
    result.ok = true;
    return result;
}

} // namespace stampede
