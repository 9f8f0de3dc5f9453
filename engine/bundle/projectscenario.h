#pragma once
// A project's scenarios and environments for the command line and for
// bundles: `stampede-cli run PROJECT.stampede@SCENARIO [--env NAME]` runs a
// scenario as the workbench would (its traffic set's requests inlined, an
// environment's values as constants), and a bundle exported from the
// workbench carries the project's environments.
#include <cstdint>
#include <string>
#include <vector>

#include "collection/newmanfiles.h"
#include "stampede/v1/bundle.pb.h"

#include <optional>

namespace stampede {

class ProjectStore;

// The project's environments in tree order; an environment item's payload is
// a JSON object of values (numbers and booleans are taken as their text),
// with the names of its secret values under "$secrets".
// False with `error` when one cannot be read.
bool projectEnvironments(const ProjectStore& store, std::vector<v1::Environment>& out, std::string& error);

// An environment item's payload (a JSON object of values); false with `error`.
bool environmentFromJson(const std::string& name, const std::string& payload, v1::Environment& out, std::string& error);
// A bundle's environments: `all` carried, their secret values left out (the
// names stay), `chosen` (when not empty, one of them) applied to its
// scenario's constants, without its secrets. False with `error` when
// `chosen` is not among them.
bool carryEnvironments(v1::Bundle& bundle, const std::vector<v1::Environment>& all, const std::string& chosen,
                       std::string& error);

// The project's scenarios that carry a schedule, in tree order.
struct ScheduledScenario
{
    std::string item;     // the scenario item's name (PROJECT@item)
    std::string name;     // the scenario's own name, as its runs are listed
    std::string schedule; // as written
};
std::vector<ScheduledScenario> projectSchedules(const ProjectStore& store);

// Splits "PROJECT.stampede@SCENARIO" (the last '@' after a file name that
// ends in .stampede); false when `text` is not of that form.
bool splitProjectScenario(const std::string& text, std::string& project, std::string& scenario);

// What a project gives a scenario that runs in it, in one place for the
// command line and the workbench: the steps that run a project's request
// (v1::Step.request_item) made what that request says now, its replay's traffic set inlined, and the
// environment called `env` applied (under the scopes of environment.h); with
// `env` empty, none. `applied` is the environment's name when one was.
// False with `error` naming what is missing.
// Whether a step of `scenario` (or of its plan's parts) runs a project's request (v1::Step.request_item).
bool runsProjectRequests(const v1::Scenario& scenario);

bool applyProject(v1::Scenario& scenario, ProjectStore& store, const std::string& env, std::string& applied,
                  std::string& error);

// A collection or a folder of the project ("Shop", "Shop/Checkout") as a
// scenario, as newman runs one: its requests in tree order (folders depth
// first) as steps, as written, with the project's data sets as CSV variables
// (a row an iteration), by one virtual user for one iteration (the command
// line's load flags change that). False with `error` when it holds
// no request or a request cannot be read.
bool collectionScenario(const ProjectStore& store, std::int64_t item, const std::string& path, v1::Scenario& out,
                        std::string& error);

struct ProjectScenario
{
    v1::Scenario scenario;
    bool collection = false; // NAME was a collection or a folder, made into a scenario
    std::string environment; // the one applied; empty: none
    std::string baseDir;     // the project's folder: CSV files are read relative to it
    std::vector<v1::Environment> environments;
};

// Reads the scenario called `name` from the project at `path` (read-only:
// the workbench may hold it) - or the collection or folder of that path
// (collectionScenario); a NAME that is both, or several, is refused listing
// them -, inlines its replay's traffic set, and applies
// the environment `env`; with `env` empty, the one the workbench last chose
// (the project's "environment" setting), if it still exists. False with
// `error` naming what is missing (and the scenarios or environments there are).
// With `storedEnvironment` false, none is taken when `env` is empty (newman's
// --environment FILE stands instead).
bool loadProjectScenario(const std::string& path, const std::string& name, const std::string& env, ProjectScenario& out,
                         std::string& error, bool storedEnvironment = true);
// The same from a project that is open (the workbench's).
bool loadProjectScenario(ProjectStore& project, const std::string& name, const std::string& env, ProjectScenario& out,
                         std::string& error, bool storedEnvironment = true);
// The collection or folder `item` of an open project (the workbench's runner) as loadProjectScenario reads
// one by its path: its requests as steps, the collection's own variables, and the environment `env` (none when
// empty). False with `error`.
bool loadProjectCollection(ProjectStore& project, std::int64_t item, const std::string& env, ProjectScenario& out,
                           std::string& error);

// What newman takes beside a collection (newmanfiles.h), for a collection run.
struct NewmanInputs
{
    std::optional<PostmanVariables> environment, globals;                 // --environment FILE, --globals FILE
    std::vector<std::pair<std::string, std::string>> envVars, globalVars; // --env-var, --global-var NAME=VALUE
    std::optional<IterationData> data;                                    // --iteration-data FILE
};
// Applies them to a collection's scenario under Postman's precedence (globals
// below the collection's variables, an environment above them, the data row
// above it): globals as constants of scope "globals" where the collection has
// no value of the name, the environment's values (and --env-var) over any, the
// data as an iteration-data CSV source. A name Stampede cannot hold ("Global
// Foo") is left out with a line in `warnings`.
void applyNewmanInputs(v1::Scenario& scenario, const NewmanInputs& inputs, std::vector<std::string>& warnings);

} // namespace stampede
