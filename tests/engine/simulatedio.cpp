#include "simulatedio.h"

#include "net/grpcanswer.h"

#include <algorithm>

namespace stampede::sim {

class ScriptedSessions final : public ClientSessions
{
public:
    explicit ScriptedSessions(SimulatedIo& io) : m_io(io) {}
    std::size_t send(std::uint32_t slot, const Outgoing& o, Nanos now) override { return m_io.send(slot, o, now); }
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
    Nanos wakeBy(Nanos limit) const override
    {
        const Nanos now = m_io.m_clock.now();
        return now >= m_io.m_holdFrom && now < m_io.m_holdUntil ? std::min(limit, m_io.m_holdUntil) : limit;
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

// The request as the real HTTP/1.1 sessions encode it (its cookie and a
// redirect hop applied), recorded and answered by the script.
std::size_t SimulatedIo::send(std::uint32_t slot, const Outgoing& o, Nanos now)
{
    Sent s;
    s.slot = slot;
    s.step = 0; // the step whose endpoint it goes to (each step has its own)
    while (s.step + 1 < m_plan->steps.size() && &m_plan->steps[s.step].endpoint != o.endpoint)
        ++s.step;
    s.at = now;
    if (changesRequest(o))
        encodeHttp1(o, s.wire);
    else
        s.wire = o.request->wire;
    s.body = o.request->body;
    m_sent.push_back(s);
    Pending p{s, m_script(s), now + o.timeout, o.capture != CaptureMode::None, o.protocol == Protocol::Grpc};
    if (p.answer.failInSend) {
        m_listener->onAnswer(slot, stampede::Answer::failure(ErrorClass::Connect, "connection refused"), now);
        return s.wire.size();
    }
    m_pending.emplace(now + std::max<Nanos>(0, p.answer.delay), std::move(p));
    return s.wire.size();
}

int SimulatedIo::wait(Nanos timeout)
{
    ++m_wakeUps;
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

int SimulatedIo::nap(Nanos timeout)
{
    ++m_wakeUps;
    const Nanos until = m_clock.now() + timeout;
    m_naps.push_back({m_clock.now(), timeout});
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
        stampede::Answer a = stampede::Answer::failure(ErrorClass::Timeout, "no complete response within the timeout");
        if (p.call)
            grpcDeadline(a, "the deadline passed");
        m_listener->onAnswer(tag, a, now);
        return;
    }
    if (p.answer.fail) {
        m_listener->onAnswer(tag, stampede::Answer::failure(p.answer.failure, "scripted failure"), now);
        return;
    }
    const std::string sample = p.answer.status >= 400 ? "HTTP/1.1 " + std::to_string(p.answer.status) : "";
    stampede::Answer a;
    a.setHttpStatus(p.answer.status);
    a.bytesIn = p.answer.body.size() + 20;
    a.errorSample = sample;
    if (p.call)
        if (const std::string notGrpc = grpcCallAnswer(a, p.answer.grpcStatus, p.answer.grpcMessage);
            !notGrpc.empty()) {
            m_listener->onAnswer(tag, stampede::Answer::failure(ErrorClass::Protocol, notGrpc), now);
            return;
        }
    if (p.captured) {
        a.headers = &p.answer.headers;
        a.trailers = &m_noTrailers;
        a.body = &p.answer.body;
    }
    m_listener->onAnswer(tag, a, now);
}

void runWorker(const ScenarioPlan& plan, SimulatedIo& io, const Clock& clock, Nanos start, SecondSink& sink,
               const std::atomic<bool>& stop, RendezvousBoard* rendezvous, Nanos joinAt,
               const std::atomic<Nanos>* releaseAt)
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
    ws.joinAt = joinAt;
    ws.releaseAt = releaseAt;
    Worker w(ws);
    w.run();
}

} // namespace stampede::sim
