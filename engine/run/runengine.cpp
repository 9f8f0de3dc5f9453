#include "runengine.h"

#include <cstdio>

#include "worker.h"

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
            m_cv.wait_for(lock, wait, [&] { return !m_queue.empty(); });
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
        }
        return ready;
    }

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
};

} // namespace

RunEngine::RunEngine(const ScenarioPlan& plan, EngineSlice slice, const Clock* clock)
    : m_plan(plan), m_slice(slice), m_clock(clock ? *clock : m_steady)
{
}

RunResult RunEngine::run(const SecondCallback& onSecond)
{
    RunResult result;
    result.total.steps.resize(m_plan.steps.size());
    const std::uint32_t threads = std::max(1u, m_plan.threads);
    Collector collector(threads);
    const Clock& clock = m_clock;
    std::random_device rd;
    const std::uint64_t seed = (std::uint64_t(rd()) << 32) ^ rd();

    std::vector<std::unique_ptr<Worker>> workers;
    const Nanos start = clock.now();
    try {
        for (std::uint32_t t = 0; t < threads; ++t) {
            WorkerSetup ws;
            ws.plan = &m_plan;
            ws.index = t;
            ws.part = m_slice.index * threads + t;
            ws.parts = m_slice.count * threads;
            // Connections (open model) or users (closed model) of the whole run
            // are shared by all parts: part p owns the users with global index
            // p mod parts, and an even share of the connections.
            ws.slots = m_plan.load->slotsOf(std::max(1u, m_plan.connections), ws.part, ws.parts);
            ws.start = start;
            ws.seed = seed + t * 0x9E3779B9ull;
            ws.clock = &clock;
            ws.sink = &collector;
            ws.stop = &m_stop;
            ws.levelFactor = &m_levelFactor;
            ws.lease = &m_lease;
            ws.stopRun = &m_stepStoppedRun;
            workers.push_back(std::make_unique<Worker>(ws));
        }
    } catch (const std::exception& e) {
        result.error = e.what();
        return result;
    }
    std::vector<std::thread> threadsRunning;
    for (auto& w : workers)
        threadsRunning.emplace_back([&w] { w->run(); });

    auto consume = [&](std::vector<IntervalMetricsPtr> ready) {
        for (auto& sec : ready) {
            const SecondSummary s = summarizeSecond(*sec);
            result.timeline.push_back(s);
            if (onSecond)
                onSecond(*sec, s);
            result.total.accumulate(*sec);
        }
    };
    while (!collector.allDone())
        consume(collector.take(std::chrono::milliseconds(100)));
    consume(collector.take(std::chrono::milliseconds(0)));
    for (auto& t : threadsRunning)
        t.join();
    // A step's error that stops the run (onError: stopRun): said, with the step.
    const Worker* stopper = nullptr;
    for (const auto& w : workers)
        if (w->stopRunAt() && (!stopper || w->stopRunAt() < stopper->stopRunAt()))
            stopper = w.get();
    if (stopper) {
        const double at = double(stopper->stopRunAt() - start) / 1e9;
        char when[32];
        std::snprintf(when, sizeof when, "%.1f s", at);
        result.events.push_back({at, "stopped_by_step", "",
                                 "an error of step \"" + m_plan.steps[stopper->stopRunStep()].name + "\" at " + when +
                                     " stopped the run (its onError is stopRun)",
                                 0, 0});
    }
    // A data set in stop mode that ran out ends the run early: said, not silent.
    for (const auto& w : workers) {
        if (w->exhausted().empty())
            continue;
        const double at = double(w->exhaustedAt() - start) / 1e9;
        char when[32];
        std::snprintf(when, sizeof when, "%.1f s", at);
        result.events.push_back(
            {at, "data_exhausted", "",
             "the data set \"" + w->exhausted() + "\" ran out at " + when + ": no iteration started after it", 0, 0});
        break;
    }
    for (const auto& w : workers) {
        if (!w->leaseExpiredAt())
            continue;
        const double at = double(w->leaseExpiredAt() - start) / 1e9;
        char when[32];
        std::snprintf(when, sizeof when, "%.1f s", at);
        result.events.push_back({at, "lease_expired", "",
                                 std::string("the controller was not heard from in time: the load stopped at ") + when +
                                     " and what was scheduled after was thrown away",
                                 0, 0});
        break;
    }
    // The workers' last, partial second may be empty: it is not part of the run.
    const auto planned = std::uint32_t((m_plan.duration + kNanosPerSecond - 1) / kNanosPerSecond);
    while (!result.timeline.empty() && result.timeline.back().second > planned && !result.timeline.back().requests &&
           !result.timeline.back().sent)
        result.timeline.pop_back();
    result.elapsed = clock.now() - start;
    result.ok = true;
    return result;
}

} // namespace stampede
