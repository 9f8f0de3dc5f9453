#include "stepoptions.h"

#include "core/text.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>

namespace stampede {

namespace {

constexpr Nanos kMaxWait = 3600 * kNanosPerSecond;

bool onError(const std::string& text, const std::string& field, StepContext& ctx, OnError& out)
{
    static const std::pair<const char*, OnError> kNames[] = {{"continue", OnError::Continue},
                                                             {"nextIteration", OnError::NextIteration},
                                                             {"stopUser", OnError::StopUser},
                                                             {"stopRun", OnError::StopRun}};
    if (text.empty())
        return true;
    for (const auto& [name, value] : kNames)
        if (text == name) {
            out = value;
            return true;
        }
    ctx.error(field, "\"" + text + "\" is not an action: continue, nextIteration, stopUser or stopRun");
    return false;
}

bool duration(const google::protobuf::Duration& d, const std::string& field, StepContext& ctx, Nanos& out)
{
    out = toNanos(d);
    if (out >= 0 && out <= kMaxWait)
        return true;
    ctx.error(field, "must be from 0 to 1h (got " + shortNumber(double(out) / 1e9) + "s)");
    return false;
}

} // namespace

bool compileStepOptions(const v1::Step& st, const std::string& field, StepContext& ctx, ScenarioPlan& plan,
                        PlannedStep& ps)
{
    bool ok = onError(st.on_error(), field + ".onError", ctx, ps.onError);
    if (st.has_retry()) {
        const v1::Retry& r = st.retry();
        if (r.times() < 1 || r.times() > kMaxRetries) {
            ctx.error(field + ".retry.times",
                      "from 1 to " + std::to_string(kMaxRetries) + " (got " + std::to_string(r.times()) + ")");
            ok = false;
        }
        ps.retries = r.times();
        ok &= duration(r.backoff(), field + ".retry.backoff", ctx, ps.backoff);
    }
    if (st.repeat() > kMaxRepeat) {
        ctx.error(field + ".repeat",
                  "at most " + std::to_string(kMaxRepeat) + " (got " + std::to_string(st.repeat()) + ")");
        ok = false;
    }
    ps.repeat = std::max(1u, st.repeat());
    if (!st.group().empty()) {
        const auto it = std::find(plan.groups.begin(), plan.groups.end(), st.group());
        ps.group = int(it - plan.groups.begin());
        if (it == plan.groups.end())
            plan.groups.push_back(st.group());
    }
    if (st.has_rendezvous()) {
        const v1::Rendezvous& r = st.rendezvous();
        if (r.users() < 2) {
            ctx.error(field + ".rendezvous.users",
                      "at least 2 users meet at a rendezvous (got " + std::to_string(r.users()) + ")");
            ok = false;
        }
        ps.rendezvousUsers = r.users();
        if (r.has_timeout())
            ok &= duration(r.timeout(), field + ".rendezvous.timeout", ctx, ps.rendezvousTimeout);
    }
    return ok;
}

void checkStepOptions(const v1::Scenario& scenario, const ScenarioPlan& plan, StepContext& ctx)
{
    // a group's steps follow one another: "a b a" would be two visits, not one transaction
    for (int i = 1; i < scenario.steps_size(); ++i) {
        const std::string& g = scenario.steps(i).group();
        if (g.empty() || scenario.steps(i - 1).group() == g)
            continue;
        for (int k = 0; k < i - 1; ++k)
            if (scenario.steps(k).group() == g) {
                ctx.error("steps[" + std::to_string(i) + "].group",
                          "the steps of group \"" + g + "\" must follow one another (steps[" + std::to_string(k) +
                              "] is in it, the steps between are not)");
                break;
            }
    }
    // a rendezvous of more users than can be there at once never fills: it would only ever time out
    if (!plan.load)
        return;
    const std::uint32_t reach = plan.connections * plan.load->slotsPerConnection(plan.streams);
    for (std::size_t i = 0; i < plan.steps.size(); ++i)
        if (plan.steps[i].rendezvousUsers > reach)
            ctx.error("steps[" + std::to_string(i) + "].rendezvous.users",
                      std::to_string(plan.steps[i].rendezvousUsers) + " users can never meet: at most " +
                          std::to_string(reach) + (plan.load->slotIsUser() ? " virtual users" : " iterations") +
                          " are under way at once");
}

} // namespace stampede
