#pragma once
// Compiling a step's options beyond its request: what an error does
// (onError), retries, repeats, its group (a transaction) and its rendezvous,
// each checked and named by its field ("steps[2].retry.times: ...").
#include "grpcstep.h"

namespace stampede {

// Compiles `st`'s options into `ps` (and the group into `plan.groups`); false after reporting its faults.
bool compileStepOptions(const v1::Step& st, const std::string& field, StepContext& context, ScenarioPlan& plan,
                        PlannedStep& ps);
// After every step and the load: groups are contiguous, and a rendezvous waits
// for no more users than can reach it.
void checkStepOptions(const v1::Scenario& scenario, const ScenarioPlan& plan, StepContext& context);

// The most a retry, a repeat and a rendezvous take (docs/command-line.md, "Limits").
constexpr std::uint32_t kMaxRetries = 10;
constexpr std::uint32_t kMaxRepeat = 1000;

} // namespace stampede
