#include "testplan.h"

#include "breakerplan.h"
#include "checkplan.h"
#include "core/breakerrule.h"
#include "core/number.h"
#include "core/text.h"
#include "grpcstep.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <set>

namespace stampede {

namespace {

// A scenario's own name for what it measures ("", a step, "group G") as the run names it.
std::string runName(const std::string& scenario, const std::string& name)
{
    if (name.empty())
        return scenario;
    if (name.rfind("group ", 0) == 0)
        return name;
    return scenario + "/" + name;
}

class PlanCompiler final : private StepContext
{
public:
    PlanCompiler(const v1::Scenario& plan, const PlanOptions& options, std::vector<PlanError>& errors)
        : m_p(plan), m_o(options), m_errors(errors)
    {
    }

    std::optional<ScenarioPlan> run()
    {
        m_plan.name = m_p.name().empty() ? "plan" : m_p.name();
        m_plan.runId = m_o.runId.empty() ? newRunId() : m_o.runId;
        m_plan.duration = 0; // the latest end of its scenarios
        m_plan.connections = 0;
        if (!own())
            return std::nullopt;
        phase(false);
        phase(true);
        for (int i = 0; i < m_p.scenarios_size(); ++i)
            scenario(i);
        if (!m_errors.empty())
            return std::nullopt;
        judges();
        if (!m_errors.empty())
            return std::nullopt;
        return std::move(m_plan);
    }

private:
    void error(std::string field, std::string message) override
    {
        m_errors.push_back({std::move(field), std::move(message)});
    }

    // What the plan says for itself: no steps or load of its own, named scenarios.
    bool own()
    {
        const std::size_t before = m_errors.size();
        if (m_p.steps_size())
            error("steps", "a plan's steps are its scenarios': put them in scenarios[i].steps");
        if (m_p.has_load())
            error("load", "a plan's load is its scenarios': give each scenario its load");
        if (m_p.has_duration() || m_p.iterations())
            error(m_p.has_duration() ? "duration" : "iterations",
                  "a plan lasts as long as its scenarios: give each its duration or iterations");
        if (m_p.scenarios_size() > kMaxScenarios)
            error("scenarios", "at most " + std::to_string(kMaxScenarios) + " scenarios (got " +
                                   std::to_string(m_p.scenarios_size()) + ")");
        std::set<std::string> names;
        for (int i = 0; i < m_p.scenarios_size(); ++i) {
            const v1::Scenario& s = m_p.scenarios(i);
            const std::string field = "scenarios[" + std::to_string(i) + "]";
            if (s.name().empty() || s.name().find('/') != std::string::npos)
                error(field + ".name", s.name().empty() ? "a plan's scenario needs a name (thresholds name it)"
                                                        : "\"" + s.name() + "\": a scenario's name holds no \"/\"");
            else if (!names.insert(s.name()).second)
                error(field + ".name", "two scenarios are named \"" + s.name() + "\"");
            if (s.scenarios_size() || s.setup_size() || s.teardown_size())
                error(field, "a plan's scenario holds steps, not scenarios, setup or teardown");
            const Nanos after = toNanos(s.start_after());
            if (after < 0 || after > RunLimits::kDurationSeconds * kNanosPerSecond)
                error(field + ".startAfter", "must be from 0 to 720 h (got " + shortNumber(double(after) / 1e9) + "s)");
        }
        return m_errors.size() == before;
    }

    // The setup or the teardown, checked as the run it will be: its faults
    // under its field, a data set's value named as such (no user runs it).
    void phase(bool teardown)
    {
        const char* field = teardown ? "teardown" : "setup";
        if ((teardown ? m_p.teardown_size() : m_p.setup_size()) == 0)
            return;
        std::vector<PlanError> errors;
        PlanOptions o = m_o;
        o.runId = m_plan.runId;
        compileScenario(phaseScenario(m_p, teardown), o, errors);
        for (PlanError& e : errors) {
            std::string f = e.field;
            if (f.rfind("steps", 0) == 0)
                f = field + f.substr(5);
            for (const v1::Variable& v : m_p.variables()) // the one kind a phase leaves out: rows of a data set
                if (v.has_csv() && e.message.rfind("unknown variable ${" + v.name() + ".", 0) == 0)
                    e.message = e.message.substr(17) + " is a data set's value: the " + field +
                                " runs once, as no virtual user, and takes no row";
            error(f, std::move(e.message));
        }
    }

