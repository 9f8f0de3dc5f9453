#include "projectscenario.h"

#include "environment.h"
#include "plan/scenarioplan.h"
#include "store/projectstore.h"
#include "storedrequest.h"
#include "traffic/trafficstore.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>

namespace stampede {

namespace {

constexpr const char* kSecretsKey = "$secrets"; // an environment item's list of secret names

std::string valueText(const google::protobuf::Value& v)
{
    switch (v.kind_case()) {
    case google::protobuf::Value::kStringValue:
        return v.string_value();
    case google::protobuf::Value::kBoolValue:
        return v.bool_value() ? "true" : "false";
    case google::protobuf::Value::kNumberValue: {
        const double d = v.number_value();
        char text[40];
        if (std::floor(d) == d && std::fabs(d) < 1e15)
            std::snprintf(text, sizeof text, "%.0f", d);
        else
            std::snprintf(text, sizeof text, "%.17g", d);
        return text;
    }
    case google::protobuf::Value::kNullValue:
        return "";
    default: { // a list or an object: its JSON
        std::string json;
        (void)google::protobuf::util::MessageToJsonString(v, &json);
        return json;
    }
    }
}

// Every item of `kind`, depth first in tree order.
std::vector<ProjectItem> itemsOf(const ProjectStore& store, ItemKind kind)
{
    std::vector<ProjectItem> out;
    std::function<void(std::int64_t)> walk = [&](std::int64_t parent) {
        for (const ProjectItem& i : store.children(parent)) {
            if (i.kind == kind)
                out.push_back(i);
            walk(i.id);
        }
    };
    walk(0);
    return out;
}

std::string quotedNames(const std::vector<ProjectItem>& items)
{
    std::string names;
    for (const auto& i : items)
        names += (names.empty() ? "\"" : ", \"") + i.name + "\"";
    return names.empty() ? "none" : names;
}

// The collections and folders at `path` ("Coll" or "Coll/Folder/Sub"; a name may itself hold a "/": each
// way of reading the path is tried).
void itemsAt(const ProjectStore& store, std::int64_t parent, std::string_view rest, bool root,
             std::vector<std::int64_t>& out)
{
    for (const ProjectItem& i : store.children(parent)) {
        if (i.kind != (root ? ItemKind::Collection : ItemKind::Folder) || rest.substr(0, i.name.size()) != i.name)
            continue;
        if (rest.size() == i.name.size())
            out.push_back(i.id);
        else if (rest[i.name.size()] == '/')
            itemsAt(store, i.id, rest.substr(i.name.size() + 1), false, out);
    }
}

std::vector<std::int64_t> itemsAtPath(const ProjectStore& store, const std::string& path)
{
    std::vector<std::int64_t> out;
    itemsAt(store, 0, path, true, out);
    return out;
}

std::string candidates(std::size_t scenarios, std::size_t collections, const std::string& name)
{
    std::string out;
    if (scenarios)
        out += std::to_string(scenarios) + " scenario" + (scenarios > 1 ? "s" : "") + " \"" + name + "\"";
    if (collections)
        out += std::string(out.empty() ? "" : " and ") + std::to_string(collections) + " collection" +
               (collections > 1 ? "s or folders" : " or folder") + " \"" + name + "\"";
    return out;
}

// The requests under `parent`, in order, each with the folders it sits in below it ("A / B", as newman names
// them in its reports).
void requestsUnder(const ProjectStore& store, std::int64_t parent, const std::string& folder,
                   std::vector<std::pair<ProjectItem, std::string>>& out)
{
    for (const ProjectItem& i : store.children(parent)) {
        if (i.kind == ItemKind::Request)
            out.emplace_back(i, folder);
        else if (i.kind == ItemKind::Folder)
            requestsUnder(store, i.id, folder.empty() ? i.name : folder + " / " + i.name, out);
    }
}

// The steps that run a project's request (request_item) made what the request says now (followStoredRequest),
// then no longer pointing into the project: what runs, is recorded and goes to agents is the request itself.
// False with `error` naming the step whose request is gone or cannot be read.
bool followProjectRequests(google::protobuf::RepeatedPtrField<v1::Step>& steps, const ProjectStore& store,
                           std::string& error)
{
    for (v1::Step& step : steps) {
        if (step.request_item() == 0)
            continue;
        const std::optional<ProjectItem> item = store.item(step.request_item());
        if (!item || item->kind != ItemKind::Request) {
            error = "the step \"" + step.name() + "\" runs a request that is no longer in the project (item " +
                    std::to_string(step.request_item()) + "): make the step a copy of what it last ran, or remove it";
            return false;
        }
        if (!followStoredRequest(item->payload, item->name, step, error))
            return false;
        step.set_request_item(0);
    }
    return true;
}

// ... in a scenario, and in a test plan's setup, teardown and scenarios.
bool followProjectRequests(v1::Scenario& scenario, const ProjectStore& store, std::string& error, int depth = 0)
{
    if (!followProjectRequests(*scenario.mutable_steps(), store, error) ||
        !followProjectRequests(*scenario.mutable_setup(), store, error) ||
        !followProjectRequests(*scenario.mutable_teardown(), store, error))
        return false;
    for (v1::Scenario& part : *scenario.mutable_scenarios())
        if (depth < 8 && !followProjectRequests(part, store, error, depth + 1))
            return false;
    return true;
}

} // namespace

bool collectionScenario(const ProjectStore& store, std::int64_t item, const std::string& path, v1::Scenario& out,
                        std::string& error)
{
    std::vector<std::pair<ProjectItem, std::string>> requests;
    std::string folder; // a folder's own path in its collection: its requests' names in reports start with it
    int depth = 0;      // a project file whose folders make a cycle ends the walk
    for (auto i = store.item(item); i && i->kind == ItemKind::Folder && ++depth < 256; i = store.item(i->parentId))
        folder = folder.empty() ? i->name : i->name + " / " + folder;
    requestsUnder(store, item, folder, requests);
    if (requests.empty()) {
        error = "\"" + path + "\" holds no request";
        return false;
    }
    out.Clear();
    out.set_name(path);
    for (const auto& [r, folder] : requests) {
        v1::Step& step = *out.add_steps();
        if (!storedRequestStep(r.payload, r.name, step, error))
            return false;
        step.set_folder(folder);
    }
    // the project's data sets give ${set.column}, a row an iteration, as Send takes them
    for (const ProjectItem& d : itemsOf(store, ItemKind::DataSet)) {
        google::protobuf::Struct o;
        if (!google::protobuf::util::JsonStringToMessage(d.payload.empty() ? "{}" : d.payload, &o).ok())
            continue;
        const auto csv = o.fields().find("csv");
        if (csv == o.fields().end() || csv->second.string_value().empty())
            continue;
        v1::Variable* v = out.add_variables();
        v->set_name(d.name);
        v->mutable_csv()->set_data(csv->second.string_value());
        if (const auto delimiter = o.fields().find("delimiter"); delimiter != o.fields().end())
            v->mutable_csv()->set_delimiter(delimiter->second.string_value());
    }
    out.mutable_load()->mutable_closed()->set_users(1);
    out.set_iterations(1);
    return true;
}

bool environmentFromJson(const std::string& name, const std::string& payload, v1::Environment& out, std::string& error)
{
    google::protobuf::Struct values;
    if (!payload.empty() && !google::protobuf::util::JsonStringToMessage(payload, &values).ok()) {
        error = "the environment \"" + name + "\" is not a JSON object of values";
        return false;
    }
    out.Clear();
    out.set_name(name);
    for (const auto& [key, value] : values.fields())
        if (key != kSecretsKey)
            (*out.mutable_values())[key] = valueText(value);
    if (const auto it = values.fields().find(kSecretsKey); it != values.fields().end())
        for (const auto& n : it->second.list_value().values())
            if (out.values().count(n.string_value()))
                out.add_secrets(n.string_value());
    return true;
}

bool projectEnvironments(const ProjectStore& store, std::vector<v1::Environment>& out, std::string& error)
{
    out.clear();
    for (const ProjectItem& i : itemsOf(store, ItemKind::Environment)) {
        v1::Environment e;
        if (!environmentFromJson(i.name, i.payload, e, error))
            return false;
        out.push_back(std::move(e));
    }
    return true;
}

bool carryEnvironments(v1::Bundle& bundle, const std::vector<v1::Environment>& all, const std::string& chosen,
                       std::string& error)
{
    bundle.clear_environments();
    for (const auto& e : all) { // secrets travel as names only: the machine that runs it gives them
        v1::Environment& carried = *bundle.add_environments();
        carried = e;
        for (const auto& secret : e.secrets())
            carried.mutable_values()->erase(secret);
    }
    bundle.set_environment(chosen);
    if (chosen.empty())
        return true;
    const v1::Environment* env = findEnvironment(bundle, chosen, error);
    if (env)
        applyEnvironment(*bundle.mutable_scenario(), *env);
    return env != nullptr;
}

std::vector<ScheduledScenario> projectSchedules(const ProjectStore& store)
{
    std::vector<ScheduledScenario> out;
    for (const ProjectItem& i : itemsOf(store, ItemKind::Scenario)) {
        v1::Scenario s;
        std::string ignored;
        if (parseScenarioJson(i.payload, s, ignored) && !s.schedule().empty())
            out.push_back({i.name, s.name().empty() ? i.name : s.name(), s.schedule()});
    }
    return out;
}

bool splitProjectScenario(const std::string& text, std::string& project, std::string& scenario)
{
    const std::string suffix = ".stampede@";
    const std::size_t at = text.rfind(suffix);
    if (at == std::string::npos || at == 0)
        return false;
    project = text.substr(0, at + suffix.size() - 1);
    scenario = text.substr(at + suffix.size());
    return true;
}

bool runsProjectRequests(const v1::Scenario& scenario)
{
    const auto any = [](const auto& steps) {
        return std::any_of(steps.begin(), steps.end(), [](const v1::Step& s) { return s.request_item() != 0; });
    };
    return any(scenario.steps()) || any(scenario.setup()) || any(scenario.teardown()) ||
           std::any_of(scenario.scenarios().begin(), scenario.scenarios().end(),
                       [](const v1::Scenario& part) { return runsProjectRequests(part); });
}

bool applyProject(v1::Scenario& scenario, ProjectStore& store, const std::string& env, std::string& applied,
                  std::string& error)
{
    applied.clear();
    if (!followProjectRequests(scenario, store, error) || !inlineReplayTraffic(scenario, store, error))
        return false;
    if (env.empty())
        return true;
    std::vector<v1::Environment> all;
    if (!projectEnvironments(store, all, error))
        return false;
    for (const auto& e : all)
        if (e.name() == env) {
            applyEnvironment(scenario, e);
            applied = e.name();
            return true;
        }
    error = "the project has no environment named \"" + env + "\"";
    return false;
}

bool loadProjectScenario(const std::string& path, const std::string& name, const std::string& env, ProjectScenario& out,
                         std::string& error, bool storedEnvironment)
{
    auto store = ProjectStore::openReadOnly(path, error);
    return store && loadProjectScenario(*store, name, env, out, error, storedEnvironment);
}

namespace {
bool applyProjectScopes(ProjectStore& project, const std::string& name, const std::string& env, ProjectScenario& out,
                        std::string& error, bool storedEnvironment);
} // namespace

bool loadProjectScenario(ProjectStore& project, const std::string& name, const std::string& env, ProjectScenario& out,
                         std::string& error, bool storedEnvironment)
{
    std::string why;
    ProjectStore* store = &project;
    const std::string path = project.path();
    const std::vector<ProjectItem> scenarios = itemsOf(*store, ItemKind::Scenario);
    std::vector<const ProjectItem*> named;
    for (const auto& s : scenarios)
        if (s.name == name)
            named.push_back(&s);
    const std::vector<std::int64_t> collections = itemsAtPath(*store, name);
    if (named.size() + collections.size() > 1) {
        error = path + "@" + name + " is ambiguous: it names " + candidates(named.size(), collections.size(), name) +
                "; rename one of them";
        return false;
    }
    if (!collections.empty()) {
        out.collection = true;
        if (!collectionScenario(*store, collections.front(), name, out.scenario, why)) {
            error = path + "@" + name + ": " + why;
            return false;
        }
    } else if (named.empty()) {
        std::vector<ProjectItem> roots;
        for (const auto& i : store->children(0))
            if (i.kind == ItemKind::Collection)
                roots.push_back(i);
        error = path + " has no scenario or collection named \"" + name + "\" (scenarios: " + quotedNames(scenarios) +
                "; collections: " + quotedNames(roots) + ")";
        return false;
    } else if (!parseScenarioJson(named.front()->payload, out.scenario, why)) {
        error = path + "@" + name + ": not a valid scenario: " + why;
        return false;
    }
    return applyProjectScopes(project, name, env, out, error, storedEnvironment);
}

namespace {

// A scenario's (or a collection's, `out.collection`) scopes from its project: the collection's own variables,
// the environment `env` (the stored choice when empty and `storedEnvironment`), its replay's traffic inlined.
bool applyProjectScopes(ProjectStore& project, const std::string& name, const std::string& env, ProjectScenario& out,
                        std::string& error, bool storedEnvironment)
{
    std::string why;
    ProjectStore* store = &project;
    const std::string path = project.path();
    if (!projectEnvironments(*store, out.environments, why)) {
        error = path + "@" + name + ": " + why;
        return false;
    }
    std::string chosen = env.empty() && storedEnvironment ? store->setting("environment") : env;
    // A collection's own variables (imported as an environment of its name): its scope, below an environment's,
    // used whatever environment is chosen (Postman's and newman's collection variables)
    std::string root; // the collection's own name (the longest that starts the path)
    for (const ProjectItem& i : store->children(0))
        if (out.collection && i.kind == ItemKind::Collection && i.name.size() > root.size() &&
            name.compare(0, i.name.size(), i.name) == 0 && (name.size() == i.name.size() || name[i.name.size()] == '/'))
            root = i.name;
    for (const auto& e : out.environments)
        if (out.collection && e.name() == root) {
            const std::map<std::string, std::string> sorted(e.values().begin(), e.values().end());
            for (const auto& [key, value] : sorted) {
                const auto& vars = out.scenario.variables();
                if (std::any_of(vars.begin(), vars.end(),
                                [&key = key](const v1::Variable& v) { return v.name() == key && !v.has_constant(); }))
                    continue; // a data set of the name shadows it
                setConstant(out.scenario, key, value,
                            std::find(e.secrets().begin(), e.secrets().end(), key) != e.secrets().end(), "collection");
            }
        }
    const bool known = std::any_of(out.environments.begin(), out.environments.end(),
                                   [&](const v1::Environment& e) { return e.name() == chosen; });
    if (!env.empty() && !known) {
        std::vector<ProjectItem> named;
        for (const auto& e : out.environments)
            named.push_back({0, 0, ItemKind::Environment, e.name(), 0, {}});
        error = "--env: " + path + " has no environment named \"" + env + "\" (it has " + quotedNames(named) + ")";
        return false;
    }
    if (out.collection && chosen == root)
        chosen.clear(); // its values are the collection's, above
    if (!applyProject(out.scenario, *store, known ? chosen : std::string(), out.environment, why)) {
        error = path + "@" + name + ": " + why;
        return false;
    }
    const std::size_t slash = path.rfind('/');
    out.baseDir = slash == std::string::npos ? "." : path.substr(0, slash);
    return true;
}

} // namespace

bool loadProjectCollection(ProjectStore& project, std::int64_t item, const std::string& env, ProjectScenario& out,
                           std::string& error)
{
    std::string name; // its path: "Shop/Checkout"
    int depth = 0;    // a project file whose folders make a cycle ends the walk
    auto i = project.item(item);
    if (!i || (i->kind != ItemKind::Collection && i->kind != ItemKind::Folder)) {
        error = "not a collection or a folder of " + project.path();
        return false;
    }
    for (; i && ++depth < 256; i = i->parentId ? project.item(i->parentId) : std::nullopt)
        name = name.empty() ? i->name : i->name + "/" + name;
    out = {};
    out.collection = true;
    if (!collectionScenario(project, item, name, out.scenario, error)) {
        error = name + ": " + error;
        return false;
    }
    return applyProjectScopes(project, name, env, out, error, false);
}

namespace {

bool secretIn(const std::optional<PostmanVariables>& file, const std::string& name)
{
    return file && std::find(file->secrets.begin(), file->secrets.end(), name) != file->secrets.end();
}

} // namespace

void applyNewmanInputs(v1::Scenario& scenario, const NewmanInputs& inputs, std::vector<std::string>& warnings)
{
    const auto holdable = [&](const std::string& name, const char* from) {
        if (isPostmanName(name))
            return true;
        warnings.push_back(std::string(from) + ": \"" + name +
                           "\" is left out: a name has no braces or line breaks and starts with none of # / ^ ! > & $");
        return false;
    };
    const auto has = [&](const std::string& name) {
        const auto& vars = scenario.variables();
        return std::any_of(vars.begin(), vars.end(), [&](const v1::Variable& v) { return v.name() == name; });
    };
    std::vector<std::pair<std::string, std::string>> globals =
        inputs.globals ? inputs.globals->values : decltype(globals){};
    globals.insert(globals.end(), inputs.globalVars.begin(), inputs.globalVars.end());
    for (const auto& [key, value] : globals) {
        const auto& vars = scenario.variables();
        const bool above = std::any_of(vars.begin(), vars.end(), [&key = key](const v1::Variable& v) {
            return v.name() == key && !(v.has_constant() && v.constant().scope() == "globals");
        });
        if (!holdable(key, "--globals") || above)
            continue; // the collection's (or an environment's) value is above a global
        setConstant(scenario, key, value, secretIn(inputs.globals, key), "globals");
    }
    std::vector<std::pair<std::string, std::string>> env =
        inputs.environment ? inputs.environment->values : decltype(env){};
    env.insert(env.end(), inputs.envVars.begin(), inputs.envVars.end());
    for (const auto& [key, value] : env)
        if (holdable(key, "--environment"))
            setConstant(scenario, key, value, secretIn(inputs.environment, key));
    if (inputs.data) {
        std::string name = "iterationData";
        while (has(name))
            name += "_";
        v1::Variable& v = *scenario.add_variables();
        v.set_name(name);
        v.mutable_csv()->set_data(inputs.data->csv);
        v.mutable_csv()->set_iteration_data(true);
    }
}

} // namespace stampede
