#pragma once
// A scenario's runs side by side (`stampede-cli report trend`): each run's
// rate, error rate and percentiles, one baseline (the user's pick, else the
// oldest run shown), and each later run compared with it as `report compare`
// compares two (compareRuns: a change for the worse past the tolerance is a
// regression). Made from the runs' saved summaries: nothing is re-run.
#include "runsummary.h"
#include "savedreport.h"
#include "store/runlog.h"

#include <string>
#include <vector>

namespace stampede {

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

// The trend of `runs` (oldest first, at least one), `baseline` their index of the baseline.
Trend makeTrend(std::string scenario, std::vector<TrendRun> runs, std::size_t baseline, double tolerance);
// As a table, a run a line, its regressions named; the last line says what became of the newest run.
std::string trendToText(const Trend& trend);
// One HTML file: the table and the lines over runs (throughput, error rate, percentiles), the baseline marked.
std::string trendToHtml(const Trend& trend);

} // namespace stampede
