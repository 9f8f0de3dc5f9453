#include "openload.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace stampede {

PacerPtr OpenExecutor::pacer(PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts,
                             Nanos duration) const
{
    return std::make_unique<OpenPacer>(m_load, duration, host, slots, part, parts);
}

// An even share of the connections, at least one.
std::uint32_t OpenExecutor::slotsOf(std::uint32_t pool, std::uint32_t part, std::uint32_t parts) const
{
    return std::max(1u, pool / parts + (part < pool % parts ? 1 : 0));
}

OpenPacer::OpenPacer(const OpenLoad& load, Nanos duration, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                     std::uint32_t parts)
    : m_duration(duration), m_host(host), m_slots(slots), m_schedule(load.profile, part, parts), m_idle(slots),
      m_backlog(load.backlogLimit / std::max(1u, parts))
{
}

void OpenPacer::planNext()
{
    m_next = m_schedule.next();
    if (m_next && *m_next >= m_duration)
        m_next.reset();
}

void OpenPacer::begin(Nanos start)
{
    m_start = start;
    planNext();
}

std::uint64_t OpenPacer::beginFrom(Nanos start, Nanos from)
{
    begin(start);
    std::uint64_t passed = 0;
    for (; m_next && m_start + *m_next < from; ++passed)
        planNext();
    return passed;
}

bool OpenPacer::startOn(std::uint32_t slot, Nanos intended, Nanos now)
{
    if (m_host.startIteration(slot, intended, now, {}))
        return true;
    m_idle.give(slot);
    return false;
}

void OpenPacer::onTime(Nanos now)
{
    while (!m_backlog.empty() && !m_idle.empty())
        if (!startOn(m_idle.take(), m_backlog.pop(), now))
            return;
    // Arrivals due before the end are started (or counted late) even when the
    // loop wakes after the end: none is skipped silently.
    while (m_next && m_start + *m_next <= now) {
        const Nanos intended = m_start + *m_next;
        if (!m_idle.empty() && m_backlog.empty()) {
            if (!startOn(m_idle.take(), intended, now))
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
    if (!m_backlog.empty() && !failed && m_host.startIteration(slot, m_backlog.pop(), now, {}))
        return;
    m_idle.give(slot);
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

} // namespace stampede
