// What becomes of a step once its outcome is known: an answer or a failure is
// judged first (checks, the status), then either tried again (the step's
// retry: nothing of that try is counted but the retry itself) or counted,
// and the iteration goes on by the step's plan: its repeats, its think time,
// the next step, or what its onError says. Groups (transactions) are measured
// here as the iteration leaves them.
#include "worker.h"

#include "grpc/protoschema.h"

#include <algorithm>

namespace stampede {

void Worker::onAnswer(std::uint32_t tag, const Answer& answer, Nanos now)
{
    if (answer.failed)
        fail(tag, answer.error, answer.why, now);
    else if (answer.grpc && answer.status < 400) // a status >= 400 is not gRPC's answer: an HTTP error as any other
        onGrpcAnswer(tag, answer, now);
    else
        onHttpAnswer(tag, answer, now);
}

void Worker::onHttpAnswer(std::uint32_t tag, const Answer& answer, Nanos now)
{
    Slot& slot = m_slots[tag];
    const PlannedStep& st = m_plan.steps[std::size_t(slot.step)];
    Outcome o;
    o.status = answer.status;
    o.bytesIn = answer.bytesIn;
    o.timeToFirstByte = answer.timeToFirstByte;
    o.answered = true;
    o.sample = answer.errorSample;
    o.verdict = answer.status >= 400 ? Verdict::HttpError : Verdict::Pass;
    AnswerView a;
    if (m_flows && !st.grpc) {
        if (!m_stepHooks[std::size_t(slot.step)].empty() && hooksTake(tag, answer, now))
            return; // a hook sent the step again (a redirect's hop): its answer is not the step's
        a = answerOf(tag, answer, answer.status, now);
        o.verdict = judge(tag, a, o.why);
    }
    settle(tag, o, &a, now);
}

void Worker::onGrpcAnswer(std::uint32_t tag, const Answer& answer, Nanos now)
{
    if (answer.status != 200 || answer.grpcStatus < 0) {
        fail(tag, ErrorClass::Protocol,
             answer.status != 200 ? "HTTP status " + std::to_string(answer.status) + " to a gRPC call"
                                  : std::string("the answer carries no grpc-status"),
             now);
        return;
    }
    Outcome o;
    o.status = answer.grpcStatus;
    o.bytesIn = answer.bytesIn;
    o.timeToFirstByte = answer.timeToFirstByte;
    o.answered = true;
    o.verdict = answer.grpcStatus != 0 ? Verdict::GrpcError : Verdict::Pass;
    AnswerView a;
    if (m_flows) {
        a = answerOf(tag, answer, answer.grpcStatus, now);
        o.verdict = judge(tag, a, o.why);
    }
    if (o.verdict == Verdict::GrpcError)
        o.why = "grpc-status " + std::to_string(answer.grpcStatus) + " " + grpcCodeName(answer.grpcStatus) +
                (answer.grpcMessage.empty() ? "" : ": " + std::string(answer.grpcMessage));
    settle(tag, o, &a, now);
}

void Worker::fail(std::uint32_t tag, ErrorClass error, std::string_view why, Nanos now)
{
    Outcome o;
    o.transport = true;
    if (error == ErrorClass::Timeout && m_plan.steps[std::size_t(m_slots[tag].step)].grpc) {
        // a gRPC client's own deadline: DEADLINE_EXCEEDED, as any gRPC client reports it
        o.verdict = Verdict::GrpcError;
        o.status = 4;
        o.why = "grpc-status 4 DEADLINE_EXCEEDED: the deadline passed (" + std::string(why) + ")";
    } else {
        o.verdict = Verdict::Failed;
        o.errorClass = error;
        o.why = why;
        testsWithoutAnswer(tag, error, now);
    }
    settle(tag, o, nullptr, now);
}

// A collection run (newman's verdict) runs a request's test script also when the request could not be made or
// answered, on no answer (code 0, no headers, no body), and counts its tests, as newman does; not for a try
// that is retried, nor for a request that was never made (a value it could not carry, a pre-request script
// that failed).
void Worker::testsWithoutAnswer(std::uint32_t tag, ErrorClass error, Nanos now)
{
    const Slot& s = m_slots[tag];
    const PlannedStep& st = m_plan.steps[std::size_t(s.step)];
    if (!m_plan.testsVerdict || st.grpc || !st.scripts || st.scripts->test.empty() || s.tries < st.retries ||
        error == ErrorClass::Render || error == ErrorClass::Extract || error == ErrorClass::Script)
        return;
    static const HeaderPairs none;
    AnswerView a;
    a.headers = &none;
    a.elapsedNanos = now - s.intended;
    m_checkResults.assign(st.checks.size(), kNotRun);
    m_checkFailures.clear();
    Verdict verdict = Verdict::Failed; // the request's failure stands
    std::string why;
    testScript(tag, st, a, verdict, why);
}

// Whether the step's retry takes this outcome: not what would fail the same
// way again (a value the request cannot carry, a name never extracted), and
// not a try that could not be made before the plan's end.
bool Worker::retryLater(std::uint32_t slot, const Outcome& o, Nanos now)
{
    Slot& s = m_slots[slot];
    const PlannedStep& st = m_plan.steps[std::size_t(s.step)];
    if (o.verdict == Verdict::Pass || s.tries >= st.retries || m_stopping)
        return false;
    if (o.verdict == Verdict::Failed && (o.errorClass == ErrorClass::Render || o.errorClass == ErrorClass::Extract ||
                                         o.errorClass == ErrorClass::Script))
        return false;
    const Nanos due = now + st.backoff;
    if (due >= m_end)
        return false;
    ++s.tries;
    ++metricsAt(std::size_t(s.step), now).counters.retries;
    --m_inFlight;
    m_retrying.emplace(due, slot);
    return true;
}

void Worker::recordTimes(StepMetrics& m, const Slot& s, Nanos now, Nanos timeToFirstByte)
{
    m.latency.record(std::uint64_t(std::max<Nanos>(0, now - s.intended) / kNanosPerMicro));
    m.serviceTime.record(std::uint64_t(std::max<Nanos>(0, now - s.sent) / kNanosPerMicro));
    if (timeToFirstByte >= 0)
        m.firstByte.record(std::uint64_t(timeToFirstByte / kNanosPerMicro));
}

void Worker::settle(std::uint32_t slot, const Outcome& o, const AnswerView* a, Nanos now)
{
    if (retryLater(slot, o, now)) {
        m_checkResults.clear(); // that try is not counted, nor what its checks said
        m_namedResults.clear();
        m_checkFailures.clear();
        return;
    }
    Slot& s = m_slots[slot];
    const PlannedStep& st = m_plan.steps[std::size_t(s.step)];
    StepMetrics& m = metricsAt(std::size_t(s.step), now);
    ++m.counters.requests;
    if (o.answered) {
        m.counters.bytesIn += o.bytesIn;
        recordTimes(m, s, now, o.timeToFirstByte);
    }
    for (std::size_t i = 0; i < m_checkResults.size(); ++i)
        if (m_checkResults[i] != kNotRun)
            ++(m_checkResults[i] ? m.checks[i].passed : m.checks[i].failed);
    m_checkResults.clear();
    for (const auto& [k, message] : m_checkFailures)
        m.noteMessage(k, message);
    m_checkFailures.clear();
    for (const NamedResult& r : m_namedResults) {
        NamedCheckCount& n = m.namedEntry(r.name);
        ++(r.passed ? n.count.passed : n.count.failed);
        if (!r.passed && n.message.empty())
            n.message = utf8Prefix(r.message, kMaxCheckMessageLength);
    }
    m_namedResults.clear();
    if (st.group >= 0)
        s.groupEnd = now;
    switch (o.verdict) {
    case Verdict::Pass:
        completeStep(slot, now);
        return;
    case Verdict::HttpError: {
        const ErrorClass c = o.status >= 500 ? ErrorClass::Http5xx : ErrorClass::Http4xx;
        m.counters.addError(c);
        keepSample(s, c, o.status, o.sample, {});
        break;
    }
    case Verdict::GrpcError:
        m.counters.addGrpcError(o.status);
        keepSample(s, ErrorClass::Grpc, 0, {}, o.why);
        break;
    case Verdict::CheckFailed:
        m.counters.addError(ErrorClass::Check);
        failCheck(s, *a, o.why);
        break;
    case Verdict::ScriptFailed:
        m.counters.addError(ErrorClass::Script);
        failCheck(s, *a, o.why, ErrorClass::Script);
        break;
    case Verdict::Failed:
        m.counters.addError(o.errorClass);
        keepSample(s, o.errorClass, 0, {}, o.why);
        break;
    }
    stepFailed(slot, o.transport, now);
}

// An error of the step, counted: what its onError says.
void Worker::stepFailed(std::uint32_t slot, bool transport, Nanos now)
{
    Slot& s = m_slots[slot];
    const PlannedStep& st = m_plan.steps[std::size_t(s.step)];
    s.groupFailed = true;
    s.transportFailed |= transport;
    switch (st.onError) {
    case OnError::Continue:
        if (transport) { // it failed inside its own send: go on at the loop's next turn, not deeper in this one
            --m_inFlight;
            m_thinking.emplace(now, slot);
            return;
        }
        completeStep(slot, now);
        return;
    case OnError::NextIteration:
        break;
    case OnError::StopUser:
        m_pacer->retire(slot);
        break;
    case OnError::StopRun:
        if (m_stopRunAt == 0) {
            m_stopRunAt = now;
            m_stopRunStep = m_setup.stepOffset + std::uint32_t(s.step); // the run's place of it
        }
        break;
    }
    // the run stops here, before this user's iteration ends: no user of this worker starts another request
    // (newman's --bail sends nothing more)
    if (m_stopRunAt && !m_stopping) {
        if (m_setup.stopRun)
            m_setup.stopRun->store(true, std::memory_order_relaxed);
        beginStop();
    }
    finishIteration(slot, now);
}

// A step answered successfully (or an error the step continues past). A step
// with a think time pauses its user first (the slot waits, nothing is in flight).
void Worker::completeStep(std::uint32_t slot, Nanos now)
{
    --m_inFlight;
    const ThinkTime& think = m_plan.steps[std::size_t(m_slots[slot].step)].think;
    if (!think.none() && !m_stopping) {
        m_thinking.emplace(now + think.sample(m_random), slot);
        return;
    }
    nextStep(slot, now, now);
}

// The step again (its repeats), the step after the slot's current one,
// measured from `intended`, or the end of its iteration.
void Worker::nextStep(std::uint32_t slot, Nanos intended, Nanos now)
{
    Slot& s = m_slots[slot];
    if (s.single) { // a recorded request is its iteration
        endIteration(slot, now, false);
        return;
    }
    const auto current = std::size_t(s.step);
    if (s.jump == kNoJump && ++s.repeated < m_plan.steps[current].repeat) {
        sendStep(slot, int(current), intended, now);
        return;
    }
    const std::size_t next = s.jump == kNoJump ? current + 1 : std::size_t(std::exchange(s.jump, kNoJump));
    if (next >= m_plan.steps.size()) {
        endIteration(slot, now, false);
        return;
    }
    if (s.group >= 0 && m_plan.steps[next].group != s.group)
        leaveGroup(s, now);
    s.repeated = 0;
    sendStep(slot, int(next), intended, now);
}

// The slot's group (transaction) is over for this iteration: its time from
// its first step's intended start to its last step's end, failed if any of
// its steps failed.
void Worker::leaveGroup(Slot& s, Nanos now)
{
    if (now >= m_secondEnd)
        rollSeconds(now);
    StepMetrics& m = m_current->groups[m_setup.groupOffset + std::size_t(s.group)];
    ++m.counters.requests;
    if (s.groupFailed)
        ++m.counters.errors; // the transaction failed (its step's error is counted by its class there)
    m.latency.record(std::uint64_t(std::max<Nanos>(0, s.groupEnd - s.groupStart) / kNanosPerMicro));
    s.group = -1;
}

// Users whose pause is over go on, measured from when it ended.
void Worker::resumeThinkers(Nanos now)
{
    while (!m_thinking.empty() && m_thinking.top().first <= now) {
        const auto [due, slot] = m_thinking.top();
        m_thinking.pop();
        if (due < m_end)
            nextStep(slot, due, now);
        else // a pause that ends with the plan ends its iteration there
            endIteration(slot, now, false);
    }
}

// Users at a rendezvous that released go on at once, all of them, measured
// from the release (the wait is the rendezvous', not the target's).
void Worker::resumeRendezvous(Nanos now)
{
    if (!m_rendezvous || m_parked.empty())
        return;
    const std::uint64_t generation = m_rendezvous->generation();
    if (generation == m_rendezvousSeen)
        return;
    m_rendezvousSeen = generation;
    std::size_t kept = 0;
    for (std::size_t k = 0; k < m_parked.size(); ++k) {
        const std::uint32_t slot = m_parked[k];
        Slot& s = m_slots[slot];
        const std::size_t point = m_setup.stepOffset + std::size_t(s.step);
        if (!m_rendezvous->released(point, s.ticket)) {
            m_parked[kept++] = slot;
            continue;
        }
        StepCounters& c = metricsAt(std::size_t(s.step), now).counters;
        ++c.rendezvous;
        c.rendezvousTimeouts += m_rendezvous->releasedByTimeout(point, s.ticket);
        m_released.push_back(slot);
    }
    m_parked.resize(kept);
    for (const std::uint32_t slot : std::exchange(m_released, {})) { // sent after the scan: a send may park again
        m_slots[slot].metRendezvous = true;
        sendStep(slot, m_slots[slot].step, now, now);
    }
}

// Tries whose backoff is over are sent again, measured from now.
void Worker::resumeRetries(Nanos now)
{
    while (!m_retrying.empty() && m_retrying.top().first <= now) {
        const std::uint32_t slot = m_retrying.top().second;
        m_retrying.pop();
        sendStep(slot, m_slots[slot].step, now, now, true);
    }
}

void Worker::finishIteration(std::uint32_t slot, Nanos now, bool failed)
{
    --m_inFlight;
    endIteration(slot, now, failed);
}

void Worker::endIteration(std::uint32_t slot, Nanos now, bool failed)
{
    Slot& s = m_slots[slot];
    if (s.group >= 0)
        leaveGroup(s, now);
    s.step = -1;
    s.single = false;
    failed |= std::exchange(s.transportFailed, false);
    m_pacer->iterationDone(slot, now, failed);
}

} // namespace stampede
