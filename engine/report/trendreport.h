#pragma once
// A scenario's runs side by side (`stampede-cli report trend`): each run's
// rate, error rate and percentiles, one baseline (the user's pick, else the
// oldest run shown), and each later run compared with it as `report compare`
// compares two (compareRuns: a change for the worse past the tolerance is a
// regression). Made from the runs' saved summaries: nothing is re-run.
#include "runsummary.h"
#include "savedreport.h"
#include "store/runlog.h"

#include <optional>
#include <string>
#include <vector>

namespace stampede {

class ProjectStore;

struct TrendRun
{
    RunInfo info;
    RunSummary summary;
    std::vector<CompareRow> regressions; // against the baseline (none for the baseline itself)
};

struct Trend
{
    std::string scenario;
    std::vector<TrendRun> runs; // oldest first
    std::size_t baseline = 0;   // its index in runs
    double tolerance = 0.10;
    // The newest run regressed against the baseline (and is not the baseline): what a CI job fails on.
    bool newestRegressed() const
    {
        return runs.size() > 1 && baseline + 1 != runs.size() && !runs.back().regressions.empty();
    }
};

// Which runs a trend shows: the last `last` completed runs of `scenario` (empty: the newest run's scenario),
// compared with `baselineRun` (a run id or number; empty: the one marked for the scenario in the project, else the
// oldest listed).
struct TrendQuery
{
    std::string scenario;
    std::size_t last = 10;
    std::string baselineRun;
    double tolerance = 0.10;
};

// The project's setting that holds the baseline the user marked for a scenario's trend (its run id).
std::string trendBaselineKey(const std::string& scenario);

// Loads the trend `q` asks for from `store`; nullopt with `error` when there is no such run (the file holds no
// completed run of the scenario; the baseline asked for is not among those listed).
std::optional<Trend> loadTrend(ProjectStore& store, const TrendQuery& q, std::string& error);

// The trend of `runs` (oldest first, at least one), `baseline` their index of the baseline.
Trend makeTrend(std::string scenario, std::vector<TrendRun> runs, std::size_t baseline, double tolerance);
// As a table, a run a line, its regressions named; the last line says what became of the newest run.
std::string trendToText(const Trend& trend);
// One HTML file: the table and the lines over runs (throughput, error rate, percentiles), the baseline marked.
std::string trendToHtml(const Trend& trend);

} // namespace stampede
