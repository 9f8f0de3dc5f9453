#pragma once
// Compiling a scenario's variables into the plan's: each data source (CSV,
// increment, random, uuid, constant; an override from the command line wins),
// the names steps extract and scripts set (each user's own, falling back to the
// variable or the iteration data's column of the name until set), and how a
// template reads a name: a constant folded in, a variable's value or column, a
// Postman dynamic variable ({{$guid}}) made at its first use, or in a
// collection run what newman sends for a name it cannot resolve ("{{name}}").
#include "grpcstep.h"

#include "core/parametersource.h"
#include "core/template.h"

#include <optional>
#include <string>
#include <string_view>

namespace stampede {

namespace v1 {
class Variable;
}

class VariableCompiler
{
public:
    // Faults go to `context`; the variables into `plan` (the one being compiled).
    VariableCompiler(StepContext& context, ScenarioPlan& plan) : m_ctx(context), m_plan(plan) {}
    // The scenario's variables, then the names its steps extract and its scripts set.
    void compile();
    // A variable's source (null after reporting its fault under `field`).
    ParameterSourcePtr source(const v1::Variable& v, const std::string& field);
    // What `name` in a template reads (a fault in Resolution::error); marks the variables it draws as used.
    Resolution resolve(std::string_view name);

private:
    bool nameOk(std::string_view name) const;
    void extractedVariables();
    std::string extractField(const std::string& name) const;
    std::optional<VarRef> dataColumn(std::string_view name) const;
    Resolution dynamicOfItsOwn(std::string_view name, ParameterSourcePtr source);
    Resolution sharedValue(std::string_view name);

    StepContext& m_ctx;
    ScenarioPlan& m_plan;
};

} // namespace stampede
