#pragma once
// Why a worker's load ends before its plan does, and when, out of its loop:
// an explicit stop (the engine's), the controller's lease run out, a step whose
// error stops the run (its onError: stopRun; this worker's, or another's of
// the run through the flag they share), or a data set that ran out. Each is
// noted the first time, with its time on the worker's clock, for the run's
// events (runengine.cpp).
#include "core/clock.h"

#include <atomic>
#include <cstdint>
#include <string>

namespace stampede {

class WorkerEnd
{
public:
    struct Setup
    {
        const std::atomic<bool>* stop = nullptr;   // the engine's explicit stop (null: none)
        const std::atomic<Nanos>* lease = nullptr; // the load ends when the clock passes it (null or 0: no lease)
        std::atomic<bool>* stopRun = nullptr;      // shared by the run's workers: a step stopped the run (null: none)
    };
    explicit WorkerEnd(const Setup& setup) : m_setup(setup) {}

    // The worker's stop has begun (the plan's end, the data run out, a step that stops the run, its share handed
    // on): nothing new starts, what waits is let go, and the worker ends once nothing is in flight.
    void beginStopping() { m_stopping = true; }
    bool stopping() const { return m_stopping; }
    // Stop now (an explicit stop, or the lease over at `now`): what waits is dropped, nothing more is sent.
    bool halted(Nanos now) { return (m_setup.stop && m_setup.stop->load(std::memory_order_relaxed)) || leaseOver(now); }
    // The lease ran out by `now` (noted the first time).
    bool leaseOver(Nanos now)
    {
        if (m_leaseExpiredAt)
            return true;
        const Nanos lease = m_setup.lease ? m_setup.lease->load(std::memory_order_relaxed) : 0;
        if (!lease || now <= lease)
            return false;
        m_leaseExpiredAt = now;
        return true;
    }
    // An error of `step` (the run's place of it) stops the run at `now`: the first is noted, and every worker of
    // the run is told.
    void stepStopsRun(std::uint32_t step, Nanos now)
    {
        if (m_stopRunAt == 0) {
            m_stopRunAt = now;
            m_stopRunStep = step;
        }
        if (m_setup.stopRun)
            m_setup.stopRun->store(true, std::memory_order_relaxed);
    }
    // A step stopped the run: on this worker, or on another of the run.
    bool runStopped() const
    {
        return m_stopRunAt || (m_setup.stopRun && m_setup.stopRun->load(std::memory_order_relaxed));
    }
    // The data of `variable` ran out at `now` (the first is noted).
    void dataRanOut(const std::string& variable, Nanos now)
    {
        if (!m_exhausted.empty())
            return;
        m_exhausted = variable;
        m_exhaustedAt = now;
    }

    // When a step of this worker stopped the run (0: none), and which (the run's place).
    Nanos stopRunAt() const { return m_stopRunAt; }
    std::uint32_t stopRunStep() const { return m_stopRunStep; }
    // The variable whose data ran out ("" when none), and when.
    const std::string& exhausted() const { return m_exhausted; }
    Nanos exhaustedAt() const { return m_exhaustedAt; }
    // When the lease ran out and stopped this worker (0: it did not).
    Nanos leaseExpiredAt() const { return m_leaseExpiredAt; }

private:
    Setup m_setup;
    Nanos m_stopRunAt = 0;
    std::uint32_t m_stopRunStep = 0;
    std::string m_exhausted;
    Nanos m_exhaustedAt = 0;
    Nanos m_leaseExpiredAt = 0;
    bool m_stopping = false;
};

} // namespace stampede
