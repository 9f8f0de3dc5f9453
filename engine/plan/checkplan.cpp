#include "checkplan.h"

#include "metrics/runmetrics.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cmath>

namespace stampede {

namespace {

std::string quoted(const std::string& s)
{
    return "\"" + s + "\"";
}

// The status codes of a check: HTTP codes (100-599) or gRPC codes by name (or number 0-16).
bool statusCodes(const google::protobuf::ListValue& list, bool grpc, const std::string& field, StepContext& ctx,
                 std::vector<int>& out)
{
    if (list.values_size() == 0) {
        ctx.error(field, grpc ? "give one or more gRPC codes, e.g. [\"OK\"]" : "give one or more codes, e.g. [200]");
        return false;
    }
    for (int i = 0; i < list.values_size(); ++i) {
        const auto& v = list.values(i);
        const std::string at = field + "[" + std::to_string(i) + "]";
        if (v.has_number_value()) {
            const double n = v.number_value();
            const bool ok = n == std::floor(n) && (grpc ? n >= 0 && n < double(kGrpcCodeCount) : n >= 100 && n <= 599);
            if (!ok) {
                ctx.error(at, grpc ? "a gRPC code is 0 to 16 or its name, e.g. \"NOT_FOUND\""
                                   : "an HTTP status is a whole number from 100 to 599");
                return false;
            }
            out.push_back(int(n));
            continue;
        }
        if (v.has_string_value() && grpc) {
            int code = -1;
            for (int c = 0; c < int(kGrpcCodeCount); ++c)
                if (grpcCodeName(c) == v.string_value())
                    code = c;
            if (code < 0) {
                ctx.error(at, quoted(v.string_value()) + " is not a gRPC code (OK, CANCELLED, ... UNAUTHENTICATED)");
                return false;
            }
            out.push_back(code);
            continue;
        }
        ctx.error(at, grpc ? "a gRPC code is a name such as \"OK\", or a number" : "an HTTP status is a number");
        return false;
    }
    return true;
}

bool compileRegex(const std::string& pattern, const std::string& field, StepContext& ctx, RegexPtr& out)
{
    std::string why;
    out = Regex::compile(pattern, why);
    if (!out)
        ctx.error(field, why);
    return out != nullptr;
}

bool compilePath(const std::string& text, const std::string& field, StepContext& ctx, JsonPath& out)
{
    std::string why;
    auto p = JsonPath::compile(text, why);
    if (!p) {
        ctx.error(field, why);
        return false;
    }
    out = std::move(*p);
    return true;
}

// The test of a jsonPath or header check: exactly one of equals, matches, exists.
bool valueTest(const v1::Check& in, const std::string& field, StepContext& ctx, Check& c)
{
    const int tests = int(in.has_equals()) + int(!in.matches().empty()) + int(in.has_exists());
    if (tests != 1) {
        ctx.error(field, tests ? "give one test, not " + std::to_string(tests)
                               : "give a condition: \"equals\", \"matches\" or \"exists\"");
        return false;
    }
    if (in.has_equals()) {
        c.test = Check::Test::Equals;
        c.equals = in.equals();
        return true;
    }
    if (in.has_exists()) {
        c.test = Check::Test::Exists;
        c.exists = in.exists();
        return true;
    }
    c.test = Check::Test::Matches;
    return compileRegex(in.matches(), field + ".matches", ctx, c.regex);
}

std::string defaultName(const Check& c)
{
    std::string subject;
    switch (c.subject) {
    case Check::Subject::Status:
        subject = "status";
        for (const int s : c.statuses)
            subject += " " + std::to_string(s);
        return subject;
    case Check::Subject::MaxTime:
        return "within " + std::to_string(c.maxNanos / kNanosPerMilli) + " ms";
    case Check::Subject::Script:
    case Check::Subject::RecordedStatus:
    case Check::Subject::SameAsFirst:
        return c.name;
    case Check::Subject::BodyContains:
        return "body contains " + quoted(c.text);
    case Check::Subject::Header:
        subject = "header " + c.text;
        break;
    case Check::Subject::JsonPath:
        subject = c.path.text();
        break;
    }
    switch (c.test) {
    case Check::Test::Equals:
        return subject + " equals " + quoted(c.equals);
    case Check::Test::Matches:
        return subject + " matches /" + c.regex->pattern() + "/";
    case Check::Test::Exists:
        return subject + (c.exists ? " exists" : " is absent");
    case Check::Test::None:
        break;
    }
    return subject;
}

bool compileCheck(const v1::Check& in, const std::string& field, bool grpc, StepContext& ctx, Check& c)
{
    const int subjects = int(in.has_status()) + int(!in.json_path().empty()) + int(!in.header().empty()) +
                         int(!in.body_contains().empty()) + int(in.max_time_ms() > 0);
    if (subjects != 1) {
        ctx.error(field, subjects ? "give one subject per check, not " + std::to_string(subjects)
                                  : "a check needs a condition: \"status\", \"jsonPath\", \"header\", "
                                    "\"bodyContains\" or \"maxTimeMs\"");
        return false;
    }
    c.negate = in.negate();
    bool ok = true;
    if (in.has_status()) {
        c.subject = Check::Subject::Status;
        ok = statusCodes(in.status(), grpc, field + ".status", ctx, c.statuses);
    } else if (!in.json_path().empty()) {
        c.subject = Check::Subject::JsonPath;
        ok = compilePath(in.json_path(), field + ".jsonPath", ctx, c.path) && valueTest(in, field, ctx, c);
    } else if (!in.header().empty()) {
        c.subject = Check::Subject::Header;
        c.text = in.header();
        ok = valueTest(in, field, ctx, c);
    } else if (!in.body_contains().empty()) {
        c.subject = Check::Subject::BodyContains;
        c.text = in.body_contains();
    } else {
        c.subject = Check::Subject::MaxTime;
        c.maxNanos = Nanos(in.max_time_ms()) * kNanosPerMilli;
    }
    if (ok && c.subject != Check::Subject::JsonPath && c.subject != Check::Subject::Header &&
        (in.has_equals() || !in.matches().empty() || in.has_exists())) {
        ctx.error(field, "\"equals\", \"matches\" and \"exists\" go with \"jsonPath\" or \"header\"");
        ok = false;
    }
    c.name = in.name().empty() ? (ok ? defaultName(c) : std::string()) : in.name();
    return ok;
}

bool compileExtractor(const v1::Extract& in, const std::string& field, const ScenarioPlan& plan, StepContext& ctx,
                      Extractor& x)
{
    x.name = in.name();
    const auto v = std::find_if(plan.variables.begin(), plan.variables.end(),
                                [&](const PlannedVariable& p) { return p.name == in.name() && p.extracted; });
    if (v == plan.variables.end())
        return false; // reported when the names were gathered
    x.variable = std::uint16_t(v - plan.variables.begin());
    const int sources = int(!in.json_path().empty()) + int(!in.header().empty()) + int(!in.regex().empty());
    if (sources != 1) {
        ctx.error(field, sources ? "give one of \"jsonPath\", \"header\" or \"regex\", not " + std::to_string(sources)
                                 : "say where the value is: \"jsonPath\", \"header\" or \"regex\"");
        return false;
    }
    if (in.has_group() && in.regex().empty()) {
        ctx.error(field + ".group", "a group goes with \"regex\"");
        return false;
    }
    if (!in.json_path().empty()) {
        x.source = Extractor::Source::JsonPath;
        return compilePath(in.json_path(), field + ".jsonPath", ctx, x.path);
    }
    if (!in.header().empty()) {
        x.source = Extractor::Source::Header;
        x.header = in.header();
        return true;
    }
    x.source = Extractor::Source::Regex;
    if (!compileRegex(in.regex(), field + ".regex", ctx, x.regex))
        return false;
    x.group = in.has_group() ? in.group() : (x.regex->groups() ? 1 : 0);
    if (x.group > x.regex->groups()) {
        ctx.error(field + ".group",
                  "the regex has " + std::to_string(x.regex->groups()) + " group(s), not " + std::to_string(x.group));
        return false;
    }
    return true;
}

} // namespace

std::vector<std::string> extractedNames(const v1::Scenario& scenario)
{
    std::vector<std::string> names;
    for (const auto& st : scenario.steps())
        for (const auto& x : st.extract())
            if (std::find(names.begin(), names.end(), x.name()) == names.end())
                names.push_back(x.name());
    return names;
}

std::vector<PlanError> flowWarnings(const ScenarioPlan& plan)
{
    std::vector<PlanError> out;
    for (const std::string& name : plan.literalNames)
        out.push_back({"variables", "{{" + name + "}} is not defined: sent as written, as newman sends it"});
    for (const std::string& why : plan.unresolvedHosts)
        out.push_back({"request.url", why + ": each request to it fails (a connect error), as newman counts it"});
    for (std::size_t i = 0; i < plan.steps.size(); ++i) {
        for (const std::uint16_t v : plan.steps[i].extracted) {
            const auto extracts = [&](const PlannedStep& s) {
                return std::any_of(s.extractors.begin(), s.extractors.end(),
                                   [&](const Extractor& x) { return x.variable == v; }) ||
                       (s.scripts && std::find(s.scripts->sets.begin(), s.scripts->sets.end(), v) !=
                                         s.scripts->sets.end()); // a script's pm.*.set of the name
            };
            const StepScriptPlan* own = plan.steps[i].scripts.get(); // its own pre-request script sets it first
            const bool setBefore = own && std::find(own->preSets.begin(), own->preSets.end(), v) != own->preSets.end();
            if (plan.variables[v].fallback >= 0 || // until extracted, its default is sent
                plan.variables[v].shared ||        // the run's shared data: read as the step begins
                setBefore || std::any_of(plan.steps.begin(), plan.steps.begin() + std::ptrdiff_t(i), extracts))
                continue;
            const auto later = std::find_if(plan.steps.begin() + std::ptrdiff_t(i), plan.steps.end(), extracts);
            const std::string by = later == plan.steps.end() ? "" : " (\"" + later->name + "\" extracts it later)";
            // an iteration ends at its first failed step: the step that
            // would extract the name is never reached, in either model
            out.push_back({"steps[" + std::to_string(i) + "]",
                           "${" + plan.variables[v].name + "} is used before any step extracts it" + by +
                               ": every request of this step fails as an extract error, and the iteration ends "
                               "there"});
        }
    }
    return out;
}

bool compileChecks(const v1::Step& st, const std::string& field, const ScenarioPlan& plan, StepContext& ctx,
                   PlannedStep& ps)
{
    if (st.checks_size() > int(kMaxChecksPerStep) || st.extract_size() > int(kMaxChecksPerStep)) {
        ctx.error(field + (st.checks_size() > int(kMaxChecksPerStep) ? ".checks" : ".extract"),
                  "at most " + std::to_string(kMaxChecksPerStep) + " per step");
        return false;
    }
    bool ok = true;
    for (int i = 0; i < st.checks_size(); ++i) {
        const std::string f = field + ".checks[" + std::to_string(i) + "]";
        Check c;
        if (!compileCheck(st.checks(i), f, ps.grpc != nullptr, ctx, c)) {
            ok = false;
            continue;
        }
        for (const Check& earlier : ps.checks)
            if (earlier.name == c.name) {
                ctx.error(f + ".name", "the step has another check named " + quoted(c.name));
                ok = false;
            }
        ps.needs |= c.needs();
        ps.checks.push_back(std::move(c));
    }
    for (int i = 0; i < st.extract_size(); ++i) {
        Extractor x;
        if (!compileExtractor(st.extract(i), field + ".extract[" + std::to_string(i) + "]", plan, ctx, x)) {
            ok = false;
            continue;
        }
        ps.needs |= x.needs();
        ps.extractors.push_back(std::move(x));
    }
    return ok;
}

} // namespace stampede
