#pragma once
// Compiling a scenario's "breaker": each rule's condition, window, count,
// action and step checked, every fault named by its field
// ("breaker.rules[1].window: a window is whole seconds, from 1s to 3600s").
#include "grpcstep.h"

namespace stampede {

// Fills plan.breaker from scenario.breaker (after the steps: rules name them).
void compileBreaker(const v1::Scenario& scenario, ScenarioPlan& plan, StepContext& context);

} // namespace stampede
