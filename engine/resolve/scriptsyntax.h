#pragma once
// Script compilation, after the compile: each step's Postman scripts parsed by
// SpiderMonkey on this thread, so that a syntax error is a fault of its field
// with its line before anything is sent ("steps[0].testScript: line 2:
// SyntaxError: ..."). The compile (plan/scriptplan.h) reads a script as text
// only (what it sets, its pm.test names, the calls the engine does not run);
// nothing there starts a JavaScript runtime. Whoever takes a scenario to run
// or to send (the controller, an agent, Send, `bundle`, the designer's check)
// calls this beside compileScenario, whether that compiled or not: the user
// reads every fault at once.
#include "plan/scenarioplan.h"
#include "stampede/v1/scenario.pb.h"

#include <string>
#include <vector>

namespace stampede {

// False after adding a fault to `errors` for each script of `scenario`'s steps that does not parse.
bool checkScriptSyntax(const v1::Scenario& scenario, std::vector<PlanError>& errors);

// A script's syntax, as the engine will parse it: "" when it parses, else
// "line N: message" (and `line`). For the workbench's script editor, before a run.
std::string scriptSyntaxError(const std::string& source, unsigned* line = nullptr);

} // namespace stampede
