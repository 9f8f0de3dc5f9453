#pragma once
// Compiling a scenario's "breaker": each rule's condition, window, count,
// action and step checked, every fault named by its field
// ("breaker.rules[1].window: a window is whole seconds, from 1s to 3600s").
#include "grpcstep.h"

namespace stampede {

// Fills plan.breaker from scenario.breaker (after the steps and the server
// metrics: rules name them).
void compileBreaker(const v1::Scenario& scenario, ScenarioPlan& plan, StepContext& context);
// Fills plan.serverMetrics from scenario.serverMetrics.
void compileServerMetrics(const v1::Scenario& scenario, ScenarioPlan& plan, StepContext& context);
// A server:NAME threshold or rule must name a source; false after reporting it.
bool knownServerMetric(const Threshold& t, const ScenarioPlan& plan, const std::string& field, StepContext& context);

} // namespace stampede
