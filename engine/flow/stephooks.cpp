#include "stephooks.h"

#include "cookies.h"

#include <algorithm>
#include <map>

namespace stampede {

StepHooks::StepHooks(const HookSetup& setup) : m_byStep(setup.plan.steps.size())
{
    std::map<FlowHookKind, StepHook*> byKind;
    const auto adopt = [&](FlowHookKind kind) -> StepHook* {
        StepHookPtr made = makeStepHook(kind, setup);
        StepHook* h = made.get();
        if (!h)
            return nullptr; // not needed here (a rendezvous without a board)
        m_hooks.push_back(std::move(made));
        if (kind == FlowHookKind::Cookies)
            m_cookies = static_cast<CookieHook*>(h);
        if (kind == FlowHookKind::Rendezvous || kind == FlowHookKind::SharedRead)
            m_holders.push_back(h);
        return h;
    };
    for (std::size_t i = 0; i < setup.plan.steps.size(); ++i)
        for (const FlowHookKind kind : setup.plan.steps[i].hooks) {
            auto [at, fresh] = byKind.try_emplace(kind, nullptr);
            if (fresh)
                at->second = adopt(kind);
            if (at->second)
                m_byStep[i].push_back(at->second);
        }
}

StepHooks::~StepHooks() = default;

bool StepHooks::begin(const StepCall& call, Nanos intended)
{
    for (StepHook* h : m_byStep[call.step])
        if (h->begin(call, intended) == StepHook::Begin::Held)
            return false;
    return true;
}

void StepHooks::beforeSend(const StepCall& call, Outgoing& out)
{
    for (StepHook* h : m_byStep[call.step])
        h->beforeSend(call, out);
}

bool StepHooks::take(const StepCall& call, const Answer& answer)
{
    for (StepHook* h : m_byStep[call.step])
        if (h->onAnswer(call, answer) == StepHook::Next::Taken)
            return true;
    return false;
}

void StepHooks::settled(const StepCall& call, bool failed)
{
    for (StepHook* h : m_byStep[call.step])
        h->settled(call, failed);
}

void StepHooks::eachNewIteration(std::uint32_t user, bool fresh)
{
    for (const StepHookPtr& h : m_hooks)
        h->newIteration(user, fresh);
}

void StepHooks::eachIterationEnds(std::uint32_t user, Nanos now)
{
    for (const StepHookPtr& h : m_hooks)
        h->iterationEnds(user, now);
}

void StepHooks::eachTurn(Nanos now)
{
    for (StepHook* h : m_holders)
        h->onTurn(now);
}

bool StepHooks::anyHolds() const
{
    return std::any_of(m_holders.begin(), m_holders.end(), [](const StepHook* h) { return h->holds(); });
}

void StepHooks::letGo(std::vector<std::uint32_t>& users)
{
    for (StepHook* h : m_holders)
        h->letGo(users);
}

} // namespace stampede
