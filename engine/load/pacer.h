#pragma once
// Pacers: when iterations start. Each load model's executor (executor.h)
// makes one per worker, so that the worker's loop never asks which model it
// runs (a new load shape is a new executor and pacer).
//
// Time is what the worker passes in (from the injected Clock): pacers never
// read a clock, so their tests simulate the seconds (tst_pacer.cpp).
#include "core/clock.h"

#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace stampede {

struct TrafficRecord;

// What an iteration starts with: the scenario's steps from the first, or a
// recorded request of a replay (an iteration of that one request, to `step`,
// the step of its server; valid during startIteration only).
struct IterationStart
{
    const TrafficRecord* record = nullptr;
    std::uint32_t step = 0;
    std::uint32_t copy = 0; // a replay's amplified copy (0: the recorded request)
};

// What a pacer drives: the worker.
class PacerHost
{
public:
    virtual ~PacerHost() = default;
    // Starts an iteration on `slot`, measured from `intended`. False when it
    // could not start (the data ran out: the worker then stops issuing and
    // abandon() is called).
    virtual bool startIteration(std::uint32_t slot, Nanos intended, Nanos now, const IterationStart& what) = 0;
    // An arrival had to wait for a slot / found the backlog full.
    virtual void countLate(Nanos now) = 0;
    virtual void countDropped(std::uint64_t n, Nanos now) = 0;
};

class Pacer
{
public:
    virtual ~Pacer() = default;
    // The run starts at `start` (on the worker's clock).
    virtual void begin(Nanos start) = 0;
    // The run started at `start`, but this pacer takes part only from `from`
    // on (a share taken over from a lost engine): what the plan had before
    // `from` is passed over, and the count of iterations passed over is
    // returned (the worker advances its data by as many, so that the share's
    // rows and increments go on where the lost engine's plan had them). By
    // default the pacer simply begins at `from`.
    virtual std::uint64_t beginFrom(Nanos start, Nanos from)
    {
        begin(std::max(start, from));
        return 0;
    }
    // Starts what is due by `now`.
    virtual void onTime(Nanos now) = 0;
    // Every tick of the worker (10 ms) while issuing: follow the planned level.
    virtual void onTick(Nanos /*now*/) {}
    // `slot` finished its iteration. `failed`: by a transport failure (the next
    // start on it waits for the loop's next turn: a refused connect fails
    // inside the send, and starting again from here would recurse).
    virtual void iterationDone(std::uint32_t slot, Nanos now, bool failed) = 0;
    // `slot` makes no more iterations (a step's onError: stopUser), from the
    // end of the current one; for arrivals, whose slots are no users, nothing.
    virtual void retire(std::uint32_t /*slot*/) {}
    // The planned level times `factor` from `now` on (0 pauses).
    virtual void setLevel(double factor, Nanos now) = 0;
    // Every iteration planned has been made (per-user iterations): the worker
    // stops as at the end of the duration.
    virtual bool finished() const { return false; }
    // No new iteration from now on, and what waits is forgotten (the plan's
    // end, data ran out, an explicit stop): returns how many waiting arrivals
    // were dropped, so that they are counted as such, never sent late.
    virtual std::uint64_t abandon() = 0;
    // The earlier of `limit` and when this pacer next has something to do.
    virtual Nanos wakeBy(Nanos limit) const = 0;
    // Nothing waits to be started (the worker may end once nothing is in flight).
    virtual bool drained() const = 0;
    // Users taking part (closed) or slots busy (open), for the gauges.
    virtual std::uint32_t activeUsers() const = 0;
};
using PacerPtr = std::unique_ptr<Pacer>;

// Arrivals closer together than this share one timed wake-up. Each sleep with
// a timeout arms a high-resolution timer: one wake-up per arrival cost 17 % of
// a worker's CPU at 60,000 arrivals/s (against 50 us; 200 us saved no more).
// At high rates an arrival may go out up to this late (counted in the send lag,
// and in its latency, measured from the intended start); at rates below
// 1/kPacingBatch each arrival still has a wake-up of its own, at its time.
constexpr Nanos kPacingBatch = 50 * kNanosPerMicro;

// When the loop next wakes for `pacer`: at its next arrival, or, when that is
// nearer than kPacingBatch, kPacingBatch from `now` (with every arrival due by
// then); never past `limit`.
inline Nanos batchedWake(const Pacer& pacer, Nanos now, Nanos limit)
{
    const Nanos due = pacer.wakeBy(limit);
    if (due >= limit || due <= now)
        return due;
    return std::min(limit, std::max(due, now + kPacingBatch));
}

// Arrivals that found every slot busy, oldest first, in a ring of fixed
// capacity (the open model's and a replay's backlog).
template <class T> class Backlog
{
public:
    explicit Backlog(std::size_t capacity) : m_ring(std::max<std::size_t>(1, capacity)) {}
    bool empty() const { return m_size == 0; }
    bool full() const { return m_size == m_ring.size(); }
    void push(const T& v)
    {
        m_ring[(m_head + m_size) % m_ring.size()] = v;
        ++m_size;
    }
    T pop()
    {
        const T v = m_ring[m_head];
        m_head = (m_head + 1) % m_ring.size();
        --m_size;
        return v;
    }
    // Forgets what waits; returns how many did.
    std::uint64_t clear() { return std::exchange(m_size, 0); }

private:
    std::vector<T> m_ring;
    std::size_t m_head = 0;
    std::size_t m_size = 0;
};

// A pool of idle slots (the open model's connections, a replay's).
class IdleSlots
{
public:
    explicit IdleSlots(std::uint32_t count) // (not "slots": Qt's macro, where models include this)
    {
        m_idle.reserve(count);
        for (std::uint32_t i = count; i > 0; --i)
            m_idle.push_back(i - 1);
    }
    bool empty() const { return m_idle.empty(); }
    std::uint32_t take()
    {
        const std::uint32_t i = m_idle.back();
        m_idle.pop_back();
        return i;
    }
    void give(std::uint32_t slot) { m_idle.push_back(slot); }
    std::uint32_t count() const { return std::uint32_t(m_idle.size()); }

private:
    std::vector<std::uint32_t> m_idle;
};

} // namespace stampede
