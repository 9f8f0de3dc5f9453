#include "simulatedio.h"

#include <algorithm>

namespace stampede::sim {

class ScriptedSessions final : public ClientSessions
{
public:
    explicit ScriptedSessions(SimulatedIo& io) : m_io(io) {}
    void send(std::uint32_t slot, const PlannedStep& step, const RenderedRequest& request, Nanos now) override
    {
        m_io.send(slot, step, request, now);
    }
    void checkDeadlines(Nanos now) override
    {
        for (auto it = m_io.m_pending.begin(); it != m_io.m_pending.end();) {
            if (it->second.deadline > now) {
                ++it;
                continue;
            }
            const SimulatedIo::Pending p = it->second;
            it = m_io.m_pending.erase(it);
            m_io.deliver(p, now, true);
            it = m_io.m_pending.begin(); // the listener may have sent more
        }
    }
    std::uint32_t openConnections() const override { return 0; }
    void close() override { m_io.m_pending.clear(); }

private:
    SimulatedIo& m_io;
};

ClientSessionsPtr SimulatedIo::sessions(const ScenarioPlan& plan, std::uint32_t, SessionListener& listener)
{
    m_plan = &plan;
    m_listener = &listener;
    return std::make_unique<ScriptedSessions>(*this);
}

void SimulatedIo::send(std::uint32_t slot, const PlannedStep& step, const RenderedRequest& r, Nanos now)
{
    Sent s;
    s.slot = slot;
    s.step = std::size_t(&step - m_plan->steps.data());
    s.at = now;
    s.wire = r.wire;
    m_sent.push_back(s);
    Pending p{s, m_script(s), now + step.timeout, step.needs != kNeedsNothing};
    if (p.answer.failInSend) {
        m_listener->onFailure(slot, ErrorClass::Connect, "connection refused", now);
        return;
    }
    m_pending.emplace(now + std::max<Nanos>(0, p.answer.delay), std::move(p));
}

int SimulatedIo::wait(Nanos timeout)
{
    const Nanos now = m_clock.now();
    Nanos until = now + timeout;
    if (!m_pending.empty())
        until = std::min(until, m_pending.begin()->first);
    if (until > now)
        m_clock.set(until);
    int due = 0;
    for (auto it = m_pending.begin(); it != m_pending.end() && it->first <= until; ++it)
        ++due;
    return due;
}

void SimulatedIo::dispatch(int events, Nanos ready)
{
    for (int i = 0; i < events && !m_pending.empty() && m_pending.begin()->first <= ready; ++i) {
        const Pending p = m_pending.begin()->second;
        m_pending.erase(m_pending.begin());
        deliver(p, ready, false);
    }
}

void SimulatedIo::deliver(const Pending& p, Nanos now, bool timedOut)
{
    const std::uint32_t tag = p.sent.slot;
    if (timedOut) {
        m_listener->onFailure(tag, ErrorClass::Timeout, "no complete response within the timeout", now);
        return;
    }
    if (p.answer.fail) {
        m_listener->onFailure(tag, p.answer.failure, "scripted failure", now);
        return;
    }
    if (p.captured)
        m_listener->onCaptured(tag, p.answer.headers, m_noTrailers, p.answer.body); // read during onResponse
    const std::string sample = p.answer.status >= 400 ? "HTTP/1.1 " + std::to_string(p.answer.status) : "";
    m_listener->onResponse(tag, p.answer.status, p.answer.body.size() + 20, sample, now);
}

void runWorker(const ScenarioPlan& plan, SimulatedIo& io, const Clock& clock, Nanos start, SecondSink& sink,
               const std::atomic<bool>& stop, RendezvousBoard* rendezvous)
{
    WorkerSetup ws;
    ws.plan = &plan;
    ws.slots = plan.load->slotsOf(plan.connections, 0, 1);
    ws.start = start;
    ws.clock = &clock;
    ws.sink = &sink;
    ws.stop = &stop;
    ws.io = &io;
    ws.rendezvous = rendezvous;
    Worker w(ws);
    w.run();
}

} // namespace stampede::sim
