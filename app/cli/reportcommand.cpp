#include "cli.h"
#include "core/durationtext.h"
#include "core/textfile.h"
#include "savedrunload.h"

#include "core/threshold.h"
#include "report/savedreport.h"
#include "report/trendreport.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include <algorithm>
#include <cstdio>
#include <fstream>

namespace stampede::cli {

namespace {

const char* kReportUsage =
    "Usage: stampede-cli report list FILE\n"
    "       stampede-cli report export REPORT [--run ID] --format html|json|csv|junit -o OUT\n"
    "                                  [--apdex 500ms] [--apdex STEP=200ms]\n"
    "       stampede-cli report compare BASELINE CANDIDATE [--tolerance 10%]\n"
    "       stampede-cli report trend FILE[@SCENARIO] [--last 10] [--baseline RUN] [--tolerance 10%]\n"
    "                                  [-o trend.html]\n"
    "\n"
    "REPORT is a standalone report file (*.streport) or a project (*.stampede); --run picks a run\n"
    "by its id (the stress tag, st-...) or number, otherwise the newest run is used. In compare,\n"
    "BASELINE and CANDIDATE are FILE or FILE@RUN. compare prints the changes and exits 1 when the\n"
    "candidate is worse than the baseline beyond the tolerance (rate, error rate, p50..max).\n"
    "trend lists the last completed runs of a scenario (the newest run's by default), each against\n"
    "the baseline (--baseline, else the oldest listed), writes them as one HTML file with -o, and\n"
    "exits 1 when the newest run regressed against the baseline.\n"
    "\n"
    "Formats: html (one file, charts inline, opens offline), json (the summary and the error\n"
    "samples), csv (per-second series per step, errors by class), junit (one test case per threshold).\n"
    "html and json give each step's, group's and plan scenario's latency distribution, APDEX at\n"
    "--apdex T (satisfied at or below T, tolerating to 4T; default 500ms; --apdex NAME=T gives one\n"
    "step, group or scenario its own T), percentiles second by second and its errors by class.\n"
    "The exports are in English; the workbench exports in its languages:\n"
    "  stampede --report FILE --export OUT.html --language zh_CN\n";

// "10%", "10" or "0.1" as a fraction; false when it is not a percentage.
bool parseTolerance(std::string t, double& out)
{
    const bool percent = !t.empty() && t.back() == '%';
    if (percent)
        t.pop_back();
    char* end = nullptr;
    out = std::strtod(t.c_str(), &end);
    if (t.empty() || *end || !(out >= 0))
        return false;
    if (percent || out > 1)
        out /= 100;
    return true;
}

// `report trend FILE[@SCENARIO]`: the last `last` completed runs of the scenario, each against the baseline.
int trendCommand(const std::string& spec, const std::string& lastText, const std::string& baselineRun, double tolerance,
                 const std::string& output)
{
    std::string file = spec, scenario, error;
    if (const std::size_t at = spec.rfind('@'); at != std::string::npos && at > 0) {
        file = spec.substr(0, at);
        scenario = spec.substr(at + 1);
    }
    char* end = nullptr;
    const long last = lastText.empty() ? 10 : std::strtol(lastText.c_str(), &end, 10);
    if (!lastText.empty() && (*end || last < 2 || last > 1000)) {
        std::fprintf(stderr, "stampede-cli report trend: --last: \"%s\" is not a number of runs from 2 to 1000\n",
                     lastText.c_str());
        return BadInput;
    }
    bool readOnly = false;
    auto store = ProjectStore::openForReading(file, error, readOnly);
    if (!store) {
        std::fprintf(stderr, "stampede-cli report: %s\n", error.c_str());
        return BadInput;
    }
    const auto loaded = loadTrend(*store, {scenario, std::size_t(last), baselineRun, tolerance}, error);
    if (!loaded) {
        std::fprintf(stderr, "stampede-cli report trend: %s%s\n",
                     error.rfind("--baseline", 0) == 0 ? "" : ("\"" + file + "\" ").c_str(), error.c_str());
        return BadInput;
    }
    const Trend& trend = *loaded;
    std::fputs(trendToText(trend).c_str(), stdout);
    if (!output.empty()) {
        if (overwritesInput(output, {file})) {
            std::fprintf(stderr, "stampede-cli report trend: -o \"%s\" is the file being read\n", output.c_str());
            return BadInput;
        }
        if (!writeOutput(output, trendToHtml(trend), error)) {
            std::fprintf(stderr, "stampede-cli report: %s\n", error.c_str());
            return RunFailed;
        }
    }
    return trend.newestRegressed() ? ThresholdFailed : Passed;
}

// --apdex T (every section) and --apdex NAME=T (a step's, group's or scenario's own), as often as needed.
bool apdexOptions(const std::vector<std::string>& given, const SavedRun& run, ReportOptions& o, std::string& error)
{
    for (const std::string& one : given) {
        const std::size_t eq = one.rfind('=');
        const std::string name = eq == std::string::npos ? std::string() : one.substr(0, eq);
        const std::string time = eq == std::string::npos ? one : one.substr(eq + 1);
        const auto t = parseDuration(time);
        if (!t || *t <= 0 || *t > 3600 * kNanosPerSecond) {
            error = "\"" + time + "\" is not a time such as 300ms";
            return false;
        }
        const double ms = double(*t) / double(kNanosPerMilli);
        if (name.empty()) {
            o.apdexTMs = ms;
            continue;
        }
        std::vector<std::string> known = run.stepNames;
        known.insert(known.end(), run.groupNames.begin(), run.groupNames.end());
        for (const RunScenario& sc : run.scenarios)
            known.push_back(sc.name);
        if (std::find(known.begin(), known.end(), name) == known.end()) {
            std::string names;
            for (const std::string& k : known)
                names += (names.empty() ? "" : ", ") + ("\"" + k + "\"");
            error = "no step, group or scenario of the run is named \"" + name + "\" (it has " + names + ")";
            return false;
        }
        o.apdexTByName[name] = ms;
    }
    return true;
}

} // namespace

int reportCommand(const std::vector<std::string>& args)
{
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        std::fputs(kReportUsage, args.empty() ? stderr : stdout);
        return args.empty() ? BadInput : Passed;
    }
    const std::string verb = args[0];
    std::vector<std::string> positional;
    std::string run, format, output, tolerance = "10%", last, baseline, error, language;
    std::vector<std::string> apdex;
    ArgReader r{args};
    for (r.pos = 1; !r.done() && error.empty(); ++r.pos) {
        const std::string& a = args[r.pos];
        if (a == "--run" || a.rfind("--run=", 0) == 0)
            r.value("--run", run, error);
        else if (a == "--format" || a.rfind("--format=", 0) == 0)
            r.value("--format", format, error);
        else if (a == "-o" || a == "--output")
            r.value(a, output, error);
        else if (a == "--tolerance" || a.rfind("--tolerance=", 0) == 0)
            r.value("--tolerance", tolerance, error);
        else if (a == "--apdex" || a.rfind("--apdex=", 0) == 0) {
            std::string one;
            r.value("--apdex", one, error);
            apdex.push_back(one);
        } else if (a == "--language" || a.rfind("--language=", 0) == 0)
            r.value("--language", language, error);
        else if (a == "--last" || a.rfind("--last=", 0) == 0)
            r.value("--last", last, error);
        else if (a == "--baseline" || a.rfind("--baseline=", 0) == 0)
            r.value("--baseline", baseline, error);
        else if (a == "-h" || a == "--help") {
            std::fputs(kReportUsage, stdout);
            return Passed;
        } else if (!a.empty() && a[0] == '-')
            error = "unknown option \"" + a + "\"";
        else
            positional.push_back(a);
    }
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli report: %s\n", error.c_str());
        return BadInput;
    }
    if (verb == "list") {
        if (positional.size() != 1) {
            std::fprintf(stderr, "stampede-cli report list: give one file\n");
            return BadInput;
        }
        bool readOnly = false;
        auto store = ProjectStore::openForReading(positional[0], error, readOnly);
        if (!store) {
            std::fprintf(stderr, "stampede-cli report: %s\n", error.c_str());
            return BadInput;
        }
        for (const auto& info : RunLog(*store).runs()) // with the verdict stored with it, in its words
            std::printf("%lld  %s  %6.1f s  %s  %-16s  %s%s\n", static_cast<long long>(info.id), info.runId.c_str(),
                        info.durationS, info.started.c_str(), info.name.c_str(), info.verdict.c_str(),
                        info.unjudged.empty() ? "" : ("  (not judged: " + info.unjudged + ")").c_str());
        return Passed;
    }
    if (verb == "export") {
        if (positional.size() != 1 || output.empty() || format.empty()) {
            std::fprintf(stderr, "stampede-cli report export: give REPORT, --format and -o (see --help)\n");
            return BadInput;
        }
        if (format != "html" && format != "json" && format != "csv" && format != "junit") {
            std::fprintf(stderr, "stampede-cli report export: --format: \"%s\" is not html, json, csv or junit\n",
                         format.c_str());
            return BadInput;
        }
        if (overwritesInput(output, {positional[0]})) {
            std::fprintf(stderr,
                         "stampede-cli report export: -o \"%s\" is the report being read; it is left as it is\n",
                         output.c_str());
            return BadInput;
        }
        Loaded l;
        if (!load(positional[0], run, l, error)) {
            std::fprintf(stderr, "stampede-cli report: %s\n", error.c_str());
            return BadInput;
        }
        const RunSummary s = summarizeSaved(l.run);
        ReportOptions options;
        if (!apdexOptions(apdex, l.run, options, error)) {
            std::fprintf(stderr, "stampede-cli report export: --apdex: %s\n", error.c_str());
            return BadInput;
        }
        if (!language.empty() && language != "en") {
            std::fprintf(stderr,
                         "stampede-cli report export: --language: the command line writes English; the workbench "
                         "exports in its languages: stampede --report %s --export OUT.html --language %s\n",
                         positional[0].c_str(), language.c_str());
            return BadInput;
        }
        const std::string text = format == "html"   ? exportHtml(l.run, s, options)
                                 : format == "json" ? exportJson(l.run, s, options)
                                 : format == "csv"  ? exportCsv(l.run)
                                                    : exportJUnit(s);
        if (!writeOutput(output, text, error)) {
            std::fprintf(stderr, "stampede-cli report: %s\n", error.c_str());
            return RunFailed;
        }
        std::printf("%s: %s report of run %s (%s)\n", output.c_str(), format.c_str(), l.run.info.runId.c_str(),
                    l.run.info.status.c_str());
        return Passed;
    }
    if (verb == "compare") {
        if (positional.size() != 2) {
            std::fprintf(stderr, "stampede-cli report compare: give BASELINE and CANDIDATE\n");
            return BadInput;
        }
        double tol = 0;
        if (!parseTolerance(tolerance, tol)) {
            std::fprintf(stderr, "stampede-cli report compare: --tolerance: \"%s\" is not a percentage such as 10%%\n",
                         tolerance.c_str());
            return BadInput;
        }
        Loaded a, b;
        if (!load(positional[0], {}, a, error) || (a.store.reset(), !load(positional[1], {}, b, error))) {
            std::fprintf(stderr, "stampede-cli report: %s\n", error.c_str());
            return BadInput;
        }
        const RunSummary sa = summarizeSaved(a.run), sb = summarizeSaved(b.run);
        const CompareResult c = compareRuns(sa, sb, tol);
        std::fputs(compareToText(c, sa, sb).c_str(), stdout);
        return c.regressed ? ThresholdFailed : Passed;
    }
    if (verb == "trend") {
        double tol = 0;
        if (positional.size() != 1) {
            std::fprintf(stderr, "stampede-cli report trend: give one FILE or FILE@SCENARIO\n");
            return BadInput;
        }
        if (!parseTolerance(tolerance, tol)) {
            std::fprintf(stderr, "stampede-cli report trend: --tolerance: \"%s\" is not a percentage such as 10%%\n",
                         tolerance.c_str());
            return BadInput;
        }
        return trendCommand(positional[0], last, baseline, tol, output);
    }
    std::fprintf(stderr, "stampede-cli report: unknown action \"%s\"\n\n%s", verb.c_str(), kReportUsage);
    return BadInput;
}

} // namespace stampede::cli
