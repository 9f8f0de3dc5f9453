#include "runcontrol.h"

#include <algorithm>

namespace stampede {

void RunControl::stop(const std::string& source)
{
    {
        std::lock_guard lock(m_mutex);
        if (!m_closed && !m_stop.load())
            m_queue.push_back({1, "stop_requested", {}, source});
    }
    stop();
}

double RunControl::level() const
{
    std::lock_guard lock(m_mutex);
    return m_paused ? 0 : m_factor;
}

bool RunControl::paused() const
{
    std::lock_guard lock(m_mutex);
    return m_paused;
}

bool RunControl::closed() const
{
    std::lock_guard lock(m_mutex);
    return m_closed;
}

void RunControl::scale(double factor, Done done, std::string source)
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
    m_queue.push_back({factor, "scaled", std::move(done), std::move(source)});
}

bool RunControl::pause(std::string source)
{
    std::lock_guard lock(m_mutex);
    if (m_closed || m_paused)
        return false;
    m_paused = true;
    m_queue.push_back({0, "paused", {}, std::move(source)});
    return true;
}

bool RunControl::resume(std::string source)
{
    std::lock_guard lock(m_mutex);
    if (m_closed || !m_paused)
        return false;
    m_paused = false;
    m_queue.push_back({m_factor, "resumed", {}, std::move(source)});
    return true;
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
