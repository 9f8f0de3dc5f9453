#pragma once
// One preparation of a run, for the command line and the workbench alike:
// the scenario from where it is written (the workbench's editor, a scenario
// file or a bundle, a project's scenario, collection or folder, or one the
// caller built: the quick mode's, a subcommand's), the project it belongs to
// (its replay's traffic set inlined, its environments, a collection's own
// variables), the environment chosen (under the scopes of
// bundle/environment.h: it replaces the scenario's constants, never its data
// sets, generators or extracted values), newman's files beside a collection,
// and the command line's --var on top of everything. What comes out is the
// scenario the run request runs, where its files are read from and what is
// recorded with the run. The command line's load and TLS flags are applied
// by it after this; RunService::prepare then reads every file the scenario
// names once, into the bundle the plan is compiled from.
#include "bundle/projectscenario.h"
#include "runservice.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stampede {

class ProjectStore;

struct RunInputs
{
    // Where the scenario is written; exactly one of these.
    std::string scenarioJson;             // as written (and as recorded with the run): the workbench's editor
    std::string scenarioFile;             // a scenario file or a bundle
    std::string projectItem;              // a scenario, collection or folder of the project, by name
    std::int64_t projectCollection = 0;   // a collection or folder of the open project, by its item (the runner's)
    std::optional<v1::Scenario> scenario; // built by the caller (the quick mode, replay)

    // The project: open (the workbench's) or `projectFile`, opened read-only.
    ProjectStore* project = nullptr;
    std::string projectFile;
    std::string baseDir;     // where the relative files of `scenarioJson` or `scenario` are read; else theirs
    std::string environment; // by name: the project's or the bundle's; empty: none (see storedEnvironment)
    // A project item with no environment named: the one the workbench last chose (not with newman's
    // --environment FILE, which stands instead).
    bool storedEnvironment = true;
    NewmanInputs newman; // beside a collection: newman's --environment, --globals, --iteration-data, ...
    std::vector<std::pair<std::string, std::string>> overrides; // --var name=value: win over every scope
};

// What the preparation found beside the scenario, for the caller to say or to go on with.
struct PreparedRun
{
    bool collection = false;           // a collection or folder made into a scenario (newman's run)
    std::string environment;           // the one applied; empty: none
    std::size_t dataRows = 0;          // rows of newman's iteration data (0: none)
    std::vector<std::string> warnings; // names left out of newman's files
};

// Fills `out.scenario`, `out.baseDir` and `out.scenarioJson` (the text as
// written for `scenarioJson`; else empty: recorded as it runs); false with
// `error` when the scenario cannot be read or is not valid, or the
// environment is not there.
bool prepareRun(const RunInputs& in, RunRequest& out, PreparedRun& found, std::string& error);

} // namespace stampede
