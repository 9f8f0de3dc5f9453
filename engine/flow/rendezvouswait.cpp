#include "rendezvouswait.h"

namespace stampede {

RendezvousWait::RendezvousWait(std::uint32_t users, RendezvousBoard& board, std::uint32_t stepOffset, FlowHost& host)
    : m_users(users), m_board(board), m_stepOffset(stepOffset), m_host(host)
{
    m_board.addDoorbell(m_host.doorbell());
}

StepHook::Begin RendezvousWait::begin(const StepCall& call, Nanos)
{
    Wait& w = m_users[call.user];
    if (!call.plan.rendezvousUsers || std::exchange(w.met, false))
        return Begin::Go;
    w.step = call.step;
    w.ticket = m_board.arrive(m_stepOffset + call.step, call.now);
    m_held.push_back(call.user);
    return Begin::Held;
}

// The board's timeouts looked at (an engine that decides releases by itself), then every user whose point
// released goes on, all of them, measured from now (the wait is the rendezvous', not the target's).
void RendezvousWait::onTurn(Nanos now)
{
    if (now >= m_nextScan) {
        m_board.checkTimeouts(now);
        m_nextScan = now + kTimeoutScan;
    }
    if (m_held.empty())
        return;
    const std::uint64_t generation = m_board.generation();
    if (generation == m_seen)
        return;
    m_seen = generation;
    std::size_t kept = 0;
    for (const std::uint32_t user : m_held) {
        Wait& w = m_users[user];
        const std::size_t point = m_stepOffset + w.step;
        if (!m_board.released(point, w.ticket)) {
            m_held[kept++] = user;
            continue;
        }
        StepCounters& c = m_host.stepMetrics(w.step, now).counters;
        ++c.rendezvous;
        c.rendezvousTimeouts += m_board.releasedByTimeout(point, w.ticket);
        w.met = true;
        m_released.push_back(user);
    }
    m_held.resize(kept);
    for (const std::uint32_t user : std::exchange(m_released, {})) // resumed after the scan: one may be held again
        m_host.resume(user, now);
}

void RendezvousWait::letGo(std::vector<std::uint32_t>& users)
{
    users.insert(users.end(), m_held.begin(), m_held.end());
    m_held.clear();
}

} // namespace stampede
