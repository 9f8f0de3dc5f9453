#include "pacer.h"

#include "replaypacer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stampede {

PacerPtr makePacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                   std::uint32_t parts)
{
    if (plan.model == LoadModel::Open)
        return std::make_unique<OpenPacer>(plan, host, slots, part, parts);
    if (plan.model == LoadModel::Replay)
        return std::make_unique<ReplayPacer>(plan, host, slots, part, parts);
    return std::make_unique<ClosedPacer>(plan, host, slots, part, parts);
}

// ---- open model ----

OpenPacer::OpenPacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                     std::uint32_t parts)
    : m_plan(plan), m_host(host), m_slots(slots), m_schedule(plan.profile, part, parts),
      m_backlog(plan.backlogLimit / std::max(1u, parts))
{
    m_idle.reserve(slots);
    for (std::uint32_t i = slots; i > 0; --i)
        m_idle.push_back(i - 1);
}

void OpenPacer::planNext()
{
    m_next = m_schedule.next();
    if (m_next && *m_next >= m_plan.duration)
        m_next.reset();
}

void OpenPacer::begin(Nanos start)
{
    m_start = start;
    planNext();
}

bool OpenPacer::startOn(std::uint32_t slot, Nanos intended, Nanos now)
{
    if (m_host.startIteration(slot, intended, now))
        return true;
    m_idle.push_back(slot);
    return false;
}

void OpenPacer::onTime(Nanos now)
{
    while (!m_backlog.empty() && !m_idle.empty()) {
        const std::uint32_t i = m_idle.back();
        m_idle.pop_back();
        if (!startOn(i, m_backlog.pop(), now))
            return;
    }
    // Arrivals due before the end are started (or counted late) even when the
    // loop wakes after the end: none is skipped silently.
    while (m_next && m_start + *m_next <= now) {
        const Nanos intended = m_start + *m_next;
        if (!m_idle.empty() && m_backlog.empty()) {
            const std::uint32_t i = m_idle.back();
            m_idle.pop_back();
            if (!startOn(i, intended, now))
                return;
        } else if (!m_backlog.full()) {
            // every slot is busy: the arrival waits, and is measured from its intended start
            m_backlog.push(intended);
            m_host.countLate(now);
        } else {
            m_host.countDropped(1, now);
        }
        planNext();
    }
}

void OpenPacer::iterationDone(std::uint32_t slot, Nanos now, bool failed)
{
    if (!m_backlog.empty() && !failed && m_host.startIteration(slot, m_backlog.pop(), now))
        return;
    m_idle.push_back(slot);
}

void OpenPacer::setLevel(double factor, Nanos now)
{
    if (m_next)
        m_schedule.unissue(); // it was planned at the old rate
    m_schedule.rescale(factor, now - m_start);
    planNext();
}

std::uint64_t OpenPacer::abandon()
{
    m_next.reset();
    return m_backlog.clear();
}

Nanos OpenPacer::wakeBy(Nanos limit) const
{
    return m_next ? std::min(limit, m_start + *m_next) : limit;
}

// ---- closed model ----

ClosedPacer::ClosedPacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                         std::uint32_t parts)
    : m_plan(plan), m_host(host), m_part(part), m_parts(parts), m_users(slots)
{
    std::vector<Wake> storage;
    storage.reserve(slots);
    m_thinkers = decltype(m_thinkers)(std::greater<Wake>(), std::move(storage));
}

void ClosedPacer::start(std::uint32_t u, Nanos now)
{
    if (m_plan.iterations && m_users[u].iterations >= m_plan.iterations)
        return; // it made its iterations (counted when the last ended)
    ++m_users[u].iterations;
    m_users[u].busy = true; // before: a send that fails at once ends the iteration inside
    m_users[u].started = now;
    if (!m_host.startIteration(u, now, now))
        m_users[u].busy = false;
}

void ClosedPacer::onTick(Nanos now)
{
    if (m_stopping)
        return;
    // Local user u is global user u * parts + part; it is active while the
    // planned level exceeds its global index.
    const double level = m_plan.profile.levelAt(now - m_start) * m_factor;
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
        if (user.active && !m_stopping && !user.busy && due < m_start + m_plan.duration)
            start(u, now);
    }
}

void ClosedPacer::iterationDone(std::uint32_t slot, Nanos now, bool failed)
{
    User& user = m_users[slot];
    user.busy = false;
    if (m_plan.iterations && user.iterations >= m_plan.iterations) {
        ++m_usersDone;
        return;
    }
    if (m_stopping || !user.active)
        return;
    // the next iteration: after the think time, and no sooner than the pacing
    // after this one began
    const Nanos next = std::max(now + m_plan.thinkTime, user.started + m_plan.pacing);
    if (next > now || failed) {
        user.waiting = true;
        m_thinkers.emplace(next, slot);
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
