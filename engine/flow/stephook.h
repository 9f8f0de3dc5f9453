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
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

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
    const Endpoint* server = nullptr; // set: the server found as the request was rendered (a host set at run time)

    // The server's host, port and scheme, as cookies and redirects go by them.
    const std::string& host() const { return server ? server->host : plan.host; }
    unsigned port() const { return server ? server->port : plan.port; }
    bool secure() const { return server ? bool(server->tls) : plan.secure; }
};

// What the worker lends its hooks.
class FlowHost
{
public:
    virtual ~FlowHost() = default;
    // The step's counters and histograms of the second `now` falls in.
    virtual StepMetrics& stepMetrics(std::size_t step, Nanos now) = 0;
    // A group's (the plan's `groups`) of the second `now` falls in.
    virtual StepMetrics& groupMetrics(std::size_t group, Nanos now) = 0;
    // `answer` counted as an answered request of the step (its bytes and times), which goes on with another send.
    virtual void countAnswer(const StepCall& call, const Answer& answer) = 0;
    // The step's request again, to `target` on its server (as GET without its body when `asGet`): the step's
    // hooks see it before it goes (StepCall::hop).
    virtual void sendAgain(const StepCall& call, std::string_view target, bool asGet) = 0;
    // The calendar's time, in whole seconds since 1970, on the run's clock.
    virtual std::int64_t unixSeconds() const = 0;
    // The user a hook held at its step goes on from `now`: the step begins again (the hook lets it pass).
    virtual void resume(std::uint32_t user, Nanos now) = 0;
    // Wakes the loop; callable from any thread (a hook that another thread's event concerns).
    virtual std::function<void()> doorbell() = 0;
    // The user's own value of an extracted variable (plan.variables[variable]) set, or unset (null).
    virtual void setOwnValue(std::uint32_t user, std::uint16_t variable, const std::string* value) = 0;
};

class RendezvousBoard;
class SharedAccess;

// What a worker's hooks are made for.
struct HookSetup
{
    const ScenarioPlan& plan;
    std::uint32_t users = 0;
    FlowHost& host;
    RendezvousBoard* board = nullptr; // the engine's rendezvous points (null: none, and no step waits)
    SharedAccess* shared = nullptr;   // the run's shared data (null: none, and ${shared.KEY} is never set)
    std::uint32_t stepOffset = 0;     // the plan's steps among the run's (a plan of several scenarios)
};

class StepHook
{
public:
    virtual ~StepHook() = default;
    // A new iteration on `user`; `fresh` when it is not the same user's next (the open model: a slot is an
    // iteration's place, and every iteration starts anew).
    virtual void newIteration(std::uint32_t /*user*/, bool /*fresh*/) {}
    // The step begins for the user (its first send, a repeat's, a retry's; a user held once it is resumed),
    // meant to start at `intended`, before its request is made. Held: the hook holds the user there (nothing is
    // made or sent, and no later hook of the step begins) until it resumes it (FlowHost::resume), or the run
    // stops (letGo).
    enum class Begin
    {
        Go,
        Held
    };
    virtual Begin begin(const StepCall& /*call*/, Nanos /*intended*/) { return Begin::Go; }
    // A hook that holds users (a rendezvous): each turn of the loop (it may resume users); whether it holds any;
    // and when the run stops, the users it holds, into `users` (they go no further).
    virtual void onTurn(Nanos /*now*/) {}
    virtual bool holds() const { return false; }
    virtual void letGo(std::vector<std::uint32_t>& /*users*/) {}
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
    // The step's outcome is counted (an answer judged, or no answer; not a try that is retried): `failed` when it
    // is an error of the step.
    virtual void settled(const StepCall& /*call*/, bool /*failed*/) {}
    // The user's iteration ends (every hook of the plan hears it, whatever step it ended on).
    virtual void iterationEnds(std::uint32_t /*user*/, Nanos /*now*/) {}
};
using StepHookPtr = std::unique_ptr<StepHook>;

// A worker's hook of `kind` (null: none is needed, a rendezvous without a board).
StepHookPtr makeStepHook(FlowHookKind kind, const HookSetup& setup);

} // namespace stampede
