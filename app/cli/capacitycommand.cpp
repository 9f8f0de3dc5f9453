// `stampede-cli capacity`: how much can the target take? A capacity search
// (engine/control/capacitysearch.h) on the run path, with the run's options.
#include "cli.h"
#include "runoptions.h"
#include "runsetup.h"

#include "control/capacitysearch.h"
#include "core/durationtext.h"
#include "core/number.h"

#include <cstdio>

namespace stampede::cli {

namespace {

const char* kCapacityUsage =
    "Usage: stampede-cli capacity SCENARIO.json|BUNDLE.stbundle --slo EXPR [--slo EXPR ...] [OPTIONS]\n"
    "       stampede-cli capacity --url URL --slo EXPR [...] [OPTIONS]\n"
    "\n"
    "Finds the highest open-model rate (iterations per second; requests per second\n"
    "for one step) at which every SLO holds: the rate grows x4 level by level from\n"
    "--start until a level breaks an SLO, then bisects between the last good and\n"
    "the first bad rate until the bad one is within 10 % above the good one: the\n"
    "answer is the good one. Each level holds for --step-duration; its first second\n"
    "(the change-over) is not judged. After a level that broke, the search offers\n"
    "half the last good rate until the target has drained what that level queued\n"
    "(at most three levels' time, said as an event), and grows at most x2 past the\n"
    "last good rate. The breaker's stop rules still end the search (its degrade\n"
    "rules only warn).\n"
    "\n"
    "  --slo EXPR            a condition every level must meet, written as a threshold:\n"
    "                        'p99 < 50ms', 'error_rate < 1%', 'checks > 99%', 'login: p95 < 80ms',\n"
    "                        'server:db_cpu < 80' (repeatable; at least one)\n"
    "  --start R             the first level's rate; default 100\n"
    "  --max R               never above this rate; default 100000 (at most 100000 x --start)\n"
    "  --step-duration D     each level's length, 2s to 1h; default 10s\n"
    "  --growth F            each level before the first bad one is F times the last, 1.25 to 10;\n"
    "                        default 4 (2 overshoots less, and takes more levels)\n"
    "  --summary-json FILE   the summary with \"capacity\": {rate, broken_by, levels: [...]}\n"
    "\n"
    "Every option of `stampede-cli run` applies too (engines, agents, TLS, HTTP version,\n"
    "--connections for the pool, --mock, --project, --breaker, ...), except --rate,\n"
    "--duration and --threshold, which the search sets itself.\n"
    "\n"
    "Exit codes: 0 a capacity was found, 1 even the start rate broke an SLO (or the\n"
    "breaker stopped the search), 2 bad input, 3 the search could not be carried out.\n";

int refuse(const std::string& error, int code)
{
    std::fprintf(stderr, "stampede-cli capacity: %s\n", error.c_str());
    return code;
}

// Takes the capacity search's own options out of `args`; the rest are the run's.
bool takeOwnOptions(std::vector<std::string>& args, CapacityOptions& c, std::string& error, bool& help)
{
    std::vector<std::string> rest;
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        auto is = [&](const std::string& flag) { return a == flag || a.rfind(flag + "=", 0) == 0; };
        std::string v;
        if (a == "-h" || a == "--help") {
            help = true;
            return true;
        }
        if (is("--rate") || a == "-r" || is("--duration") || a == "-d" || is("--threshold")) {
            error = a.substr(0, a.find('=')) + ": the search sets the rate and the length itself, and judges --slo";
            return false;
        }
        if (is("--slo")) {
            if (!r.value("--slo", v, error))
                return false;
            auto t = Threshold::parse(v, error);
            if (!t) {
                error = "--slo " + error; // the error quotes the expression
                return false;
            }
            c.slos.push_back(*t);
        } else if (is("--start") || is("--max")) {
            const std::string flag = is("--start") ? "--start" : "--max";
            if (!r.value(flag, v, error) ||
                !parseDecimal(v, flag, 0.001, kCapacityMaxRate, flag == "--start" ? c.start : c.max, error))
                return false;
        } else if (is("--growth")) {
            if (!r.value("--growth", v, error) ||
                !parseDecimal(v, "--growth", kCapacityMinGrowth, kCapacityMaxGrowth, c.growth, error))
                return false;
        } else if (is("--step-duration")) {
            if (!r.value("--step-duration", v, error))
                return false;
            const auto d = parseDuration(v);
            if (!d || *d % kNanosPerSecond != 0) {
                error = "--step-duration: \"" + v + "\" is not a whole number of seconds (e.g. 10s, 1m)";
                return false;
            }
            c.stepSeconds = std::uint32_t(std::min<Nanos>(*d / kNanosPerSecond, kCapacityMaxStepSeconds + 1));
        } else
            rest.push_back(a);
    }
    args = std::move(rest);
    error = CapacitySearch::invalid(c);
    return error.empty();
}

} // namespace

int capacityCommand(const std::vector<std::string>& given)
{
    std::vector<std::string> args = given;
    CapacityOptions capacity;
    std::string error;
    bool help = false;
    if (!takeOwnOptions(args, capacity, error, help) && !help)
        return refuse(error, BadInput);
    Options o;
    if (!help && !parseArgs(args, o, error, help))
        return refuse(error, BadInput);
    if (help) {
        std::fputs(kCapacityUsage, stdout);
        return Passed;
    }
    CliRun cli;
    int code = BadInput;
    if (!setUpRun(o, cli, error, code))
        return refuse(error, code);
    shapeForCapacity(cli.request.scenario, capacity);
    cli.request.capacity = capacity;
    cli.request.source = o.scenarioFile.empty() ? "capacity" : o.scenarioFile;
    return carryOut(o, cli, "capacity");
}

} // namespace stampede::cli
