#include "groups.h"

#include <algorithm>

namespace stampede {

StepHook::Begin GroupHook::begin(const StepCall& call, Nanos intended)
{
    Visit& v = m_users[call.user];
    const int group = call.plan.group;
    if (v.group == group)
        return Begin::Go; // the same group's next step (or the same step again: a repeat, a retry)
    if (v.group >= 0)
        leave(v, call.now);
    if (group >= 0)
        v = {group, intended, intended, false};
    return Begin::Go;
}

void GroupHook::settled(const StepCall& call, bool failed)
{
    Visit& v = m_users[call.user];
    if (v.group < 0)
        return;
    v.end = call.now;
    v.failed |= failed;
}

void GroupHook::iterationEnds(std::uint32_t user, Nanos now)
{
    Visit& v = m_users[user];
    if (v.group >= 0)
        leave(v, now);
}

void GroupHook::leave(Visit& v, Nanos now)
{
    StepMetrics& m = m_host.groupMetrics(std::size_t(v.group), now);
    ++m.counters.requests;
    if (v.failed)
        ++m.counters.errors; // the transaction failed (its step's error is counted by its class there)
    m.latency.record(std::uint64_t(std::max<Nanos>(0, v.end - v.start) / kNanosPerMicro));
    v.group = -1;
}

} // namespace stampede
