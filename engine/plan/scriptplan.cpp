#include "scriptplan.h"

#include "metrics/runmetrics.h"
#include "script/scriptcheck.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cstdio>
#include <random>

namespace stampede {

namespace {

// A version 4 UUID for an item that has no id (Postman makes one when it loads such an item).
std::string madeId()
{
    static thread_local std::mt19937_64 random{std::random_device{}()};
    const std::uint64_t hi = random(), lo = random();
    char text[37];
    std::snprintf(text, sizeof text, "%08x-%04x-4%03x-%04x-%012llx", unsigned(hi >> 32), unsigned((hi >> 16) & 0xffff),
                  unsigned(hi & 0xfff), unsigned(0x8000 | (lo >> 48 & 0x3fff)),
                  static_cast<unsigned long long>(lo & 0xffffffffffffULL));
    return text;
}

// What pm.request shows of a gRPC call: its target and method, metadata and messages as written.
void describeGrpc(const v1::GrpcRequest& g, StepScriptPlan& sp)
{
    sp.method = "POST";
    std::string target = g.target();
    while (!target.empty() && target.back() == '/')
        target.pop_back();
    sp.url = target + "/" + g.method();
    sp.methodPath = g.method();
    std::replace(sp.methodPath.begin(), sp.methodPath.end(), '/', '.');
    for (const auto& h : g.metadata())
        sp.headers.emplace_back(h.name(), h.value());
    if (g.messages().empty())
        sp.messages.push_back(g.data().empty() ? "{}" : g.data());
    else
        sp.messages.assign(g.messages().begin(), g.messages().end());
    sp.body = sp.messages.front();
}

} // namespace

std::vector<std::string> scriptSetNames(const v1::Scenario& scenario)
{
    std::vector<std::string> names;
    for (const auto& st : scenario.steps())
        for (const std::string* source : {&st.pre_request_script(), &st.test_script()})
            for (std::string& name : script::scriptNames(*source).sets)
                if (std::find(names.begin(), names.end(), name) == names.end())
                    names.push_back(std::move(name));
    return names;
}

std::string scriptSetField(const v1::Scenario& scenario, const std::string& name)
{
    for (int i = 0; i < scenario.steps_size(); ++i) {
        const auto& st = scenario.steps(i);
        for (const auto& [source, field] :
             {std::pair{&st.pre_request_script(), "preRequestScript"}, {&st.test_script(), "testScript"}}) {
            const auto sets = script::scriptNames(*source).sets;
            if (std::find(sets.begin(), sets.end(), name) != sets.end())
                return "steps[" + std::to_string(i) + "]." + field;
        }
    }
    return {};
}

bool compileScripts(const v1::Step& st, const std::string& field, const ScenarioPlan& plan, StepContext& ctx,
                    PlannedStep& ps)
{
    if (st.pre_request_script().empty() && st.test_script().empty())
        return true;
    auto sp = std::make_shared<StepScriptPlan>();
    bool ok = true;
    if (ps.grpc && !st.pre_request_script().empty()) {
        ctx.error(field + ".preRequestScript", "a gRPC step's messages are not a request a pre-request script "
                                               "changes; its test script runs on the answer");
        return false;
    }
    for (const auto& [source, name, keep, keepName] :
         {std::tuple{&st.pre_request_script(), field + ".preRequestScript", &sp->pre, &sp->preName},
          std::tuple{&st.test_script(), field + ".testScript", &sp->test, &sp->testName}}) {
        if (source->empty())
            continue;
        for (const script::ScriptNote& n : script::unsupportedCalls(*source)) {
            ctx.error(name, "line " + std::to_string(n.line) + ": " + n.what + " is not run by Stampede");
            ok = false;
        }
        *keep = *source;
        *keepName = name;
        const script::ScriptNames names = script::scriptNames(*source);
        // each pm.test named by a literal is a check of the step (the pre-request script's first, as newman
        // lists them)
        for (const std::string& test : names.tests)
            if (std::find(sp->tests.begin(), sp->tests.end(), test) == sp->tests.end())
                sp->tests.push_back(test);
        sp->otherTests = sp->otherTests || names.otherTests;
        const bool pre = keep == &sp->pre;
        for (const std::string& set : names.sets)
            for (std::size_t v = 0; v < plan.variables.size(); ++v)
                if (plan.variables[v].extracted && plan.variables[v].name == set) {
                    if (std::find(sp->sets.begin(), sp->sets.end(), std::uint16_t(v)) == sp->sets.end())
                        sp->sets.push_back(std::uint16_t(v));
                    if (pre)
                        sp->preSets.push_back(std::uint16_t(v));
                }
    }
    if (!ok)
        return false;
    // the test script's checks come after the step's own
    sp->firstCheck = std::uint32_t(ps.checks.size());
    if (ps.checks.size() + sp->tests.size() > kMaxChecksPerStep) {
        ctx.error(field + ".testScript", "at most " + std::to_string(kMaxChecksPerStep) +
                                             " checks and pm.test names per step (got " +
                                             std::to_string(ps.checks.size() + sp->tests.size()) + ")");
        return false;
    }
    for (const std::string& test : sp->tests) {
        if (std::any_of(ps.checks.begin(), ps.checks.end(), [&](const Check& c) { return c.name == test; })) {
            ctx.error(field + ".testScript", "the step has another check named \"" + test + "\"");
            return false;
        }
        Check c;
        c.name = test;
        c.subject = Check::Subject::Script;
        ps.checks.push_back(std::move(c));
    }
    if (!sp->test.empty())
        ps.needs |= kNeedsHeaders | kNeedsBody;
    sp->description = st.description();
    sp->requestId = st.postman_id().empty() ? madeId() : st.postman_id();
    if (ps.grpc) {
        describeGrpc(st.grpc(), *sp);
        ps.scripts = std::move(sp);
        return true;
    }
    const v1::HttpRequest& rq = st.request();
    sp->method = ps.method;
    sp->url = rq.url();
    sp->body = rq.body();
    for (const auto& h : rq.headers())
        sp->headers.emplace_back(h.name(), h.value());
    for (const auto& f : rq.form().fields())
        sp->form.emplace_back(f.name(), f.value());
    if (rq.has_form())
        sp->formMode = rq.form().encoding() == v1::Form::FORM_MULTIPART ? "formdata" : "urlencoded";
    ps.scripts = std::move(sp);
    return true;
}

} // namespace stampede
