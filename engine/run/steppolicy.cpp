#include "steppolicy.h"

namespace stampede {

StepPolicy::StepPolicy(const std::vector<PlannedStep>& steps, std::uint32_t users) : m_steps(steps)
{
    reset(users);
}

void StepPolicy::reset(std::uint32_t users)
{
    m_tries.assign(users, 0);
    m_repeated.assign(users, 0);
}

Nanos StepPolicy::retryAt(std::uint32_t user, std::size_t step, Verdict verdict, ErrorClass error, Nanos now, Nanos end)
{
    const PlannedStep& st = m_steps[step];
    if (verdict == Verdict::Pass || m_tries[user] >= st.retries)
        return kNever;
    if (verdict == Verdict::Failed &&
        (error == ErrorClass::Render || error == ErrorClass::Extract || error == ErrorClass::Script))
        return kNever;
    const Nanos due = now + st.backoff;
    if (due >= end)
        return kNever;
    ++m_tries[user];
    return due;
}

StepPolicy::AfterError StepPolicy::afterError(const PlannedStep& step, bool transport)
{
    switch (step.onError) {
    case OnError::Continue:
        return transport ? AfterError::GoOnNextTurn : AfterError::GoOn;
    case OnError::NextIteration:
        return AfterError::EndIteration;
    case OnError::StopUser:
        return AfterError::StopUser;
    case OnError::StopRun:
        return AfterError::StopRun;
    }
    return AfterError::EndIteration;
}

std::size_t StepPolicy::next(std::uint32_t user, std::size_t current, int jump)
{
    if (jump == kNoJump && ++m_repeated[user] < m_steps[current].repeat)
        return current;
    m_repeated[user] = 0;
    if (jump < 0 && jump != kNoJump) // a jump to no step: the iteration's end
        return kEnd;
    const std::size_t next = jump == kNoJump ? current + 1 : std::size_t(jump);
    return next >= m_steps.size() ? kEnd : next;
}

} // namespace stampede
