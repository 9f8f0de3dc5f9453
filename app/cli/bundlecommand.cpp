#include "cli.h"
#include "core/textfile.h"

#include "bundle/bundlefile.h"
#include "run/scenarioplan.h"
#include "stampede/v1/bundle.pb.h"

#include <cstdio>
#include <fstream>
#include <sstream>

namespace stampede::cli {

namespace {
const char* kBundleUsage = "Usage: stampede-cli bundle SCENARIO.json -o FILE.stbundle\n"
                           "\n"
                           "Packs the scenario with its CSV data into one file with a SHA-256 digest and a\n"
                           "format version; `stampede-cli run FILE.stbundle` runs it anywhere.\n"
                           "The scenario is validated first.\n";
}

int bundleCommand(const std::vector<std::string>& args)
{
    std::string input, output, error;
    ArgReader r{args};
    for (; !r.done() && error.empty(); ++r.pos) {
        const std::string& a = args[r.pos];
        if (a == "-h" || a == "--help") {
            std::fputs(kBundleUsage, stdout);
            return Passed;
        } else if (a == "-o" || a.rfind("--output", 0) == 0) {
            r.value(a == "-o" ? "-o" : "--output", output, error);
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
    if (error.empty() && overwritesInput(output, {input})) {
        std::fprintf(stderr, "stampede-cli bundle: -o \"%s\" is the scenario being read; it is left as it is\n",
                     output.c_str());
        return BadInput;
    }
    std::string json;
    if (error.empty()) {
        std::ifstream in(input, std::ios::binary);
        std::ostringstream ss;
        ss << in.rdbuf();
        json = ss.str();
        if (!in)
            error = "cannot read scenario file \"" + input + "\"";
    }
    v1::Scenario scenario;
    if (error.empty() && !parseScenarioJson(json, scenario, error))
        error = input + ": not a valid scenario: " + error;
    const std::size_t slash = input.rfind('/');
    const std::string baseDir = slash == std::string::npos ? "." : input.substr(0, slash);
    if (error.empty()) {
        std::vector<PlanError> errors;
        PlanOptions po;
        po.baseDir = baseDir;
        po.resolveHosts = false;
        if (!compileScenario(scenario, po, errors)) {
            for (const auto& e : errors)
                std::fprintf(stderr, "stampede-cli bundle: %s\n", e.text().c_str());
            return BadInput;
        }
    }
    v1::Bundle bundle;
    if (error.empty())
        makeBundle(scenario, baseDir, input.substr(slash == std::string::npos ? 0 : slash + 1), bundle, error);
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli bundle: %s\n", error.c_str());
        return BadInput;
    }
    const std::string bytes = encodeBundle(bundle);
    if (!writeFileAtomically(output, bytes, error)) {
        std::fprintf(stderr, "stampede-cli bundle: %s\n", error.c_str());
        return RunFailed;
    }
    std::printf("%s: %zu bytes, format version %u\n", output.c_str(), bytes.size(), kBundleFormatVersion);
    return Passed;
}

} // namespace stampede::cli
