// The worker's business flows: what happens between an answer and the next
// step when a scenario has checks, extractors, cookies or redirects. Nothing
// here runs for a scenario without them (Worker::m_flows).
#include "worker.h"

namespace stampede {

// A new iteration on `slot`: the values of steps rendered late are saved, and
// in the open model (a slot is an iteration's place, not a user) the
// extracted values and cookies start empty.
void Worker::startFlows(std::uint32_t slot)
{
    if (m_scripts)
        m_scripts->newIteration(slot, !m_plan.load->slotIsUser());
    m_own.newIteration(slot, !m_plan.load->slotIsUser(), m_requests.cursors());
    m_hooks->newIteration(slot, !m_plan.load->slotIsUser()); // the open model: each iteration starts anew
}

// The request step `step` sends for `slot` (requestprep.h): false when it is not sent (a failure, reported; or
// skipped by its pre-request script: the iteration goes on at the next turn).
bool Worker::prepare(std::uint32_t slot, std::size_t step, Outgoing& o, Nanos now)
{
    ErrorClass error = ErrorClass::Extract;
    std::string why;
    if (ScriptStep::hasPre(m_plan.steps[step]))
        metricsAt(step, now); // the second its pre-request script runs in (and counts its pm.tests in)
    switch (m_prep.ready(slot, step, o, m_seconds.current(), error, why)) {
    case RequestPrep::Ready::Send:
        return true;
    case RequestPrep::Ready::Skip:
        --m_inFlight;
        m_waits.goOnAt(slot, now);
        return false;
    case RequestPrep::Ready::Refused:
        fail(slot, error, why, now);
        return false;
    }
    return false;
}

// A user a hook held (a rendezvous) goes on: its step begins again from now, its tries as they were (a retry
// held there is still that retry).
void Worker::resume(std::uint32_t slot, Nanos now)
{
    sendStep(slot, m_slots[slot].step, now, now, true);
}

void Worker::countAnswer(const StepCall& call, const Answer& answer)
{
    StepMetrics& m = metricsAt(call.step, call.now);
    ++m.counters.requests;
    m.counters.bytesIn += answer.bytesIn;
    recordTimes(m, m_slots[call.user].times, call.now, answer.timeToFirstByte);
}

// The step's request again, to `target` (as GET when `asGet`, without its
// body): the session applies the hop to the request as rendered.
void Worker::sendAgain(const StepCall& call, std::string_view target, bool asGet)
{
    Slot& s = m_slots[call.user];
    const std::size_t i = call.step;
    const PlannedStep& st = m_plan.steps[i];
    const Nanos now = call.now;
    Outgoing o = m_requests.outgoing(call.user, i);
    o.request = &m_requests.sent(call.user, i); // as the step's own send went
    aimAtRendered(o);
    o.method = asGet && st.method != "HEAD" ? std::string_view("GET") : std::string_view(st.method);
    s.path.assign(target);
    o.target = s.path;
    o.dropBody = asGet;
    m_hooks->beforeSend(callOf(call.user, true, now), o);
    s.times.intended = now;
    s.times.sent = now;
    ++metricsAt(i, now).counters.sent;
    const std::size_t bytes = m_sessions->send(call.user, o, now);
    metricsAt(i, now).counters.bytesOut += bytes;
}

AnswerJudge::Call Worker::judgeCall(std::uint32_t slot)
{
    const Slot& s = m_slots[slot];
    const auto step = std::size_t(s.step);
    AnswerJudge::Call c{slot, step, &m_requests.sent(slot, step), {}, m_seconds.current()};
    if (m_hooks->cookies() && m_scripts &&
        ScriptStep::hasTest(m_plan.steps[step])) // what a test script's pm.cookies reads
        c.cookies = m_hooks->cookies()->header(callOf(slot, false, 0));
    return c;
}

} // namespace stampede
