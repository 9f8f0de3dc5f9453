#pragma once
// Trace context per iteration (a scenario's "trace": W3C traceparent on every
// request): each user's iteration has a trace id of its own, kept with its
// error samples so that a failed request can be looked up in the tracing
// system. A written step's trace id is the `$traceId` variable's value (its
// templates send it); a replayed request's traceparent keeps the recorded
// trace id (an amplified copy gets one derived from it) unless new ones are
// asked for, and its span id is always its own.
#include "core/random.h"
#include "plan/scenarioplan.h"
#include "traffic/trafficrecord.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class IterationTrace
{
public:
    IterationTrace(const ScenarioPlan& plan, std::uint32_t users);
    bool on() const { return m_on; }
    // The variable whose value is a written iteration's trace id (-1: none).
    int variable() const { return m_variable; }
    // A written iteration of `user` begins with `traceId` (the variable's value).
    void begin(std::uint32_t user, std::string_view traceId)
    {
        if (m_on)
            m_users[user].assign(traceId);
    }
    // A replayed request `record` (copy `copy`) begins for `user`: the traceparent it goes with ("" without
    // trace), valid until the next call.
    std::string_view replay(std::uint32_t user, const TrafficRecord& record, std::uint32_t copy);
    // The trace id of `user`'s iteration ("" without trace).
    std::string_view of(std::uint32_t user) const
    {
        return m_on ? std::string_view(m_users[user]) : std::string_view();
    }

private:
    bool m_on = false;
    bool m_newIds = false;
    int m_variable = -1;
    std::vector<std::string> m_users;
    std::string m_traceparent; // a replayed request's, while it is rendered
    FastRandom m_random;
};

} // namespace stampede
