#pragma once
// A worker's hooks (stephook.h) as one list: one hook of each kind its plan's
// steps list, shared by the steps that list it, and each step's hooks in the
// order its plan gives. The worker's loop asks the list at each point of a
// step; a plain step has none, and nothing is called for it.
#include "stephook.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace stampede {

class CookieHook;

class StepHooks
{
public:
    // Makes the hooks `setup.plan`'s steps list (a rendezvous only with a board).
    explicit StepHooks(const HookSetup& setup);
    ~StepHooks();
    StepHooks(const StepHooks&) = delete;
    StepHooks& operator=(const StepHooks&) = delete;

    // Whether step `step` has hooks (none: a plain step, which no hook hears of).
    bool any(std::size_t step) const { return !m_byStep[step].empty(); }
    // The cookie jars' hook, which a test script's pm.cookies reads (null: the plan keeps no cookies).
    CookieHook* cookies() const { return m_cookies; }

    // The step's hooks in order (StepHook's): false when one holds the user (no later one begins).
    bool begin(const StepCall& call, Nanos intended);
    void beforeSend(const StepCall& call, Outgoing& out);
    // True when one took the answer (it sent the step again: a redirect's hop); no later one hears it.
    bool take(const StepCall& call, const Answer& answer);
    void settled(const StepCall& call, bool failed);
    // Every hook of the plan: a user's iteration begins, ends (a plan without hooks: nothing is called).
    void newIteration(std::uint32_t user, bool fresh)
    {
        if (!m_hooks.empty())
            eachNewIteration(user, fresh);
    }
    void iterationEnds(std::uint32_t user, Nanos now)
    {
        if (!m_hooks.empty())
            eachIterationEnds(user, now);
    }
    // The hooks that may hold users (a rendezvous): each turn of the loop; whether any holds one; and when the
    // run stops, the users they hold (into `users`). Without such hooks, nothing is called.
    void onTurn(Nanos now)
    {
        if (!m_holders.empty())
            eachTurn(now);
    }
    bool holds() const { return !m_holders.empty() && anyHolds(); }
    void letGo(std::vector<std::uint32_t>& users);

private:
    void eachNewIteration(std::uint32_t user, bool fresh);
    void eachIterationEnds(std::uint32_t user, Nanos now);
    void eachTurn(Nanos now);
    bool anyHolds() const;

    std::vector<StepHookPtr> m_hooks;             // one of each kind the steps list
    std::vector<std::vector<StepHook*>> m_byStep; // per step, its hooks in order
    std::vector<StepHook*> m_holders;             // those that may hold users
    CookieHook* m_cookies = nullptr;
};

} // namespace stampede
