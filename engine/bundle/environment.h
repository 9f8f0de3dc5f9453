#pragma once
// Environments (a project's named sets of values, as Postman's) applied to a
// scenario: each value becomes a constant that wins over the scenario's own
// variable of that name, as --var does.
#include <string>

#include "stampede/v1/bundle.pb.h"

namespace stampede {

// ${name} is `value` everywhere in the run, replacing any variable so named.
void setConstant(v1::Scenario& scenario, const std::string& name, const std::string& value);
void applyEnvironment(v1::Scenario& scenario, const v1::Environment& environment);
// The environment called `name` among the bundle's; null with `error`
// listing the ones there are.
const v1::Environment* findEnvironment(const v1::Bundle& bundle, const std::string& name, std::string& error);

} // namespace stampede
