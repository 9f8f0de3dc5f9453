#pragma once
// Environments (a project's named sets of values, as Postman's) applied to a
// scenario. The scopes, lowest first: the environment, the scenario's
// variables, the data sets and generators, the values an iteration extracts.
// So an environment value replaces a scenario's constant of its name (the
// constant is the default an environment overrides: dev, staging, prod), but
// never a data set or a generator (they shadow it), and a value a step
// extracts under its name shadows it too: until extracted it is the default.
#include <string>
#include <vector>

#include "stampede/v1/bundle.pb.h"

namespace stampede {

// ${name} is `value` everywhere in the run, replacing any variable so named
// (--var: what the command line says wins).
// `secret`: never written where the run is recorded (ConstantSource.secret);
// `scope`: its Postman scope (ConstantSource.scope: "" an environment's).
void setConstant(v1::Scenario& scenario, const std::string& name, const std::string& value, bool secret = false,
                 const std::string& scope = {});
// The values of `scenario`'s secret constants (its plan's scenarios' too).
std::vector<std::string> secretValues(const v1::Scenario& scenario);
// `scenario` with each secret constant's value as "***" (what a record keeps).
void maskSecrets(v1::Scenario& scenario);
// `text` with every occurrence of each of `secrets` (of kMinRedacted bytes or
// more: a shorter one would hide digits of every number) as "***"; true when
// it changed.
constexpr std::size_t kMinRedacted = 4;
bool redactSecrets(std::string& text, const std::vector<std::string>& secrets);
// Each value as a constant, under the scopes above.
void applyEnvironment(v1::Scenario& scenario, const v1::Environment& environment);
// Which scope ${name} takes its value from in `scenario` once `environment`
// is applied: "extracted", "data set", "generator", "scenario", "environment",
// or "" when nothing defines it (the designer shows it beside each name).
std::string scopeOf(const v1::Scenario& scenario, const v1::Environment* environment, const std::string& name);
// The environment called `name` among the bundle's; null with `error`
// listing the ones there are.
const v1::Environment* findEnvironment(const v1::Bundle& bundle, const std::string& name, std::string& error);

} // namespace stampede
