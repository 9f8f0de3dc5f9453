#include "environment.h"

#include <algorithm>
#include <map>

namespace stampede {

void setConstant(v1::Scenario& scenario, const std::string& name, const std::string& value, bool secret,
                 const std::string& scope)
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
    target->mutable_constant()->set_secret(secret);
    target->mutable_constant()->set_scope(scope);
}

std::vector<std::string> secretValues(const v1::Scenario& scenario)
{
    std::vector<std::string> out;
    for (const auto& v : scenario.variables())
        if (v.has_constant() && v.constant().secret() && !v.constant().value().empty())
            out.push_back(v.constant().value());
    for (const auto& s : scenario.scenarios())
        for (std::string& value : secretValues(s))
            out.push_back(std::move(value));
    return out;
}

bool redactSecrets(std::string& text, const std::vector<std::string>& secrets)
{
    bool changed = false;
    for (const std::string& s : secrets) {
        if (s.size() < kMinRedacted)
            continue;
        for (std::size_t at = text.find(s); at != std::string::npos; at = text.find(s, at + 3)) {
            text.replace(at, s.size(), "***");
            changed = true;
        }
    }
    return changed;
}

void maskSecrets(v1::Scenario& scenario)
{
    for (auto& v : *scenario.mutable_variables())
        if (v.has_constant() && v.constant().secret())
            v.mutable_constant()->set_value("***");
    for (auto& s : *scenario.mutable_scenarios())
        maskSecrets(s);
}

namespace {

const v1::Variable* variableNamed(const v1::Scenario& scenario, const std::string& name)
{
    for (const auto& v : scenario.variables())
        if (v.name() == name)
            return &v;
    return nullptr;
}

bool extracts(const v1::Scenario& scenario, const std::string& name)
{
    for (const auto& st : scenario.steps())
        for (const auto& x : st.extract())
            if (x.name() == name)
                return true;
    return false;
}

} // namespace

void applyEnvironment(v1::Scenario& scenario, const v1::Environment& environment)
{
    const std::map<std::string, std::string> sorted(environment.values().begin(), environment.values().end());
    for (const auto& [name, value] : sorted) { // in name order: the same scenario every time
        const v1::Variable* v = variableNamed(scenario, name);
        if (v && v->source_case() != v1::Variable::kConstant && v->source_case() != v1::Variable::SOURCE_NOT_SET)
            continue; // a data set or a generator shadows the environment
        const auto& secrets = environment.secrets();
        setConstant(scenario, name, value, std::find(secrets.begin(), secrets.end(), name) != secrets.end());
    }
}

std::string scopeOf(const v1::Scenario& scenario, const v1::Environment* environment, const std::string& name)
{
    if (extracts(scenario, name))
        return "extracted";
    if (const v1::Variable* v = variableNamed(scenario, name)) {
        if (v->has_csv())
            return "data set";
        if (!v->has_constant())
            return "generator";
        if (!environment || !environment->values().count(name))
            return "scenario";
    }
    return environment && environment->values().count(name) ? "environment" : "";
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
