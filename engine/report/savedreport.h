#pragma once
// Reports from saved runs: the summary (thresholds evaluated again from the
// scenario as it ran), the exports (single-file HTML with inline SVG charts,
// JSON with the error samples, CSV per-second series, JUnit XML with one test case per threshold),
// and the comparison of a baseline with a candidate.
#include "junitreport.h"
#include "reportwords.h"
#include "runsummary.h"
#include "store/runlog.h"

#include <string>
#include <vector>

namespace stampede {

// A sampled response as text: control bytes other than tab and line breaks
// shown as '.', invalid UTF-8 as '?'.
std::string printableSample(const std::string& raw);
// An error sample's body as it reads: decoded from the Content-Encoding its head names (gzip, deflate, br), as it
// came when it names none or does not decode.
std::string decodedSampleBody(const ErrorSample& e);

RunSummary summarizeSaved(const SavedRun& run);

// Per-second rows: counters, errors by class (one column each), percentiles.
std::string exportCsv(const SavedRun& run);
// The summary JSON with the run's error samples added ("error_samples") and each step's sections
// (reportsections.h: distribution, APDEX at each one's T, percentiles over time, top errors).
std::string exportJson(const SavedRun& run, const RunSummary& summary, const ReportOptions& options = {});
// One HTML file, charts inline, offline: what the workbench's report shows, in `options.words`' language.
std::string exportHtml(const SavedRun& run, const RunSummary& summary, const ReportOptions& options = {});

struct CompareRow
{
    std::string scope;  // "total" or a step name
    std::string metric; // rate, error_rate, p50, p90, p95, p99, p999, max
    double baseline = 0;
    double candidate = 0;
    double change = 0;     // relative: +0.25 is 25 % more
    bool fromZero = false; // the baseline was 0 and the candidate is not: "new", no ratio
    bool regression = false;
    const char* unit = ""; // "/s", "%", "ms"
};

struct CompareResult
{
    std::vector<CompareRow> rows;
    bool regressed = false;
};

// A regression is a change for the worse (slower, more errors, less rate)
// beyond `tolerance` (0.10 for 10 %). Latency changes below 1 ms and error-rate
// changes below 0.1 percentage points are noise, never regressions.
CompareResult compareRuns(const RunSummary& baseline, const RunSummary& candidate, double tolerance);
std::string compareToText(const CompareResult& result, const RunSummary& baseline, const RunSummary& candidate);

} // namespace stampede
