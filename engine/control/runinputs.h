#pragma once
// One preparation of a run, for the command line and the workbench alike:
// the scenario as written, the project it belongs to (its replay's traffic
// set inlined, its environments), the environment chosen (under the scopes of
// bundle/environment.h: it replaces the scenario's constants, never its data
// sets, generators or extracted values), and the command line's --var on top
// of everything. What comes out is the scenario the run request runs, where
// its files are read from and what is recorded with the run.
#include "runservice.h"

#include <string>
#include <utility>
#include <vector>

namespace stampede {

class ProjectStore;

struct RunInputs
{
    std::string scenarioJson;        // as written (and as recorded with the run)
    ProjectStore* project = nullptr; // the project the scenario is in; null: none
    std::string baseDir;             // where its relative files (CSV, .proto) are read
    std::string environment;         // one of the project's environments, by name; empty: none
    std::vector<std::pair<std::string, std::string>> overrides; // --var name=value: win over every scope
};

// Fills `out.scenario`, `out.baseDir` and `out.scenarioJson`; false with
// `error` when the scenario is not valid JSON or the environment is not the
// project's.
bool prepareRun(const RunInputs& in, RunRequest& out, std::string& error);

} // namespace stampede
