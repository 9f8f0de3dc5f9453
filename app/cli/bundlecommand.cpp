#include "cli.h"
#include "core/textfile.h"

#include "bundle/bundlefile.h"
#include "bundle/projectscenario.h"
#include "plan/scenarioplan.h"
#include "resolve/scriptsyntax.h"
#include "stampede/v1/bundle.pb.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace stampede::cli {

namespace {
const char* kBundleUsage = "Usage: stampede-cli bundle SCENARIO.json -o FILE.stbundle\n"
                           "       stampede-cli bundle PROJECT.stampede@SCENARIO [--env NAME] -o FILE.stbundle\n"
                           "\n"
                           "Packs the scenario with its CSV data into one file with a SHA-256 digest and a\n"
                           "format version; `stampede-cli run FILE.stbundle` runs it anywhere.\n"
                           "The scenario is validated first. A project's scenario takes its traffic set's\n"
                           "requests, and the bundle carries the project's environments: the scenario's\n"
                           "constants take --env's values (by default the workbench's current environment),\n"
                           "and `run FILE.stbundle --env OTHER` chooses another.\n";

struct BundleInput
{
    v1::Scenario scenario;
    std::string baseDir, sourceName;
    std::vector<v1::Environment> environments;
    std::string environment;
};

bool readInput(const std::string& input, const std::string& env, BundleInput& in, std::string& error)
{
    std::string project, name;
    if (splitProjectScenario(input, project, name)) {
        ProjectScenario p;
        if (!loadProjectScenario(project, name, env, p, error))
            return false;
        in.scenario = std::move(p.scenario);
        in.baseDir = p.baseDir;
        in.sourceName = name;
        in.environments = std::move(p.environments);
        in.environment = p.environment;
        return true;
    }
    if (!env.empty()) {
        error = "--env: a scenario file has no environments (PROJECT.stampede@SCENARIO has)";
        return false;
    }
    std::string json, why;
    if (!readWholeFile(input, json, why)) {
        error = "cannot read scenario file \"" + input + "\": " + why;
        return false;
    }
    if (!parseScenarioJson(json, in.scenario, error)) {
        error = input + ": not a valid scenario: " + error;
        return false;
    }
    const std::size_t slash = input.rfind('/');
    in.baseDir = slash == std::string::npos ? "." : input.substr(0, slash);
    in.sourceName = input.substr(slash == std::string::npos ? 0 : slash + 1);
    return true;
}

bool compiles(const BundleInput& in)
{
    std::vector<PlanError> errors;
    PlanOptions po;
    po.baseDir = in.baseDir;
    const bool compiled = compileScenario(in.scenario, po, errors).has_value();
    if (checkScriptSyntax(in.scenario, errors) && compiled)
        return true;
    for (const auto& e : errors)
        std::fprintf(stderr, "stampede-cli bundle: %s\n", e.text().c_str());
    return false;
}
} // namespace

int bundleCommand(const std::vector<std::string>& args)
{
    std::string input, output, env, error;
    ArgReader r{args};
    for (; !r.done() && error.empty(); ++r.pos) {
        const std::string& a = args[r.pos];
        if (a == "-h" || a == "--help") {
            std::fputs(kBundleUsage, stdout);
            return Passed;
        } else if (a == "-o" || a.rfind("--output", 0) == 0) {
            r.value(a == "-o" ? "-o" : "--output", output, error);
        } else if (a == "--env" || a.rfind("--env=", 0) == 0) {
            r.value("--env", env, error);
        } else if (!a.empty() && a[0] == '-') {
            error = "unknown option \"" + a + "\"";
        } else if (input.empty()) {
            input = a;
        } else {
            error = "unexpected argument \"" + a + "\"";
        }
    }
    if (error.empty() && (input.empty() || output.empty()))
        error = "give a scenario file and -o FILE.stbundle";
    std::string project, name;
    const std::string read = splitProjectScenario(input, project, name) ? project : input;
    if (error.empty() && overwritesInput(output, {read})) {
        std::fprintf(stderr, "stampede-cli bundle: -o \"%s\" is the %s being read; it is left as it is\n",
                     output.c_str(), read == input ? "scenario" : "project");
        return BadInput;
    }
    BundleInput in;
    if (error.empty() && readInput(input, env, in, error) && !compiles(in))
        return BadInput;
    v1::Bundle bundle;
    if (error.empty())
        makeBundle(in.scenario, in.baseDir, in.sourceName, bundle, error);
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli bundle: %s\n", error.c_str());
        return BadInput;
    }
    for (auto& e : in.environments)
        *bundle.add_environments() = std::move(e);
    bundle.set_environment(in.environment);
    const std::string bytes = encodeBundle(bundle);
    if (!writeOutput(output, bytes, error)) {
        std::fprintf(stderr, "stampede-cli bundle: %s\n", error.c_str());
        return RunFailed;
    }
    std::printf("%s: %zu bytes, format version %u%s\n", output.c_str(), bytes.size(), kBundleFormatVersion,
                in.environment.empty() ? "" : (", environment \"" + in.environment + "\"").c_str());
    return Passed;
}

} // namespace stampede::cli
