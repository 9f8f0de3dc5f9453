#include "replayload.h"

#include <algorithm>

namespace stampede {

PacerPtr ReplayExecutor::pacer(PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts,
                               Nanos duration) const
{
    return std::make_unique<ReplayPacer>(*m_replay, m_backlogLimit, duration, host, slots, part, parts);
}

double ReplayExecutor::plannedBy(Nanos until) const
{
    double n = 0;
    for (std::uint32_t s = 1; s <= m_replay->planned.size() && Nanos(s - 1) * kNanosPerSecond < until; ++s)
        n += double(m_replay->planned[s - 1]);
    return n;
}

ReplayPacer::ReplayPacer(const ReplayPlan& replay, std::uint32_t backlogLimit, Nanos duration, PacerHost& host,
                         std::uint32_t slots, std::uint32_t part, std::uint32_t parts)
    : m_replay(replay), m_duration(duration), m_host(host), m_slots(slots),
      m_schedule(replay.records, replay.options, part, parts), m_idle(slots),
      m_backlog(backlogLimit / std::max(1u, parts))
{
}

// The recorded request (copy k with its offsets) to its server's step.
bool ReplayPacer::startIteration(std::uint32_t slot, const Waiting& w, Nanos now)
{
    const TrafficRecord& r = m_replay.records[w.due.record];
    const std::uint32_t step = m_replay.stepOf[w.due.record];
    if (w.due.copy == 0)
        return m_host.startIteration(slot, w.intended, now, {&r, step, 0});
    m_copy = replayCopy(r, w.due.copy, m_replay.options.offsets);
    return m_host.startIteration(slot, w.intended, now, {&m_copy, step, w.due.copy});
}

bool ReplayPacer::startOn(std::uint32_t slot, const Waiting& w, Nanos now)
{
    if (startIteration(slot, w, now))
        return true;
    m_idle.give(slot);
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

std::uint64_t ReplayPacer::beginFrom(Nanos start, Nanos from)
{
    begin(start);
    std::uint64_t passed = 0;
    for (auto at = m_schedule.nextAt(); at && m_start + *at < from; at = m_schedule.nextAt(), ++passed)
        m_schedule.next(*at);
    return passed;
}

void ReplayPacer::onTime(Nanos now)
{
    while (!m_backlog.empty() && !m_idle.empty())
        if (!startOn(m_idle.take(), m_backlog.pop(), now))
            return;
    // Requests due before the end are started (or counted late) even when the
    // loop wakes after it: none is skipped silently.
    while (!m_stopped) {
        const auto at = m_schedule.nextAt();
        if (!at || *at >= m_duration || m_start + *at > now)
            return;
        const Waiting w{*m_schedule.next(*at), m_start + *at};
        if (shed())
            continue;
        if (!m_idle.empty() && m_backlog.empty()) {
            if (!startOn(m_idle.take(), w, now))
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
        if (startIteration(slot, w, now))
            return;
    }
    m_idle.give(slot);
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
    return at && *at < m_duration ? std::min(limit, m_start + *at) : limit;
}

} // namespace stampede
