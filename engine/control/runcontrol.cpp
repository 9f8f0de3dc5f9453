#include "runcontrol.h"

#include <algorithm>

namespace stampede {

void RunControl::scale(double factor, Done done)
{
    factor = std::max(0.0, factor);
    std::unique_lock lock(m_mutex);
    if (m_closed) {
        lock.unlock();
        if (done)
            done(false, "the run has ended");
        return;
    }
    m_factor = factor;
    if (m_paused)
        factor = 0; // remembered for resume()
    m_queue.push_back({factor, "scaled", std::move(done)});
}

void RunControl::pause()
{
    std::lock_guard lock(m_mutex);
    if (m_closed || m_paused)
        return;
    m_paused = true;
    m_queue.push_back({0, "paused", {}});
}

void RunControl::resume()
{
    std::lock_guard lock(m_mutex);
    if (m_closed || !m_paused)
        return;
    m_paused = false;
    m_queue.push_back({m_factor, "resumed", {}});
}

std::vector<RunControl::Command> RunControl::take()
{
    std::lock_guard lock(m_mutex);
    std::vector<Command> out;
    out.swap(m_queue);
    return out;
}

void RunControl::close()
{
    std::vector<Command> left;
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        left.swap(m_queue);
    }
    for (auto& c : left)
        if (c.done)
            c.done(false, "the run has ended");
}

} // namespace stampede
