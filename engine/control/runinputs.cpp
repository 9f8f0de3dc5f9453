#include "runinputs.h"

#include "bundle/environment.h"
#include "bundle/projectscenario.h"
#include "plan/scenarioplan.h"

namespace stampede {

bool prepareRun(const RunInputs& in, RunRequest& out, std::string& error)
{
    if (!parseScenarioJson(in.scenarioJson, out.scenario, error))
        return false;
    if (in.project) {
        std::string applied;
        if (!applyProject(out.scenario, *in.project, in.environment, applied, error))
            return false;
    } else if (!in.environment.empty()) {
        error = "the environment \"" + in.environment + "\" needs the project it is in";
        return false;
    }
    for (const auto& [name, value] : in.overrides)
        setConstant(out.scenario, name, value, true); // never in the record
    out.baseDir = in.baseDir.empty() ? "." : in.baseDir;
    out.scenarioJson = in.scenarioJson;
    return true;
}

} // namespace stampede
