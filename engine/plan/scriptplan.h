#pragma once
// Compiling a step's Postman scripts (scenario fields preRequestScript and
// testScript), as text: their syntax is checked after the compile
// (resolve/scriptsyntax.h, SpiderMonkey's parser); what the engine does not run
// (require of modules the sandbox does not have) named
// with its line; every pm.test named by a literal made a check of the step
// (counted, judged by thresholds and the breaker as any check); and the
// variables a script sets by a literal name made this user's variables, as
// extracted ones are, so that requests may use them.
#include "grpcstep.h"

#include <string>
#include <vector>

namespace stampede {

// Every name the scenario's step scripts set, in order of first appearance.
std::vector<std::string> scriptSetNames(const v1::Scenario& scenario);
// The field of the first script that sets `name` ("steps[2].testScript"), or "".
std::string scriptSetField(const v1::Scenario& scenario, const std::string& name);

// Compiles `st`'s scripts into `ps.scripts` (null when it has none) and adds
// its pm.test checks after the step's own; false after reporting its faults.
bool compileScripts(const v1::Step& st, const std::string& field, const ScenarioPlan& plan, StepContext& ctx,
                    PlannedStep& ps);

} // namespace stampede
