#pragma once
// Pacers: when iterations start, one per load model, so that the worker's loop
// never asks which model it runs (a new load shape is a new pacer).
//
// - OpenPacer: arrivals at the intended times of the ArrivalSchedule,
//   whatever the server does; an arrival that finds every slot busy waits in
//   a bounded backlog (counted late) and is measured from its intended time.
// - ClosedPacer: virtual users, each running its iteration, thinking, and
//   running again; the number taking part follows the planned level.
// - ReplayPacer (replaypacer.h): recorded traffic at its own timestamps, sped
//   up; its onTime() starts the requests whose time has come, from a cursor
//   over their sorted due times, and its backlog works as the open model's.
//
// Time is what the worker passes in (from the injected Clock): pacers never
// read a clock, so their tests simulate the seconds (tst_pacer.cpp).
#include "core/clock.h"
#include "load/arrivalschedule.h"
#include "plan/scenarioplan.h"

#include <algorithm>
#include <memory>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace stampede {

// What a pacer drives: the worker.
class PacerHost
{
public:
    virtual ~PacerHost() = default;
    // Starts an iteration on `slot`, measured from `intended`. False when the
    // data ran out: the worker then stops issuing (abandon() is called).
    virtual bool startIteration(std::uint32_t slot, Nanos intended, Nanos now) = 0;
    // Sends copy `copy` of the replay's recorded request `record` on `slot`,
    // measured from `intended` (replaypacer.h). False when it could not start.
    virtual bool startReplay(std::uint32_t slot, std::size_t record, std::uint32_t copy, Nanos intended, Nanos now) = 0;
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
    // Starts what is due by `now`.
    virtual void onTime(Nanos now) = 0;
    // Every tick of the worker (10 ms) while issuing: follow the planned level.
    virtual void onTick(Nanos /*now*/) {}
    // `slot` finished its iteration. `failed`: by a transport failure (the next
    // start on it waits for the loop's next turn: a refused connect fails
    // inside the send, and starting again from here would recurse).
    virtual void iterationDone(std::uint32_t slot, Nanos now, bool failed) = 0;
    // The planned level times `factor` from `now` on (0 pauses).
    virtual void setLevel(double factor, Nanos now) = 0;
    // Every iteration planned has been made (the closed model's iterations
    // per user): the worker stops as at the end of the duration.
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

// The pacer of the plan's model, for this worker's `slots` and its share
// (`part` of `parts`) of the whole run.
PacerPtr makePacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                   std::uint32_t parts);

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

class OpenPacer final : public Pacer
{
public:
    OpenPacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts);
    void begin(Nanos start) override;
    void onTime(Nanos now) override;
    void iterationDone(std::uint32_t slot, Nanos now, bool failed) override;
    void setLevel(double factor, Nanos now) override;
    std::uint64_t abandon() override;
    Nanos wakeBy(Nanos limit) const override;
    bool drained() const override { return m_backlog.empty(); }
    std::uint32_t activeUsers() const override { return std::uint32_t(m_slots - m_idle.size()); }

private:
    void planNext();
    bool startOn(std::uint32_t slot, Nanos intended, Nanos now);

    const ScenarioPlan& m_plan;
    PacerHost& m_host;
    std::uint32_t m_slots;
    ArrivalSchedule m_schedule;
    Nanos m_start = 0;
    std::optional<Nanos> m_next;       // the next arrival, relative to the start
    std::vector<std::uint32_t> m_idle; // idle slots
    Backlog<Nanos> m_backlog;          // intended times (absolute)
};

class ClosedPacer final : public Pacer
{
public:
    ClosedPacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                std::uint32_t parts);
    void begin(Nanos start) override { m_start = start; }
    void onTime(Nanos now) override;
    void onTick(Nanos now) override;
    void iterationDone(std::uint32_t slot, Nanos now, bool failed) override;
    void setLevel(double factor, Nanos now) override;
    std::uint64_t abandon() override
    {
        m_stopping = true;
        return 0;
    }
    Nanos wakeBy(Nanos limit) const override;
    bool drained() const override { return true; }
    std::uint32_t activeUsers() const override { return m_activeUsers; }
    bool finished() const override { return m_plan.iterations && m_usersDone == m_users.size(); }

private:
    struct User
    {
        bool active = false;          // part of the current level
        bool waiting = false;         // thinking
        bool busy = false;            // an iteration in flight
        Nanos started = 0;            // when its current (or last) iteration began
        std::uint32_t iterations = 0; // begun
    };
    void start(std::uint32_t u, Nanos now);

    const ScenarioPlan& m_plan;
    PacerHost& m_host;
    std::uint32_t m_part, m_parts;
    Nanos m_start = 0;
    double m_factor = 1;
    bool m_stopping = false;
    std::vector<User> m_users;
    std::uint32_t m_activeUsers = 0;
    std::size_t m_usersDone = 0; // users that made all their iterations
    using Wake = std::pair<Nanos, std::uint32_t>;
    std::priority_queue<Wake, std::vector<Wake>, std::greater<Wake>> m_thinkers;
};

} // namespace stampede
