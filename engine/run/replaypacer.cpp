#include "replaypacer.h"

#include <algorithm>

namespace stampede {

ReplayPacer::ReplayPacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                         std::uint32_t parts)
    : m_plan(plan), m_host(host), m_slots(slots), m_schedule(plan.replay->records, plan.replay->options, part, parts),
      m_backlog(plan.backlogLimit / std::max(1u, parts))
{
    m_idle.reserve(slots);
    for (std::uint32_t i = slots; i > 0; --i)
        m_idle.push_back(i - 1);
}

bool ReplayPacer::startOn(std::uint32_t slot, const Waiting& w, Nanos now)
{
    if (m_host.startReplay(slot, w.due.record, w.due.copy, w.intended, now))
        return true;
    m_idle.push_back(slot);
    return false;
}

bool ReplayPacer::shed()
{
    if (m_factor >= 1)
        return false;
    m_credit += m_factor;
    if (m_credit >= 1) {
        m_credit -= 1;
        return false;
    }
    return true;
}

void ReplayPacer::onTime(Nanos now)
{
    while (!m_backlog.empty() && !m_idle.empty()) {
        const std::uint32_t i = m_idle.back();
        m_idle.pop_back();
        if (!startOn(i, m_backlog.pop(), now))
            return;
    }
    // Requests due before the end are started (or counted late) even when the
    // loop wakes after it: none is skipped silently.
    while (!m_stopped) {
        const auto at = m_schedule.nextAt();
        if (!at || *at >= m_plan.duration || m_start + *at > now)
            return;
        const Waiting w{*m_schedule.next(*at), m_start + *at};
        if (shed())
            continue;
        if (!m_idle.empty() && m_backlog.empty()) {
            const std::uint32_t i = m_idle.back();
            m_idle.pop_back();
            if (!startOn(i, w, now))
                return;
        } else if (!m_backlog.full()) {
            m_backlog.push(w);
            m_host.countLate(now);
        } else {
            m_host.countDropped(1, now);
        }
    }
}

void ReplayPacer::iterationDone(std::uint32_t slot, Nanos now, bool failed)
{
    if (!m_backlog.empty() && !failed) {
        const Waiting w = m_backlog.pop();
        if (m_host.startReplay(slot, w.due.record, w.due.copy, w.intended, now))
            return;
    }
    m_idle.push_back(slot);
}

void ReplayPacer::setLevel(double factor, Nanos /*now*/)
{
    m_factor = std::max(0.0, factor);
    m_credit = 0;
}

std::uint64_t ReplayPacer::abandon()
{
    m_stopped = true;
    return m_backlog.clear();
}

Nanos ReplayPacer::wakeBy(Nanos limit) const
{
    if (m_stopped)
        return limit;
    const auto at = m_schedule.nextAt();
    return at && *at < m_plan.duration ? std::min(limit, m_start + *at) : limit;
}

} // namespace stampede
