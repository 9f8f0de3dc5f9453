#pragma once
// A test's plan from a scenario's JSON, compiled as a run compiles it (no server asked); a scenario that does
// not parse or compile ends the test, saying why. And what a user's own values hold of a variable, by name.
#include "plan/scenarioplan.h"
#include "run/uservalues.h"

#include "stampede/v1/scenario.pb.h"

#include <QtGlobal>

#include <memory>
#include <string>
#include <vector>

inline std::unique_ptr<stampede::ScenarioPlan> compiledPlan(const std::string& json)
{
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(json, s, error))
        qFatal("%s", error.c_str());
    std::vector<stampede::PlanError> errors;
    stampede::PlanOptions o;
    o.runId = "st-test";
    auto plan = stampede::compileScenario(s, o, errors);
    if (!plan)
        qFatal("%s", errors.front().text().c_str());
    return std::make_unique<stampede::ScenarioPlan>(std::move(*plan));
}

// `user`'s own value of the variable `name` of `plan` ("<unset>" while it has none, "<unknown>" for no such name).
inline std::string ownValue(const stampede::ScenarioPlan& plan, stampede::UserValues& values, std::uint32_t user,
                            const std::string& name)
{
    for (std::size_t v = 0; v < plan.variables.size(); ++v)
        if (plan.variables[v].name == name)
            return values.isSet(user)[v] ? values.values(user)[v] : std::string("<unset>");
    return "<unknown>";
}
