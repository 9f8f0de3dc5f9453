#pragma once
// Compiling a test plan: a scenario file with `scenarios`, each run side by
// side with its own load from `startAfter`, with the run's thresholds and
// breaker over them all. The plan's own fields (variables, tls, http,
// stressTag, cookies, ...) are every scenario's defaults. Each scenario
// compiles as a scenario file does; its faults are named under its field
// ("scenarios[1].load.closed.users: ..."). In the run, a plan's steps are
// named "SCENARIO/STEP", and a scenario's name stands for all its steps.
#include "scenarioplan.h"

#include <map>
#include <string>
#include <vector>

namespace stampede {

// The most scenarios a plan holds (docs/command-line.md, "Limits").
constexpr int kMaxScenarios = 20;

// Whether `s` is a plan of several scenarios (else a scenario file, a plan of one).
bool isPlan(const v1::Scenario& s);
// Scenario `i` of plan `plan` as it compiles and runs: the plan's defaults under its own fields.
v1::Scenario planScenario(const v1::Scenario& plan, int i);
// The names the plan's setup extracts (its values for every scenario and the teardown).
std::vector<std::string> setupNames(const v1::Scenario& plan);
// The plan's setup (or teardown) as a run of its own: its steps once, by one
// user, with the plan's defaults and the values that are not a data set's
// (a teardown also the setup's names, as `injectValues` gives them).
v1::Scenario phaseScenario(const v1::Scenario& plan, bool teardown);
// The setup's values as the plan's constants, for every scenario and the teardown.
void injectValues(v1::Scenario& plan, const std::map<std::string, std::string>& values);
// Compiles a plan (isPlan); nothing when `errors` is not empty.
std::optional<ScenarioPlan> compilePlan(const v1::Scenario& plan, const PlanOptions& options,
                                        std::vector<PlanError>& errors);

} // namespace stampede
