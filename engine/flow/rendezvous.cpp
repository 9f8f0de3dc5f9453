#include "rendezvous.h"

#include <algorithm>

namespace stampede {

RendezvousRule::RendezvousRule(std::vector<Point> points, std::size_t engines)
    : m_points(std::move(points)), m_state(m_points.size())
{
    for (State& s : m_state)
        s.arrived.assign(std::max<std::size_t>(1, engines), 0);
}

bool RendezvousRule::any() const
{
    return std::any_of(m_points.begin(), m_points.end(), [](const Point& p) { return p.users > 0; });
}

std::uint64_t RendezvousRule::total(const State& s) const
{
    std::uint64_t n = 0;
    for (const std::uint64_t a : s.arrived)
        n += a;
    return n;
}

void RendezvousRule::arrived(std::size_t engine, std::size_t point, std::uint64_t total, Nanos now)
{
    if (point >= m_state.size() || engine >= m_state[point].arrived.size())
        return;
    State& s = m_state[point];
    s.arrived[engine] = std::max(s.arrived[engine], total); // counts only grow: an old report changes nothing
    if (!s.oldest && this->total(s) > s.releasedUpTo)
        s.oldest = now;
}

std::vector<RendezvousRule::Release> RendezvousRule::due(Nanos now)
{
    std::vector<Release> out;
    for (std::size_t p = 0; p < m_points.size(); ++p) {
        State& s = m_state[p];
        const std::uint64_t all = total(s);
        if (!m_points[p].users || all <= s.releasedUpTo)
            continue;
        const bool enough = all - s.releasedUpTo >= m_points[p].users;
        const bool late = s.oldest && now - s.oldest >= m_points[p].timeout;
        if (!enough && !late)
            continue;
        out.push_back({p, !enough});
        s.releasedUpTo = all;
        s.oldest = 0;
    }
    return out;
}

Nanos RendezvousRule::nextTimeout() const
{
    Nanos next = 0;
    for (std::size_t p = 0; p < m_points.size(); ++p)
        if (m_state[p].oldest && (!next || m_state[p].oldest + m_points[p].timeout < next))
            next = m_state[p].oldest + m_points[p].timeout;
    return next;
}

RendezvousBoard::RendezvousBoard(std::vector<RendezvousRule::Point> points, bool decide)
    : m_points(points.size()), m_rule(points, 1), m_decide(decide)
{
    m_any = m_rule.any();
}

std::uint64_t RendezvousBoard::arrive(std::size_t point, Nanos now)
{
    std::uint64_t n = 0;
    std::function<void(std::size_t, std::uint64_t)> observer;
    {
        std::lock_guard lock(m_mutex);
        n = ++m_points[point].arrived;
        if (m_decide) {
            m_rule.arrived(0, point, n, now);
            for (const RendezvousRule::Release& r : m_rule.due(now))
                releaseLocked(r.point, r.byTimeout);
        }
        observer = m_observer;
    }
    if (observer)
        observer(point, n);
    return n;
}

bool RendezvousBoard::released(std::size_t point, std::uint64_t n) const
{
    std::lock_guard lock(m_mutex);
    return n <= m_points[point].released;
}

bool RendezvousBoard::releasedByTimeout(std::size_t point, std::uint64_t n) const
{
    std::lock_guard lock(m_mutex);
    const auto& t = m_points[point].timeouts; // the releases, in order: (up to, by timeout)
    const auto it = std::lower_bound(t.begin(), t.end(), std::make_pair(n, false));
    return it != t.end() && it->second;
}

void RendezvousBoard::release(std::size_t point, bool byTimeout)
{
    std::lock_guard lock(m_mutex);
    if (point < m_points.size())
        releaseLocked(point, byTimeout);
}

void RendezvousBoard::releaseLocked(std::size_t point, bool byTimeout)
{
    Point& p = m_points[point];
    if (p.released == p.arrived)
        return;
    p.released = p.arrived;
    p.timeouts.emplace_back(p.released, byTimeout);
    m_generation.fetch_add(1, std::memory_order_release);
    for (const auto& ring : m_doorbells)
        ring();
}

void RendezvousBoard::checkTimeouts(Nanos now)
{
    if (!m_decide || !m_any)
        return;
    std::lock_guard lock(m_mutex);
    const Nanos next = m_rule.nextTimeout();
    if (!next || now < next)
        return;
    for (const RendezvousRule::Release& r : m_rule.due(now))
        releaseLocked(r.point, r.byTimeout);
}

void RendezvousBoard::addDoorbell(std::function<void()> ring)
{
    std::lock_guard lock(m_mutex);
    m_doorbells.push_back(std::move(ring));
}

void RendezvousBoard::setObserver(std::function<void(std::size_t, std::uint64_t)> observer)
{
    std::lock_guard lock(m_mutex);
    m_observer = std::move(observer);
}

std::uint64_t RendezvousBoard::arrivals(std::size_t point) const
{
    std::lock_guard lock(m_mutex);
    return m_points[point].arrived;
}

} // namespace stampede
