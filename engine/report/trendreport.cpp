#include "trendreport.h"

#include "junitreport.h"
#include "svgchart.h"

#include "store/projectstore.h"

#include <algorithm>
#include <cstdio>

namespace stampede {

namespace {

std::string fixed(double v, int decimals)
{
    return svgNumber(v, decimals);
}

// "total p99 +35 %", "login error_rate new"
std::string regressionText(const CompareRow& r)
{
    char change[32];
    std::snprintf(change, sizeof change, "%+.0f %%", r.change * 100);
    return r.scope + " " + r.metric + " " + (r.fromZero ? std::string("new") : std::string(change));
}

std::string verdictOf(const TrendRun& r)
{
    return r.info.verdict; // in the words of every report
}

} // namespace

std::string trendBaselineKey(const std::string& scenario)
{
    return "trend.baseline/" + scenario;
}

std::optional<Trend> loadTrend(ProjectStore& store, const TrendQuery& q, std::string& error)
{
    RunLog log(store);
    std::vector<RunInfo> runs;
    for (const RunInfo& info : log.runs())
        if (info.status == "completed")
            runs.push_back(info);
    std::string scenario = q.scenario;
    if (scenario.empty() && !runs.empty())
        scenario = runs.back().name; // the newest run's
    std::erase_if(runs, [&](const RunInfo& info) { return info.name != scenario; });
    if (runs.empty()) {
        error = "holds no completed run" + (scenario.empty() ? std::string() : " of scenario \"" + scenario + "\"");
        return std::nullopt;
    }
    if (runs.size() > q.last)
        runs.erase(runs.begin(), runs.end() - std::ptrdiff_t(q.last));
    const auto find = [&](const std::string& run) {
        return std::find_if(runs.begin(), runs.end(),
                            [&](const RunInfo& info) { return info.runId == run || std::to_string(info.id) == run; });
    };
    std::size_t baseline = 0;
    if (!q.baselineRun.empty()) {
        const auto it = find(q.baselineRun);
        if (it == runs.end()) {
            error = "--baseline: run " + q.baselineRun + " is not among the " + std::to_string(runs.size()) +
                    " runs listed";
            return std::nullopt;
        }
        baseline = std::size_t(it - runs.begin());
    } else if (const std::string marked = store.setting(trendBaselineKey(scenario)); !marked.empty()) {
        if (const auto it = find(marked); it != runs.end()) // marked, and still among those listed
            baseline = std::size_t(it - runs.begin());
    }
    std::vector<TrendRun> loaded;
    for (const RunInfo& info : runs) {
        auto saved = log.load(info.id);
        if (!saved) {
            error = log.error();
            return std::nullopt;
        }
        loaded.push_back({info, summarizeSaved(*saved), {}});
    }
    return makeTrend(scenario, std::move(loaded), baseline, q.tolerance);
}

Trend makeTrend(std::string scenario, std::vector<TrendRun> runs, std::size_t baseline, double tolerance)
{
    Trend t;
    t.scenario = std::move(scenario);
    t.runs = std::move(runs);
    t.baseline = baseline < t.runs.size() ? baseline : 0;
    t.tolerance = tolerance;
    for (std::size_t i = 0; i < t.runs.size(); ++i) {
        if (i == t.baseline)
            continue;
        for (const CompareRow& row : compareRuns(t.runs[t.baseline].summary, t.runs[i].summary, tolerance).rows)
            if (row.regression)
                t.runs[i].regressions.push_back(row);
    }
    return t;
}

std::string trendToText(const Trend& t)
{
    std::string out = "Trend of \"" + t.scenario + "\": " + std::to_string(t.runs.size()) + " run" +
                      (t.runs.size() == 1 ? "" : "s") + ", baseline " + t.runs[t.baseline].info.runId + ", tolerance " +
                      fixed(t.tolerance * 100, 0) + " %\n";
    char line[512];
    std::snprintf(line, sizeof line, "%-4s %-22s %-20s %10s %8s %9s %9s %9s  %s\n", "run", "id", "started", "rate/s",
                  "errors%", "p50 ms", "p95 ms", "p99 ms", "verdict");
    out += line;
    for (std::size_t i = 0; i < t.runs.size(); ++i) {
        const TrendRun& r = t.runs[i];
        const MetricsSummary& m = r.summary.total;
        std::snprintf(line, sizeof line, "%-4lld %-22s %-20s %10.1f %8.2f %9.2f %9.2f %9.2f  %s", (long long)r.info.id,
                      r.info.runId.c_str(), r.info.started.substr(0, 19).c_str(), m.rate, m.errorRatePct(),
                      m.latency.p50, m.latency.p95, m.latency.p99, verdictOf(r).c_str());
        out += line;
        if (i == t.baseline)
            out += "  (baseline)";
        if (!r.regressions.empty()) {
            out += "  REGRESSED:";
            for (std::size_t k = 0; k < r.regressions.size() && k < 6; ++k)
                out += (k ? ", " : " ") + regressionText(r.regressions[k]);
            if (r.regressions.size() > 6)
                out += ", " + std::to_string(r.regressions.size() - 6) + " more";
        }
        out += "\n";
    }
    if (t.runs.size() < 2 || t.baseline + 1 == t.runs.size())
        out += "the newest run is the baseline: nothing to compare it with\n";
    else
        out += t.newestRegressed() ? "the newest run REGRESSED against the baseline\n"
                                   : "the newest run holds against the baseline\n";
    return out;
}

std::string trendToHtml(const Trend& t)
{
    ChartSeries rate{{"rate/s", {}}}, errors{{"errors %", {}}}, latency{{"p50", {}}, {"p95", {}}, {"p99", {}}};
    std::vector<RunEvent> marks;
    for (std::size_t i = 0; i < t.runs.size(); ++i) {
        const double x = double(i + 1);
        const MetricsSummary& m = t.runs[i].summary.total;
        rate[0].second.emplace_back(x, m.rate);
        errors[0].second.emplace_back(x, m.errorRatePct());
        latency[0].second.emplace_back(x, m.latency.p50);
        latency[1].second.emplace_back(x, m.latency.p95);
        latency[2].second.emplace_back(x, m.latency.p99);
        RunEvent e;
        e.atS = x;
        if (i == t.baseline)
            e.kind = "baseline";
        else if (!t.runs[i].regressions.empty())
            e.kind = "regressed";
        else
            continue;
        e.detail = t.runs[i].info.runId;
        marks.push_back(e);
    }
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>" + escapeXml(t.scenario) +
        " · trend</title><style>"
        "body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:12px 0}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#f4f6f7}"
        "td:first-child,th:first-child{text-align:left}.pass{color:#1e8449}.fail{color:#c0392b}"
        "td{white-space:nowrap}td:last-child{white-space:normal;text-align:left;max-width:28em}"
        "tr.baseline{background:#eaf2f8}</style></head><body>\n";
    html += "<h1>" + escapeXml(t.scenario) + " · trend</h1>\n<p>" + std::to_string(t.runs.size()) +
            " runs, oldest first; baseline <code>" + escapeXml(t.runs[t.baseline].info.runId) + "</code>; tolerance " +
            fixed(t.tolerance * 100, 0) + " %. <span class=\"" +
            (t.newestRegressed() ? "fail\">The newest run regressed" : "pass\">The newest run holds") +
            "</span>.</p>\n";
    html += svgChart("Throughput", "requests/s", rate, marks, "run") + "\n";
    html += svgChart("Error rate", "%", errors, marks, "run") + "\n";
    html += svgChart("Latency", "ms", latency, marks, "run") + "\n";
    html += "<table><tr><th>run</th><th>id</th><th>started</th><th>rate/s</th><th>errors %</th><th>p50 ms</th>"
            "<th>p95 ms</th><th>p99 ms</th><th>verdict</th><th>against the baseline</th></tr>\n";
    for (std::size_t i = 0; i < t.runs.size(); ++i) {
        const TrendRun& r = t.runs[i];
        const MetricsSummary& m = r.summary.total;
        std::string against = i == t.baseline ? "baseline" : r.regressions.empty() ? "holds" : "";
        for (std::size_t k = 0; k < r.regressions.size(); ++k)
            against += (k ? ", " : "") + regressionText(r.regressions[k]);
        html += std::string("<tr") + (i == t.baseline ? " class=\"baseline\"" : "") + "><td>" +
                std::to_string(r.info.id) + "</td><td>" + escapeXml(r.info.runId) + "</td><td>" +
                escapeXml(r.info.started) + "</td><td>" + fixed(m.rate, 1) + "</td><td>" + fixed(m.errorRatePct(), 2) +
                "</td><td>" + fixed(m.latency.p50, 2) + "</td><td>" + fixed(m.latency.p95, 2) + "</td><td>" +
                fixed(m.latency.p99, 2) + "</td><td>" + escapeXml(verdictOf(r)) + "</td><td class=\"" +
                (r.regressions.empty() ? "pass" : "fail") + "\">" + escapeXml(against) + "</td></tr>\n";
    }
    return html + "</table>\n</body></html>\n";
}

} // namespace stampede
