#pragma once
// A step's semantics as hooks behind one small interface, one concern a file
// (cookies.h, redirects.h, ...). The worker's loop calls a step's hooks before
// its request goes and when its answer comes, for the user it runs for; each
// hook keeps its own per-user state. A step's hook list is compiled by the
// plan (PlannedStep::hooks, FlowHookKind); a plain step has none, and the loop
// calls nothing for it.
#include "core/clock.h"
#include "metrics/runmetrics.h"
#include "net/outgoing.h"
#include "net/sessionlistener.h"
#include "plan/scenarioplan.h"

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

namespace stampede {

// A request target's path, without its query: what cookies and relative redirects go by.
inline std::string_view pathOf(std::string_view target)
{
    return target.substr(0, target.find('?'));
}

// One send of a step, as its hooks see it.
struct StepCall
{
    std::uint32_t user = 0; // the worker's slot: a virtual user (closed model) or an iteration's place (open)
    std::size_t step = 0;
    const PlannedStep& plan;
    std::string& target; // the request target as sent (a redirect hop's): cookies and relative redirects use it
    bool hop = false;    // another send of the same step (a redirect's hop), not the step's own first send
    Nanos now = 0;
};

// What the worker lends its hooks.
class FlowHost
{
public:
    virtual ~FlowHost() = default;
    // The step's counters and histograms of the second `now` falls in.
    virtual StepMetrics& stepMetrics(std::size_t step, Nanos now) = 0;
    // `answer` counted as an answered request of the step (its bytes and times), which goes on with another send.
    virtual void countAnswer(const StepCall& call, const Answer& answer) = 0;
    // The step's request again, to `target` on its server (as GET without its body when `asGet`): the step's
    // hooks see it before it goes (StepCall::hop).
    virtual void sendAgain(const StepCall& call, std::string_view target, bool asGet) = 0;
    // The calendar's time, in whole seconds since 1970, on the run's clock.
    virtual std::int64_t unixSeconds() const = 0;
};

class StepHook
{
public:
    virtual ~StepHook() = default;
    // A new iteration on `user`; `fresh` when it is not the same user's next (the open model: a slot is an
    // iteration's place, and every iteration starts anew).
    virtual void newIteration(std::uint32_t /*user*/, bool /*fresh*/) {}
    // The step's request is about to go: what the session applies to it as it encodes it (a Cookie header).
    virtual void beforeSend(const StepCall& /*call*/, Outgoing& /*out*/) {}
    // Its answer came, before it is judged: Taken when the hook sent the step again (a redirect's hop), and the
    // answer is not the step's.
    enum class Next
    {
        Judge,
        Taken
    };
    virtual Next onAnswer(const StepCall& /*call*/, const Answer& /*answer*/) { return Next::Judge; }
};
using StepHookPtr = std::unique_ptr<StepHook>;

// A worker's hook of `kind` for `users` users of `plan`.
StepHookPtr makeStepHook(FlowHookKind kind, const ScenarioPlan& plan, std::uint32_t users, FlowHost& host);

} // namespace stampede
