#include "stepoutcome.h"

#include "answerjudge.h"

#include <algorithm>

namespace stampede {

StepOutcome StepOutcome::of(const Answer& answer)
{
    StepOutcome o;
    o.status = answer.code;
    o.bytesIn = answer.bytesIn;
    o.timeToFirstByte = answer.timeToFirstByte;
    o.answered = true;
    o.sample = answer.errorSample;
    o.judged(answer.statusFailed() ? Verdict::StatusError : Verdict::Pass, {}, answer);
    return o;
}

StepOutcome StepOutcome::unanswered(const Answer& answer)
{
    if (!answer.statusFailed())
        return failure(answer.error, answer.why);
    StepOutcome o; // no answer, but a status by its protocol (a call's deadline): counted as that status
    o.transport = true;
    o.status = answer.code;
    o.judged(Verdict::StatusError, {}, answer);
    return o;
}

StepOutcome StepOutcome::failure(ErrorClass error, std::string_view why)
{
    StepOutcome o;
    o.transport = true;
    o.verdict = Verdict::Failed;
    o.errorClass = error;
    o.why = why;
    return o;
}

void StepOutcome::judged(Verdict v, std::string checksWhy, const Answer& answer)
{
    verdict = v;
    if (v == Verdict::StatusError) {
        errorClass = answer.statusError;
        why = statusAccount(answer);
    } else {
        why = std::move(checksWhy);
    }
}

void recordTimes(StepMetrics& m, SendTimes times, Nanos now, Nanos timeToFirstByte)
{
    m.latency.record(std::uint64_t(std::max<Nanos>(0, now - times.intended) / kNanosPerMicro));
    m.serviceTime.record(std::uint64_t(std::max<Nanos>(0, now - times.sent) / kNanosPerMicro));
    if (timeToFirstByte >= 0)
        m.firstByte.record(std::uint64_t(timeToFirstByte / kNanosPerMicro));
}

void countOutcome(StepMetrics& m, const StepOutcome& o, const AnswerView* answer, const OutcomePlace& at, Nanos now)
{
    ++m.counters.requests;
    if (!at.trace.empty())
        at.second.keepTrace(at.step, at.trace);
    if (o.answered) {
        m.counters.bytesIn += o.bytesIn;
        recordTimes(m, at.times, now, o.timeToFirstByte);
    }
    switch (o.verdict) {
    case Verdict::Pass:
        return;
    case Verdict::StatusError:
        m.counters.addStatusError(o.errorClass, o.status);
        keepRawSample(at.second, at.step, o.errorClass, o.sample.empty() ? 0 : o.status, o.sample, o.why, at.trace);
        return;
    case Verdict::CheckFailed:
    case Verdict::ScriptFailed: {
        const ErrorClass c = o.verdict == Verdict::CheckFailed ? ErrorClass::Check : ErrorClass::Script;
        m.counters.addError(c);
        if (answer)
            keepAnswerSample(at.second, at.step, c, *answer, o.why, at.trace);
        return;
    }
    case Verdict::Failed:
        m.counters.addError(o.errorClass);
        keepRawSample(at.second, at.step, o.errorClass, 0, {}, o.why, at.trace);
        return;
    }
}

} // namespace stampede
