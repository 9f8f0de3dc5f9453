#include "stephook.h"

#include "cookies.h"
#include "digest.h"
#include "redirects.h"

namespace stampede {

StepHookPtr makeStepHook(FlowHookKind kind, const ScenarioPlan& plan, std::uint32_t users, FlowHost& host)
{
    switch (kind) {
    case FlowHookKind::Cookies:
        return std::make_unique<CookieHook>(users, host);
    case FlowHookKind::Redirects:
        return std::make_unique<RedirectHook>(users, plan.followRedirects, host);
    case FlowHookKind::Digest:
        return std::make_unique<DigestHook>(users, plan.steps.size(), host);
    }
    return nullptr;
}

} // namespace stampede
