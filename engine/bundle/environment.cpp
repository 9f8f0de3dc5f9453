#include "environment.h"

#include <map>

namespace stampede {

void setConstant(v1::Scenario& scenario, const std::string& name, const std::string& value)
{
    v1::Variable* target = nullptr;
    for (auto& v : *scenario.mutable_variables())
        if (v.name() == name)
            target = &v;
    if (!target) {
        target = scenario.add_variables();
        target->set_name(name);
    }
    target->mutable_constant()->set_value(value);
}

void applyEnvironment(v1::Scenario& scenario, const v1::Environment& environment)
{
    const std::map<std::string, std::string> sorted(environment.values().begin(), environment.values().end());
    for (const auto& [name, value] : sorted) // in name order: the same scenario every time
        setConstant(scenario, name, value);
}

const v1::Environment* findEnvironment(const v1::Bundle& bundle, const std::string& name, std::string& error)
{
    std::string names;
    for (const auto& e : bundle.environments()) {
        if (e.name() == name)
            return &e;
        names += (names.empty() ? "" : ", ") + ("\"" + e.name() + "\"");
    }
    error = "--env: the bundle has no environment named \"" + name + "\"" +
            (names.empty() ? std::string(" (it carries none)") : " (it has " + names + ")");
    return nullptr;
}

} // namespace stampede
