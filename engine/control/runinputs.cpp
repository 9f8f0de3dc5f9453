#include "runinputs.h"

#include "bundle/bundlefile.h"
#include "bundle/environment.h"
#include "core/textfile.h"
#include "plan/scenarioplan.h"
#include "store/projectstore.h"

#include <memory>

namespace stampede {

namespace {

// A scenario file or a bundle (with an environment, one of its environments applied).
bool fromFile(const RunInputs& in, RunRequest& out, PreparedRun& found, std::string& error)
{
    std::string json, why;
    if (!readWholeFile(in.scenarioFile, json, why)) {
        error = "cannot read scenario file \"" + in.scenarioFile + "\": " + why;
        return false;
    }
    if (looksLikeBundle(json)) {
        v1::Bundle bundle;
        if (!decodeBundle(json, bundle, error)) {
            error = in.scenarioFile + ": " + error;
            return false;
        }
        out.scenario = bundle.scenario();
        if (!in.environment.empty()) {
            const v1::Environment* env = findEnvironment(bundle, in.environment, error);
            if (!env)
                return false;
            applyEnvironment(out.scenario, *env);
            found.environment = env->name();
        }
    } else if (!parseScenarioJson(json, out.scenario, error)) {
        error = in.scenarioFile + ": not a valid scenario: " + error;
        return false;
    } else if (!in.environment.empty()) {
        error = "--env: a scenario file has no environments (a bundle or PROJECT.stampede@SCENARIO has)";
        return false;
    }
    const std::size_t slash = in.scenarioFile.rfind('/');
    out.baseDir = slash == std::string::npos ? "." : in.scenarioFile.substr(0, slash);
    return true;
}

// A project's scenario, collection or folder by name, with its scopes; newman's files beside a collection.
bool fromProject(const RunInputs& in, RunRequest& out, PreparedRun& found, std::string& error)
{
    // Held by a workbench: read beside it; else opened as the workbench opens it (an older project upgraded, its
    // backup kept), for as long as it is read.
    std::unique_ptr<ProjectStore> opened;
    ProjectStore* store = in.project;
    bool readOnly = false;
    if (!store && !(store = (opened = ProjectStore::openForReading(in.projectFile, error, readOnly)).get()))
        return false;
    ProjectScenario p;
    if (in.projectCollection
            ? !loadProjectCollection(*store, in.projectCollection, in.environment, p, error)
            : !loadProjectScenario(*store, in.projectItem, in.environment, p, error, in.storedEnvironment))
        return false;
    found.collection = p.collection;
    found.environment = p.environment;
    if (p.collection) {
        applyNewmanInputs(p.scenario, in.newman, found.warnings);
        if (in.newman.environment)
            found.environment = in.newman.environment->name;
        found.dataRows = in.newman.data ? in.newman.data->rows : 0;
    }
    out.scenario = std::move(p.scenario);
    out.baseDir = p.baseDir;
    return true;
}

// The workbench's editor text, or a scenario the caller built, in its project (if any).
bool fromText(const RunInputs& in, RunRequest& out, PreparedRun& found, std::string& error)
{
    if (in.scenario)
        out.scenario = *in.scenario;
    else if (!parseScenarioJson(in.scenarioJson, out.scenario, error))
        return false;
    bool followed = false; // a step that runs a project's request: recorded as it ran, not as the editor held it
    if (in.project) {
        followed = runsProjectRequests(out.scenario);
        if (!applyProject(out.scenario, *in.project, in.environment, found.environment, error))
            return false;
    } else if (!in.environment.empty()) {
        error = "the environment \"" + in.environment + "\" needs the project it is in";
        return false;
    }
    out.baseDir = in.baseDir.empty() ? "." : in.baseDir;
    if (!in.scenario && !followed)
        out.scenarioJson = in.scenarioJson;
    return true;
}

} // namespace

bool prepareRun(const RunInputs& in, RunRequest& out, PreparedRun& found, std::string& error)
{
    found = {};
    out.scenarioJson.clear();
    const bool project = !in.projectItem.empty() || !in.projectFile.empty() || in.projectCollection;
    const bool read = !in.scenarioFile.empty() ? fromFile(in, out, found, error)
                      : project                ? fromProject(in, out, found, error)
                                               : fromText(in, out, found, error);
    if (!read)
        return false;
    for (const auto& [name, value] : in.overrides)
        setConstant(out.scenario, name, value, true); // never in the record
    return true;
}

} // namespace stampede
