#include "workerseconds.h"

#include "answerjudge.h"

#include <algorithm>
#include <limits>
#include <utility>

namespace stampede {

WorkerSeconds::WorkerSeconds(const ScenarioPlan& plan, const Places& places, std::uint32_t worker, SecondSink& sink,
                             ReadGauges gauges)
    : m_plan(plan), m_places(places), m_worker(worker), m_paced(plan.load && plan.load->paced()), m_sink(sink),
      m_gauges(std::move(gauges))
{
}

void WorkerSeconds::begin(std::uint32_t first, Nanos end, std::uint32_t last)
{
    m_current = fresh(first);
    m_end = end;
    m_last = std::max(first, last);
}

IntervalMetricsPtr WorkerSeconds::fresh(std::uint32_t second) const
{
    auto m = std::make_unique<IntervalMetrics>();
    m->second = second;
    m->steps.resize(m_places.steps ? m_places.steps : m_plan.steps.size());
    m->groups.resize(m_places.steps ? m_places.groups : m_plan.groups.size());
    for (std::size_t i = 0; i < m_plan.steps.size(); ++i)
        m->steps[m_places.stepOffset + i].checks.resize(m_plan.steps[i].checks.size());
    return m;
}

void WorkerSeconds::readGauges()
{
    const Gauges g = m_gauges();
    if (!m_plan.steps.empty())
        m_current->steps[m_places.stepOffset].counters.goaways += g.goaways - m_goawaysSeen;
    m_goawaysSeen = g.goaways;
    m_current->openConnections = g.openConnections;
    m_current->activeUsers = g.activeUsers;
}

void WorkerSeconds::roll(Nanos now)
{
    while (now >= m_end) {
        if (m_current->second >= m_last) { // the plan's last second: it holds the rest, handed on by finish()
            m_end = std::numeric_limits<Nanos>::max();
            return;
        }
        const std::uint32_t next = m_current->second + 1;
        readGauges();
        m_sink.deliver(m_worker, std::move(m_current), false);
        m_current = fresh(next);
        m_end += kNanosPerSecond;
    }
}

void WorkerSeconds::finish()
{
    m_sink.deliver(m_worker, std::move(m_current), true);
}

void WorkerSeconds::connected(std::size_t step, Nanos connect, Nanos handshake, bool tls, bool resumed)
{
    current().steps[m_places.stepOffset + step].addConnection(connect, handshake, tls, resumed);
}

void WorkerSeconds::stray(std::size_t step, std::string_view bytes, Nanos now)
{
    StepCounters& c = this->step(step, now).counters;
    c.addError(ErrorClass::Protocol);
    ++c.stray;
    keepRawSample(current(), m_places.stepOffset + std::uint32_t(step), ErrorClass::Protocol, 0, bytes,
                  std::to_string(bytes.size()) + (bytes.size() == 1 ? " byte" : " bytes") +
                      " from the server while no request was waiting for an answer: the connection was closed");
}

} // namespace stampede
