#include "stephook.h"

#include "cookies.h"
#include "digest.h"
#include "groups.h"
#include "redirects.h"
#include "rendezvouswait.h"
#include "sharedread.h"

namespace stampede {

StepHookPtr makeStepHook(FlowHookKind kind, const HookSetup& setup)
{
    switch (kind) {
    case FlowHookKind::Cookies:
        return std::make_unique<CookieHook>(setup.users, setup.host);
    case FlowHookKind::Redirects:
        return std::make_unique<RedirectHook>(setup.users, setup.plan.followRedirects, setup.host);
    case FlowHookKind::Digest:
        return std::make_unique<DigestHook>(setup.users, setup.plan.steps.size(), setup.host);
    case FlowHookKind::Group:
        return std::make_unique<GroupHook>(setup.users, setup.host);
    case FlowHookKind::Rendezvous:
        if (!setup.board)
            return nullptr;
        return std::make_unique<RendezvousWait>(setup.users, *setup.board, setup.stepOffset, setup.host);
    case FlowHookKind::SharedRead:
        if (!setup.shared)
            return nullptr;
        return std::make_unique<SharedRead>(setup.users, setup.plan, *setup.shared, setup.host);
    }
    return nullptr;
}

} // namespace stampede
