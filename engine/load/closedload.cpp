#include "closedload.h"

#include <algorithm>
#include <cmath>

namespace stampede {

PacerPtr ClosedExecutor::pacer(PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts,
                               Nanos duration) const
{
    return std::make_unique<ClosedPacer>(m_load, duration, host, slots, part, parts);
}

std::uint32_t ClosedExecutor::pool(std::uint32_t) const
{
    return std::uint32_t(std::ceil(m_load.profile.peak() - 1e-9));
}

ClosedPacer::ClosedPacer(const ClosedLoad& load, Nanos duration, PacerHost& host, std::uint32_t slots,
                         std::uint32_t part, std::uint32_t parts)
    : m_load(load), m_duration(duration), m_host(host), m_part(part), m_parts(parts), m_users(slots)
{
    std::vector<Wake> storage;
    storage.reserve(slots);
    m_thinkers = decltype(m_thinkers)(std::greater<Wake>(), std::move(storage));
}

void ClosedPacer::start(std::uint32_t u, Nanos now)
{
    if (m_load.iterations && m_users[u].iterations >= m_load.iterations)
        return; // it made its iterations (counted when the last ended)
    if (m_users[u].retired || now >= m_start + m_duration)
        return; // the plan is over: an iteration that ended at its last instant starts none
    ++m_users[u].iterations;
    m_users[u].busy = true; // before: a send that fails at once ends the iteration inside
    m_users[u].started = now;
    if (!m_host.startIteration(u, now, now, {}))
        m_users[u].busy = false;
}

void ClosedPacer::onTick(Nanos now)
{
    if (m_stopping)
        return;
    // Local user u is global user u * parts + part; it is active while the
    // planned level exceeds its global index.
    const double level = m_load.profile.levelAt(now - m_start) * m_factor;
    const auto global = std::int64_t(std::floor(level + 1e-9));
    const std::int64_t local =
        global > std::int64_t(m_part) ? (global - std::int64_t(m_part) + m_parts - 1) / m_parts : 0;
    const auto target = std::uint32_t(std::min<std::int64_t>(local, std::int64_t(m_users.size())));
    for (std::uint32_t u = m_activeUsers; u < target; ++u) {
        User& user = m_users[u];
        user.active = true;
        if (!user.busy && !user.waiting)
            start(u, now);
        if (m_stopping)
            return;
    }
    for (std::uint32_t u = target; u < m_activeUsers; ++u)
        m_users[u].active = false; // it finishes its iteration, then rests
    m_activeUsers = target;
}

void ClosedPacer::onTime(Nanos now)
{
    while (!m_thinkers.empty() && m_thinkers.top().first <= now) {
        const auto [due, u] = m_thinkers.top();
        m_thinkers.pop();
        User& user = m_users[u];
        user.waiting = false;
        // nothing starts that was due at or after the plan's end
        if (user.active && !m_stopping && !user.busy && due < m_start + m_duration)
            start(u, now);
    }
}

void ClosedPacer::iterationDone(std::uint32_t slot, Nanos now, bool failed)
{
    User& user = m_users[slot];
    user.busy = false;
    if ((m_load.iterations && user.iterations >= m_load.iterations) || user.retired) {
        ++m_usersDone; // a retired user is done too: per-user iterations end without it
        return;
    }
    if (m_stopping || !user.active)
        return;
    // the next iteration: after the think time, and no sooner than the pacing
    // after this one began
    const Nanos next = std::max(now + m_load.thinkTime, user.started + m_load.pacing);
    if (next > now || failed) {
        user.waiting = true;
        // A failure starts again no sooner than the loop's next turn: one that
        // failed at once (a refused connect, a value its request refuses)
        // would otherwise start again within this onTime, for ever.
        m_thinkers.emplace(failed ? std::max(next, now + 1) : next, slot);
        return;
    }
    start(slot, now);
}

void ClosedPacer::setLevel(double factor, Nanos now)
{
    m_factor = factor;
    onTick(now); // the new number of users at once
}

Nanos ClosedPacer::wakeBy(Nanos limit) const
{
    return m_thinkers.empty() ? limit : std::min(limit, m_thinkers.top().first);
}

} // namespace stampede
