#pragma once
// The agent's dead-man timer: a run whose controller has been silent longer
// than the limit is stopped, once. Time comes from the injected clock, so the
// rule is tested by simulating the seconds (tests/engine/tst_runtracker.cpp).
// Not thread-safe: the agent calls it under its own lock.
#include "core/clock.h"

namespace stampede {

class DeadManTimer
{
public:
    DeadManTimer(const Clock& clock, Nanos limit) : m_clock(clock), m_limit(limit), m_lastHeard(clock.now()) {}
    // The controller said something (a heartbeat, a watch, a control call).
    void heard() { m_lastHeard = m_clock.now(); }
    // True exactly once: the first time it is asked after the limit passed in silence.
    bool expired()
    {
        if (m_fired || m_clock.now() - m_lastHeard <= m_limit)
            return false;
        m_fired = true;
        return true;
    }
    Nanos limit() const { return m_limit; }

private:
    const Clock& m_clock;
    Nanos m_limit;
    Nanos m_lastHeard;
    bool m_fired = false;
};

} // namespace stampede