    // Scenario i, compiled as a scenario file with the plan's defaults, its
    // faults under its field; its steps and groups join the run's.
    void scenario(int i)
    {
        const std::string field = "scenarios[" + std::to_string(i) + "]";
        PlanOptions o = m_o;
        o.runId = m_plan.runId; // one stress tag for the whole run
        std::vector<PlanError> errors;
        auto sub = compileScenario(planScenario(m_p, i), o, errors);
        for (PlanError& e : errors)
            error(e.field.empty() ? field : field + "." + e.field, std::move(e.message));
        if (!sub)
            return;
        ScenarioPlan::ScenarioPlace place;
        place.firstStep = std::uint32_t(m_plan.steps.size());
        place.firstGroup = std::uint32_t(m_plan.groups.size());
        place.startAfter = toNanos(m_p.scenarios(i).start_after());
        for (const PlannedStep& st : sub->steps) {
            m_plan.steps.push_back(st);
            m_plan.steps.back().name = runName(sub->name, st.name);
            m_plan.steps.back().targetField = field + "." + st.targetField;
        }
        for (std::size_t g = 0; g < sub->groups.size(); ++g) {
            if (std::find(m_plan.groups.begin(), m_plan.groups.end(), sub->groups[g]) != m_plan.groups.end())
                error(field + ".steps", "group \"" + sub->groups[g] + "\" is in another scenario too: name it apart");
            m_plan.groups.push_back(sub->groups[g]);
        }
        // its own thresholds and breaker rules judge the run, about its own steps
        for (Threshold t : sub->thresholds) {
            t.step = runName(sub->name, t.step);
            m_plan.thresholds.push_back(std::move(t));
        }
        for (BreakerRule r : sub->breaker) {
            r.when.step = runName(sub->name, r.when.step);
            m_plan.breaker.push_back(std::move(r));
        }
        for (const ServerMetricPlan& m : sub->serverMetrics) { // read once a second by the controller, for all
            if (std::any_of(m_plan.serverMetrics.begin(), m_plan.serverMetrics.end(),
                            [&](const ServerMetricPlan& o) { return o.name == m.name; }))
                error(field + ".serverMetrics", "\"" + m.name + "\" is named by another scenario too");
            m_plan.serverMetrics.push_back(m);
        }
        m_plan.inputFiles.insert(m_plan.inputFiles.end(), sub->inputFiles.begin(), sub->inputFiles.end());
        m_plan.duration = std::max(m_plan.duration, place.startAfter + sub->duration);
        m_plan.connections += sub->connections;
        m_plan.threads = std::max(m_plan.threads, sub->threads);
        m_plan.http = sub->http;
        m_plan.streams = sub->streams;
        m_plan.stressHeader = sub->stressHeader;
        m_plan.cookies |= sub->cookies;
        m_plan.sharedData |= sub->sharedData; // one store for the run, whichever scenario asks
        m_plan.places.push_back(place);
        m_plan.scenarios.push_back(std::move(*sub));
    }

    // The plan's own thresholds, breaker and server metrics: over the whole
    // run, naming its scenarios, steps ("SCENARIO/STEP") and groups.
    void judges()
    {
        compileServerMetrics(m_p, m_plan, *this);
        const std::vector<std::string> known = m_plan.measuredNames();
        for (int i = 0; i < m_p.thresholds_size(); ++i) {
            std::string why;
            auto t = Threshold::parse(m_p.thresholds(i).expr(), why);
            const std::string field = "thresholds[" + std::to_string(i) + "].expr";
            if (!t)
                error(field, why);
            else if (!knownServerMetric(*t, m_plan, field, *this))
                continue;
            else if (!t->step.empty() && std::find(known.begin(), known.end(), t->step) == known.end())
                error(field, "no scenario, step or group is named \"" + t->step + "\"");
            else
                m_plan.thresholds.push_back(*t);
        }
        compileBreaker(m_p, m_plan, *this); // after the scenarios' own rules, which judge the run too
    }

