#pragma once
// Compiling a step's checks and extractors (scenario fields `checks` and
// `extract`): each condition validated and compiled once, here (JSON paths,
// regular expressions, status codes or gRPC code names), every fault reported
// by its field: "steps[0].checks[1].jsonPath: ...".
#include "grpcstep.h"

namespace stampede {

// Compiles `st`'s checks and extractors into `ps` (whose `grpc` is already
// set); false after reporting its faults. Extracted names must already be
// variables of `plan` (see extractedNames()).
bool compileChecks(const v1::Step& st, const std::string& field, const ScenarioPlan& plan, StepContext& context,
                   PlannedStep& ps);

// Every name the scenario's steps extract, in order of first appearance.
std::vector<std::string> extractedNames(const v1::Scenario& scenario);

// What a valid plan will do that its author may not mean: a step that uses
// an extracted ${name} before any earlier step extracts it (every request of
// it fails as an `extract` error, and since an iteration ends at its first
// failed step, a later step that would extract it is never reached).
std::vector<PlanError> flowWarnings(const ScenarioPlan& plan);

} // namespace stampede
