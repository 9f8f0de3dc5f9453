// What becomes of a step once its outcome is known: an answer or a failure is
// judged first (checks, the status), then either tried again (the step's
// retry: nothing of that try is counted but the retry itself) or counted,
// and the iteration goes on by the step's plan: its repeats, its think time,
// the next step, or what its onError says. The step's hooks hear its
// outcome once it is counted (flow/groups.h times a group by it).
#include "worker.h"

#include <algorithm>

namespace stampede {

void Worker::onAnswer(std::uint32_t tag, const Answer& answer, Nanos now)
{
    if (answer.messageLatencies) {
        StepMetrics& m = metricsAt(std::size_t(m_slots[tag].step), now);
        for (const Nanos l : *answer.messageLatencies)
            m.messageLatency.record(std::uint64_t(std::max<Nanos>(0, l) / kNanosPerMicro));
    }
    if (answer.failed) {
        fail(tag, answer, now);
        return;
    }
    StepOutcome o = StepOutcome::of(answer);
    AnswerView a;
    if (m_flows) {
        if (m_hooks->any(std::size_t(m_slots[tag].step)) && m_hooks->take(callOf(tag, false, now), answer))
            return; // a hook sent the step again (a redirect's hop): its answer is not the step's
        const Slot& s = m_slots[tag];
        a = m_judge.view(m_plan.steps[std::size_t(s.step)], answer, now - s.times.intended);
        a.recordedStatus = s.single ? s.recordedStatus : 0;
        if (s.single && s.second >= 0) // the first server's answer, kept for the second's
            keepFirst(m_slots[tag], a);
        else if (s.single && s.firstAnswered)
            a.first = &s.first;
        std::string why;
        const Verdict v = m_judge.judge(judgeCall(tag), a, answer.statusFailed(), why);
        o.judged(v, std::move(why), answer);
    }
    settle(tag, o, &a, now);
}

void Worker::fail(std::uint32_t tag, const Answer& answer, Nanos now)
{
    if (!answer.statusFailed()) {
        fail(tag, answer.error, answer.why, now);
        return;
    }
    settle(tag, StepOutcome::unanswered(answer), nullptr, now);
}

void Worker::fail(std::uint32_t tag, ErrorClass error, std::string_view why, Nanos now)
{
    testsWithoutAnswer(tag, error, now);
    settle(tag, StepOutcome::failure(error, why), nullptr, now);
}

// A request that failed (not a try that is retried, nor one never made: a value it could not carry, a pre-request
// script that failed): a collection's test script runs on no answer, as newman runs it.
void Worker::testsWithoutAnswer(std::uint32_t tag, ErrorClass error, Nanos now)
{
    const Slot& s = m_slots[tag];
    if (m_scripts && m_policy.lastTry(tag, std::size_t(s.step)) && error != ErrorClass::Render &&
        error != ErrorClass::Extract && error != ErrorClass::Script)
        m_judge.judgeNoAnswer(judgeCall(tag), now - s.times.intended);
}

// An outcome is tried again (the step's retry: the try is not counted, nor what its checks said, only the
// retry), or counted, and the iteration goes on as the step's plan says.
void Worker::settle(std::uint32_t slot, const StepOutcome& o, const AnswerView* a, Nanos now)
{
    Slot& s = m_slots[slot];
    const auto step = std::size_t(s.step);
    if (const Nanos due = m_ending.stopping()
                              ? StepPolicy::kNever
                              : m_policy.retryAt(slot, step, o.verdict, o.errorClass, now, m_calendar.end());
        due != StepPolicy::kNever) {
        ++metricsAt(step, now).counters.retries;
        --m_inFlight;
        m_waits.retryAt(slot, due);
        m_judge.drop();
        return;
    }
    StepMetrics& m = metricsAt(step, now);
    countOutcome(m, o, a, {m_seconds.current(), m_setup.stepOffset + std::uint32_t(step), traceOf(s), s.times}, now);
    m_judge.countInto(m);
    if (m_hooks->any(step))
        m_hooks->settled(callOf(slot, false, now), o.verdict != Verdict::Pass);
    if (o.verdict == Verdict::Pass) {
        completeStep(slot, now);
        return;
    }
    stepFailed(slot, o.transport, now);
}

// An error of the step, counted: what its onError says.
void Worker::stepFailed(std::uint32_t slot, bool transport, Nanos now)
{
    Slot& s = m_slots[slot];
    s.transportFailed |= transport;
    switch (StepPolicy::afterError(m_plan.steps[std::size_t(s.step)], transport)) {
    case StepPolicy::AfterError::GoOnNextTurn: // it failed inside its own send: not deeper in this turn
        --m_inFlight;
        m_waits.goOnAt(slot, now);
        return;
    case StepPolicy::AfterError::GoOn:
        completeStep(slot, now);
        return;
    case StepPolicy::AfterError::EndIteration:
        break;
    case StepPolicy::AfterError::StopUser:
        m_pacer->retire(slot);
        break;
    case StepPolicy::AfterError::StopRun:
        m_ending.stepStopsRun(m_setup.stepOffset + std::uint32_t(s.step), now); // the run's place of it
        break;
    }
    // the run stops here, before this user's iteration ends: no user of this worker starts another request
    // (newman's --bail sends nothing more)
    if (m_ending.stopRunAt() && !m_ending.stopping())
        beginStop();
    finishIteration(slot, now);
}

// A step answered successfully (or an error the step continues past). A step
// with a think time pauses its user first (the slot waits, nothing is in flight).
void Worker::completeStep(std::uint32_t slot, Nanos now)
{
    --m_inFlight;
    const ThinkTime& think = m_plan.steps[std::size_t(m_slots[slot].step)].think;
    if (!think.none() && !m_ending.stopping()) {
        m_waits.think(slot, think, now);
        return;
    }
    nextStep(slot, now, now);
}

// The step again (its repeats), the step after the slot's current one (or where its script jumped), measured
// from `intended`, or the end of its iteration.
void Worker::nextStep(std::uint32_t slot, Nanos intended, Nanos now)
{
    Slot& s = m_slots[slot];
    if (s.single) { // a recorded request is its iteration
        endIteration(slot, now, false);
        return;
    }
    const int jump = m_scripts ? m_scripts->takeJump(slot) : StepPolicy::kNoJump; // postman.setNextRequest
    const std::size_t next = m_policy.next(slot, std::size_t(s.step), jump);
    if (next == StepPolicy::kEnd)
        endIteration(slot, now, false);
    else
        sendStep(slot, int(next), intended, now);
}

// Users whose pause is over go on, measured from when it ended; tries whose backoff is over are sent again,
// measured from now.
void Worker::resumeWaits(Nanos now)
{
    std::uint32_t slot = 0;
    for (Nanos due = 0; m_waits.thinkerDue(now, slot, due);) {
        if (due < m_calendar.end())
            nextStep(slot, due, now);
        else // a pause that ends with the plan ends its iteration there
            endIteration(slot, now, false);
    }
    while (m_waits.retryDue(now, slot))
        sendStep(slot, m_slots[slot].step, now, now, true);
    while (m_waits.drawDue(now, slot))
        if (!drawValues(slot, now)) // the data ran out (or the run stops) while it waited
            endIteration(slot, now, false);
}

void Worker::finishIteration(std::uint32_t slot, Nanos now, bool failed)
{
    --m_inFlight;
    endIteration(slot, now, failed);
}

void Worker::keepFirst(Slot& s, const AnswerView& a)
{
    s.firstAnswered = true;
    s.first.status = a.status;
    s.first.headers = a.headers ? *a.headers : HeaderPairs{};
    s.first.body.assign(a.body);
}

void Worker::endIteration(std::uint32_t slot, Nanos now, bool failed)
{
    Slot& s = m_slots[slot];
    if (s.second >= 0) { // replay's diffAgainst: the request to the second server, once the first answered
        const int second = std::exchange(s.second, -1);
        if (s.firstAnswered && !m_ending.stopping()) {
            s.firstFailed = failed;
            sendStep(slot, second, now, now);
            return;
        }
    }
    failed |= std::exchange(s.firstFailed, false);
    s.firstAnswered = false;
    m_hooks->iterationEnds(slot, now);
    if (m_requests.checksOut())
        m_requests.endIteration(slot);
    s.step = -1;
    s.single = false;
    failed |= std::exchange(s.transportFailed, false);
    m_pacer->iterationDone(slot, now, failed);
}

} // namespace stampede
