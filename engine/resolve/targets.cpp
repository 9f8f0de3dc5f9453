#include "targets.h"

#include "grpc/reflection.h"
#include "net/transport.h"

#include <algorithm>

namespace stampede {

namespace {

// The servers of `plan`'s own steps looked up, faults under `prefix` + each step's field.
void lookUp(ScenarioPlan& plan, const std::string& prefix, std::vector<PlanError>& errors)
{
    for (PlannedStep& st : plan.steps) {
        Endpoint& ep = st.endpoint;
        if (ep.length != 0 || !ep.unresolved.empty() || ep.host.empty())
            continue; // looked up, or known not to resolve, or no server (a step of no request)
        std::string err;
        if (ep.lookUp(err))
            continue;
        if (!plan.testsVerdict) {
            errors.push_back({prefix + st.targetField, err});
            continue;
        }
        ep.unresolved = err; // newman's: that request fails (a connect error), the run goes on
        if (std::find(plan.unresolvedHosts.begin(), plan.unresolvedHosts.end(), err) == plan.unresolvedHosts.end())
            plan.unresolvedHosts.push_back(err);
    }
}

// http at auto over TLS: the first server's ALPN settles it.
void settleHttp(ScenarioPlan& plan, const std::string& prefix, std::vector<PlanError>& errors)
{
    if (!plan.alpnDecides || plan.steps.empty())
        return;
    std::string err;
    if (probeAlpn(plan.steps.front().endpoint, plan.connectTimeout, err) == "h2")
        plan.http = HttpVersion::Http2;
    plan.alpnDecides = false;
    if (plan.http == HttpVersion::Http1 && plan.streams > 1)
        errors.push_back({prefix + "streams", kStreamsAreHttp2});
}

} // namespace

PlanOptions::SchemaAsker serverReflection()
{
    return [](const ReflectionOptions& ask, std::string& error) { return fetchByReflection(ask, error); };
}

bool resolveTargets(ScenarioPlan& plan, std::vector<PlanError>& errors)
{
    const std::size_t before = errors.size();
    if (plan.scenarios.empty()) {
        lookUp(plan, "", errors);
        settleHttp(plan, "", errors);
        return errors.size() == before;
    }
    // a plan of several scenarios: each scenario's steps are what its workers run, the run's are their copies
    for (std::size_t k = 0; k < plan.scenarios.size(); ++k) {
        ScenarioPlan& sub = plan.scenarios[k];
        const std::string prefix = "scenarios[" + std::to_string(k) + "].";
        lookUp(sub, prefix, errors);
        settleHttp(sub, prefix, errors);
        for (const std::string& why : sub.unresolvedHosts)
            if (std::find(plan.unresolvedHosts.begin(), plan.unresolvedHosts.end(), why) == plan.unresolvedHosts.end())
                plan.unresolvedHosts.push_back(why);
        const std::size_t first = k < plan.places.size() ? plan.places[k].firstStep : 0;
        for (std::size_t j = 0; j < sub.steps.size() && first + j < plan.steps.size(); ++j)
            plan.steps[first + j].endpoint = sub.steps[j].endpoint;
        plan.http = sub.http; // as the compile takes the run's (the last scenario's)
    }
    plan.alpnDecides = false;
    return errors.size() == before;
}

} // namespace stampede
