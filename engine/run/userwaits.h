#pragma once
// The users of a worker who wait, out of its loop: a pause after a step (its
// think time, sampled here on the worker's own random numbers), a user that
// goes on at the loop's next turn (a step that ended inside its own send), and
// a try that waits out its retry's backoff, and an iteration that waits for a
// row of an account pool. None of them is in flight; the loop
// wakes for the earliest, and each comes out in order of its time (ties in
// the order they were put in).
#include "core/clock.h"
#include "core/random.h"
#include "load/thinktime.h"

#include <algorithm>
#include <cstdint>
#include <queue>
#include <tuple>
#include <vector>

namespace stampede {

class UserWaits
{
public:
    explicit UserWaits(std::uint64_t seed) : m_random(seed ^ 0x7468696e6bull) {}

    // `user` pauses from `now` for `think` (sampled): it goes on when the pause is over.
    void think(std::uint32_t user, const ThinkTime& think, Nanos now) { goOnAt(user, now + think.sample(m_random)); }
    // `user` goes on at `at` (at the loop's next turn when `at` is now).
    void goOnAt(std::uint32_t user, Nanos at) { m_thinking.push({at, m_order++, user}); }
    // `user`'s step is tried again at `at`.
    void retryAt(std::uint32_t user, Nanos at) { m_retrying.push({at, m_order++, user}); }
    // `user` tries to begin its iteration again at `at` (an account pool had no row free).
    void drawAt(std::uint32_t user, Nanos at) { m_drawing.push({at, m_order++, user}); }
    bool drawDue(Nanos now, std::uint32_t& user)
    {
        Nanos due = 0;
        return take(m_drawing, now, user, due);
    }

    // A user whose pause is over by `now`, taken out, with when it was over: false when none is.
    bool thinkerDue(Nanos now, std::uint32_t& user, Nanos& due) { return take(m_thinking, now, user, due); }
    // A user whose step's backoff is over by `now`, taken out: false when none is.
    bool retryDue(Nanos now, std::uint32_t& user)
    {
        Nanos due = 0;
        return take(m_retrying, now, user, due);
    }
    // The earliest time one waits for, or `limit` when that is sooner or none waits.
    Nanos wakeBy(Nanos limit) const
    {
        if (!m_thinking.empty())
            limit = std::min(limit, std::get<0>(m_thinking.top()));
        if (!m_retrying.empty())
            limit = std::min(limit, std::get<0>(m_retrying.top()));
        if (!m_drawing.empty())
            limit = std::min(limit, std::get<0>(m_drawing.top()));
        return limit;
    }
    bool empty() const { return m_thinking.empty() && m_retrying.empty() && m_drawing.empty(); }
    // Every waiting user, taken out: the pausing ones first, then those waiting to try again, then those waiting
    // for a row of an account pool, each in order.
    std::vector<std::uint32_t> takeAll()
    {
        std::vector<std::uint32_t> all;
        for (auto* q : {&m_thinking, &m_retrying, &m_drawing})
            for (; !q->empty(); q->pop())
                all.push_back(std::get<2>(q->top()));
        return all;
    }

private:
    using Wait = std::tuple<Nanos, std::uint64_t, std::uint32_t>; // when, the order put in, which user
    using Queue = std::priority_queue<Wait, std::vector<Wait>, std::greater<>>;
    static bool take(Queue& q, Nanos now, std::uint32_t& user, Nanos& due)
    {
        if (q.empty() || std::get<0>(q.top()) > now)
            return false;
        due = std::get<0>(q.top());
        user = std::get<2>(q.top());
        q.pop();
        return true;
    }

    FastRandom m_random;
    Queue m_thinking; // pauses, and users that go on at the next turn
    Queue m_retrying; // tries waiting out their backoff
    Queue m_drawing;  // iterations waiting for a row of an account pool
    std::uint64_t m_order = 0;
};

} // namespace stampede
