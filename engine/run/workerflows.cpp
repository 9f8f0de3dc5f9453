// The worker's business flows: what happens between an answer and the next
// step when a scenario has checks, extractors, cookies or redirects. Nothing
// here runs for a scenario without them (Worker::m_flows).
#include "worker.h"

#include "core/text.h"
#include "core/url.h"
#include "core/wiretext.h"

#include <algorithm>
#include <cctype>
#include <optional>

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

// The request step `step` sends for `slot`: after its pre-request script (scriptstep.h), rendered now when it
// uses extracted values (not sent when one is unset), and what the script changed applied to the user's own copy;
// false: not sent (a failure, reported) or skipped.
bool Worker::prepare(std::uint32_t slot, std::size_t step, Outgoing& o, Nanos now)
{
    if (!m_scripts || !m_scripts->hasPre(m_plan.steps[step]))
        return render(slot, step, o, now);
    std::string why;
    metricsAt(step, now); // the second the script runs in
    switch (m_scripts->runPre(slot, step, m_seconds.current(), why)) {
    case ScriptStep::Pre::Failed:
        fail(slot, ErrorClass::Script, why, now);
        return false;
    case ScriptStep::Pre::Skip: // pm.execution.skipRequest(): the step is done unsent, the iteration goes on (next
                                // turn)
        --m_inFlight;
        m_thinking.emplace(now, slot);
        return false;
    case ScriptStep::Pre::Send:
        break;
    }
    m_requests.forgetCopy(slot, step); // the fixed request goes, unless this run changes it
    if (!render(slot, step, o, now) || !o.request->failure.empty() || !m_scripts->changesRequest(slot))
        return true;
    RenderedRequest& mine = m_requests.copyOf(slot, step, *o.request);
    if (!m_scripts->change(slot, step, mine, why)) {
        fail(slot, ErrorClass::Script, why, now);
        return false;
    }
    o.request = &mine; // the target it may have changed is the one its hooks see (StepHooks::beforeSend)
    return true;
}

// The step's request: rendered now when it uses extracted values (not sent
// when one is unset), with the user's cookies.
bool Worker::render(std::uint32_t slot, std::size_t step, Outgoing& o, Nanos now)
{
    const PlannedStep& st = m_plan.steps[step];
    if (!st.extracted.empty()) {
        if (const PlannedVariable* v = m_own.missing(slot, st)) {
            fail(slot, ErrorClass::Extract,
                 "${" + v->name + "} has no value: no earlier answer of this " +
                     (m_plan.load->slotIsUser() ? "user" : "iteration") + " gave it",
                 now);
            return false;
        }
        o.request = &m_requests.renderNow(slot, step);
    }
    return true;
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
    recordTimes(m, m_slots[call.user], call.now, answer.timeToFirstByte);
}

// The step's request again, to `target` (as GET when `asGet`, without its
// body): the session applies the hop to the request as rendered.
void Worker::sendAgain(const StepCall& call, std::string_view target, bool asGet)
{
    Slot& s = m_slots[call.user];
    const std::size_t i = call.step;
    const PlannedStep& st = m_plan.steps[i];
    const Nanos now = call.now;
    Outgoing o = m_outgoing[i];
    o.request = &m_requests.sent(call.user, i); // as the step's own send went
    o.method = asGet && st.method != "HEAD" ? std::string_view("GET") : std::string_view(st.method);
    s.path.assign(target);
    o.target = s.path;
    o.dropBody = asGet;
    m_hooks->beforeSend(callOf(call.user, true, now), o);
    s.intended = now;
    s.sent = now;
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
        c.cookies = m_hooks->cookies()->header(slot, m_plan.steps[step], s.path);
    return c;
}

} // namespace stampede