    // StepContext, for the breaker and server metrics (the plan compiles no request of its own)
    const v1::Scenario& scenario() const override { return m_p; }
    const PlanOptions& options() const override { return m_o; }
    const ScenarioPlan& plan() const override { return m_plan; }
    bool compileText(const std::string&, const std::string& field, Template&) override
    {
        error(field, "a plan's own fields hold no ${...}");
        return false;
    }
    std::shared_ptr<TlsContext> tlsContext(bool) override { return nullptr; }
    Template traceparent() override { return {}; } // steps are compiled by each scenario's own compiler
    bool fileOrInline(const std::string&, const std::string&, const std::string& field, std::string&) override
    {
        error(field, "a plan reads no file of its own");
        return false;
    }

    const v1::Scenario& m_p;
    const PlanOptions& m_o;
    std::vector<PlanError>& m_errors;
    ScenarioPlan m_plan;
};

} // namespace

bool isPlan(const v1::Scenario& s)
{
    return s.scenarios_size() > 0;
}

std::vector<std::string> setupNames(const v1::Scenario& plan)
{
    v1::Scenario setup;
    *setup.mutable_steps() = plan.setup();
    return extractedNames(setup);
}

namespace {

bool hasVariable(const v1::Scenario& s, const std::string& name)
{
    return std::any_of(s.variables().begin(), s.variables().end(),
                       [&](const v1::Variable& v) { return v.name() == name; });
}

// The setup's names as constants where the plan has none yet: checked before
// the run, given their values by injectValues when the setup has run.
void setupPlaceholders(const v1::Scenario& plan, v1::Scenario& into)
{
    for (const std::string& name : setupNames(plan))
        if (!hasVariable(into, name)) {
            auto* v = into.add_variables();
            v->set_name(name);
            v->mutable_constant();
        }
}

} // namespace

namespace {

// The plan's defaults for one of its parts: the plan less what belongs to
// the whole run (its scenarios, setup, teardown, judging and schedule).
v1::Scenario planDefaults(const v1::Scenario& plan)
{
    v1::Scenario s = plan;
    s.clear_scenarios();
    s.clear_setup();
    s.clear_teardown();
    s.clear_thresholds();
    s.clear_breaker();
    s.clear_server_metrics();
    s.clear_schedule();
    return s;
}

} // namespace

v1::Scenario phaseScenario(const v1::Scenario& plan, bool teardown)
{
    v1::Scenario s = planDefaults(plan);
    s.set_name(teardown ? "teardown" : "setup");
    s.clear_duration();
    s.clear_start_after();
    s.clear_variables();
    for (const v1::Variable& v : plan.variables())
        if (!v.has_csv()) // a data set's rows are the users'
            *s.add_variables() = v;
    if (teardown)
        setupPlaceholders(plan, s);
    *s.mutable_steps() = teardown ? plan.teardown() : plan.setup();
    s.mutable_load()->Clear();
    s.mutable_load()->mutable_closed()->set_users(1);
    s.set_iterations(1);
    s.set_threads(1);
    return s;
}

void injectValues(v1::Scenario& plan, const std::map<std::string, std::string>& values)
{
    for (const auto& [name, value] : values) {
        v1::Variable* v = nullptr;
        for (auto& own : *plan.mutable_variables())
            if (own.name() == name)
                v = &own;
        if (!v) {
            v = plan.add_variables();
            v->set_name(name);
        }
        v->mutable_constant()->set_value(value);
    }
}

v1::Scenario planScenario(const v1::Scenario& plan, int i)
{
    v1::Scenario s = planDefaults(plan);
    const v1::Scenario& own = plan.scenarios(i);
    // its own fields win; lists (variables) add to the plan's
    setupPlaceholders(plan, s); // the setup's values (${name}): every scenario reads them
    s.MergeFrom(own);
    if (own.has_tls())
        *s.mutable_tls() = own.tls();
    if (own.has_stress_tag())
        *s.mutable_stress_tag() = own.stress_tag();
    s.clear_start_after();
    return s;
}

std::optional<ScenarioPlan> compilePlan(const v1::Scenario& plan, const PlanOptions& options,
                                        std::vector<PlanError>& errors)
{
    return PlanCompiler(plan, options, errors).run();
}

} // namespace stampede
