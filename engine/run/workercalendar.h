#pragma once
// When a worker's load runs, out of its loop: its scenario's start (a plan's
// scenario may start after the run) and end, a share taken over mid-run (its
// start) or handed to another engine (its release), the level the controller
// scales the plan to, and the loop's tick (deadline scans, the users' level).
// It reads the run's shared values at each turn and decides nothing about a
// request; tested on given times (tst_workerparts).
#include "core/clock.h"

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace stampede {

class WorkerCalendar
{
public:
    struct Setup
    {
        Nanos begin = 0; // this scenario's load starts (the run's start, or after it)
        Nanos duration = 0;
        Nanos from = 0;                                   // a taken-over share's start (0: with the run)
        const std::atomic<double>* levelFactor = nullptr; // the controller's scaling (null: none)
        const std::atomic<Nanos>* releaseAt = nullptr;    // the share handed over at (null or 0: not)
    };
    // Deadline scans and user-level changes happen once a tick.
    static constexpr Nanos kTick = 10 * kNanosPerMilli;

    explicit WorkerCalendar(const Setup& s) : m_setup(s), m_end(s.begin + s.duration) {}

    Nanos begin() const { return m_setup.begin; }
    Nanos end() const { return m_end; }
    Nanos from() const { return m_setup.from; }
    // The load has started by `now`: this scenario's start, and a taken-over share's.
    bool started(Nanos now) const { return now >= m_setup.begin && now >= m_setup.from; }
    // When the share was handed to another engine, if that is at or before `now` (0: it was not).
    Nanos releasedBy(Nanos now) const
    {
        const Nanos at = releaseAt();
        return at && now >= at ? at : 0;
    }
    // The controller's level, when it changed since it was last read (true, with `factor`).
    bool levelChanged(double& factor)
    {
        if (!m_setup.levelFactor)
            return false;
        const double f = m_setup.levelFactor->load(std::memory_order_relaxed);
        if (f == m_factor)
            return false;
        factor = m_factor = f;
        return true;
    }
    // Ticks from `now` on.
    void startTicks(Nanos now) { m_nextTick = now; }
    // Whether a tick is due at `now` (the next one is then a tick from now).
    bool tick(Nanos now)
    {
        if (now < m_nextTick)
            return false;
        m_nextTick = now + kTick;
        return true;
    }
    Nanos nextTick() const { return m_nextTick; }
    // `wakeAt`, no later than the load's start (before it) or its end, nor the share's release; a worker that is
    // stopping waits for neither.
    Nanos wakeBy(Nanos wakeAt, Nanos now, bool stopping) const
    {
        if (stopping)
            return wakeAt;
        const Nanos start = std::max(m_setup.begin, m_setup.from);
        wakeAt = std::min(wakeAt, now < start ? start : m_end);
        if (const Nanos at = releaseAt())
            wakeAt = std::min(wakeAt, at);
        return wakeAt;
    }

private:
    Nanos releaseAt() const { return m_setup.releaseAt ? m_setup.releaseAt->load(std::memory_order_relaxed) : 0; }

    Setup m_setup;
    Nanos m_end;
    double m_factor = 1;
    Nanos m_nextTick = 0;
};

} // namespace stampede
