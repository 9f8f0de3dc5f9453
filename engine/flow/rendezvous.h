#pragma once
// Rendezvous points (a synchronizing timer): users that reach a step with a
// rendezvous wait there until enough have arrived across every engine of the
// run, or the first of them has waited the timeout; then all that wait go at
// once.
//
// - RendezvousRule decides, from arrivals and time alone, when a point
//   releases: the controller's for a run on several engines, an engine's own
//   when it runs alone. It takes the time it is given (tests simulate it).
// - RendezvousBoard is one engine's: its workers park users there and are
//   woken (their doorbells rung) when a point releases; it tells an observer
//   (the agent, for the controller) when arrivals change.
#include "core/clock.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <vector>

namespace stampede {

class RendezvousRule
{
public:
    struct Point
    {
        std::uint32_t users = 0; // 0: no rendezvous at this step
        Nanos timeout = 5 * kNanosPerSecond;
    };
    // One point per step of the run (users 0 where there is none), for `engines` engines.
    RendezvousRule(std::vector<Point> points, std::size_t engines);
    bool any() const;
    // Engine `engine` has had `total` arrivals at `point` since the run began.
    void arrived(std::size_t engine, std::size_t point, std::uint64_t total, Nanos now);
    // A point to release now: enough users wait, or the first has waited past
    // the timeout; each is released once (what arrives later waits for the next).
    struct Release
    {
        std::size_t point = 0;
        bool byTimeout = false;
    };
    std::vector<Release> due(Nanos now);
    // When the next timeout falls (0: nothing waits).
    Nanos nextTimeout() const;

private:
    struct State
    {
        std::vector<std::uint64_t> arrived; // per engine, since the run began
        std::uint64_t releasedUpTo = 0;     // arrivals (all engines) released so far
        Nanos oldest = 0;                   // when the first still waiting arrived (0: none waits)
    };
    std::uint64_t total(const State& s) const;
    std::vector<Point> m_points;
    std::vector<State> m_state;
};

class RendezvousBoard
{
public:
    // `points` as RendezvousRule's. `decide`: the engine runs alone and
    // releases by itself; else it waits for release() (the controller's).
    RendezvousBoard(std::vector<RendezvousRule::Point> points, bool decide);
    bool any() const { return m_any; }
    // A user arrives at `point`: its number among this engine's arrivals there.
    std::uint64_t arrive(std::size_t point, Nanos now);
    // Whether this engine's arrival `n` at `point` has been released.
    bool released(std::size_t point, std::uint64_t n) const;
    // Every user waiting at `point` goes (`byTimeout`: not enough came in time).
    void release(std::size_t point, bool byTimeout);
    // For an engine that decides: releases the points whose timeout has passed.
    void checkTimeouts(Nanos now);
    // Bumped by each release: a worker looks at its waiting users again when it changed.
    std::uint64_t generation() const { return m_generation.load(std::memory_order_acquire); }
    // How a release at `point` came: by the timeout (counted apart).
    bool releasedByTimeout(std::size_t point, std::uint64_t n) const;
    // Rung at each release, from the releasing thread (a worker's wake-up).
    void addDoorbell(std::function<void()> ring);
    // Told (with the point and this engine's arrivals there) after each arrival, off any lock.
    void setObserver(std::function<void(std::size_t point, std::uint64_t arrived)> observer);
    // This engine's arrivals at `point` since the run began.
    std::uint64_t arrivals(std::size_t point) const;

private:
    void releaseLocked(std::size_t point, bool byTimeout);

    struct Point
    {
        std::uint64_t arrived = 0;
        std::uint64_t released = 0;                           // arrivals 1..released may go
        std::vector<std::pair<std::uint64_t, bool>> timeouts; // releases by timeout: (up to, true)
    };
    bool m_any = false;
    mutable std::mutex m_mutex;
    std::vector<Point> m_points;
    RendezvousRule m_rule;
    bool m_decide;
    std::atomic<std::uint64_t> m_generation{0};
    std::vector<std::function<void()>> m_doorbells;
    std::function<void(std::size_t, std::uint64_t)> m_observer;
};

} // namespace stampede
