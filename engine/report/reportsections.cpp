#include "reportsections.h"

#include "junitreport.h"
#include "savedreport.h"
#include "svgchart.h"

#include "core/text.h"

#include <algorithm>
#include <cmath>

namespace stampede {

namespace {

// The bounds of a 1-2-5 scale (ms) from the first at or above `fromMs` (the first bucket holds the fastest) to
// the first at or above `toMs`.
std::vector<double> scaleBounds(double fromMs, double toMs)
{
    std::vector<double> out;
    for (double decade = 0.001; decade < 1e7 && (out.empty() || out.back() < toMs); decade *= 10)
        for (double m : {1.0, 2.0, 5.0}) {
            const double b = m * decade;
            if (b < fromMs)
                continue;
            out.push_back(b);
            if (b >= toMs)
                break;
        }
    return out;
}

std::uint64_t micros(double ms)
{
    return std::uint64_t(std::llround(ms * 1000));
}

void distributionOf(const LatencyHistogram& h, StepSection& s)
{
    if (!h.count())
        return;
    const std::vector<double> bounds = scaleBounds(double(h.min()) / 1000, double(h.max()) / 1000);
    std::vector<std::uint64_t> us, counts;
    for (double b : bounds)
        us.push_back(micros(b));
    h.countsAtOrBelow(us, counts);
    std::uint64_t before = 0;
    for (std::size_t i = 0; i < bounds.size(); ++i) {
        s.distribution.push_back({i ? bounds[i - 1] : 0.0, bounds[i], counts[i] - before});
        before = counts[i];
    }
    if (before < h.count()) // (the histogram's own resolution at the top)
        s.distribution.back().count += h.count() - before;
}

void apdexOf(const LatencyHistogram& h, double tMs, StepSection& s)
{
    s.apdexTMs = tMs;
    if (!h.count())
        return;
    std::vector<std::uint64_t> counts;
    h.countsAtOrBelow({micros(tMs), micros(4 * tMs)}, counts);
    s.satisfied = counts[0];
    s.tolerating = counts[1] - counts[0];
    s.frustrated = h.count() - counts[1];
    s.apdex = (double(s.satisfied) + double(s.tolerating) / 2) / double(h.count());
}

std::string sampleText(const ErrorSample& e)
{
    std::string text = printableSample(e.detail.empty() ? e.head + "\n\n" + decodedSampleBody(e)
                                                        : e.detail + (e.head.empty() ? "" : "\n\n" + e.head));
    if (text.size() > 600) {
        std::size_t cut = 600;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xc0) == 0x80)
            --cut; // not inside a character
        text = text.substr(0, cut) + "…";
    }
    return text;
}

std::string fixed(double v, int decimals = 3)
{
    return svgNumber(v, decimals);
}

} // namespace

namespace {

// One section from its whole-run histogram, its seconds, its errors by class and which samples are its.
template <typename IsOwnSample>
StepSection sectionOf(StepSection::Kind kind, const std::string& name, const LatencyHistogram* latency,
                      const std::vector<SecondRow>& rows, int index, const MetricsSummary* figures, const SavedRun& run,
                      double apdexTMs, IsOwnSample isOwn)
{
    StepSection s;
    s.kind = kind;
    s.name = name;
    s.apdexTMs = apdexTMs;
    if (latency) {
        distributionOf(*latency, s);
        apdexOf(*latency, apdexTMs, s);
        // a request that failed without an answer (refused, reset, timed out) was not timed: it frustrated
        if (figures && figures->requests > latency->count()) {
            s.frustrated += figures->requests - latency->count();
            s.apdex = (double(s.satisfied) + double(s.tolerating) / 2) / double(figures->requests);
        }
    }
    for (const SecondRow& r : rows)
        if (r.step == index && r.agent.empty() && r.counters.requests > r.counters.errors)
            s.overTime.push_back({r.second, r.p50Ms, r.p90Ms, r.p99Ms, r.maxMs, r.counters.requests});
    if (figures)
        for (std::size_t c = 0; c < kErrorClassCount; ++c)
            if (const std::uint64_t n = figures->errorsByClass[c]) {
                StepSection::TopError e{std::string(errorClassName(ErrorClass(c))), n, {}};
                for (const ErrorSample& sample : run.samples)
                    if (isOwn(sample.step) && sample.errorClass == ErrorClass(c)) {
                        e.sample = sampleText(sample);
                        break;
                    }
                s.topErrors.push_back(std::move(e));
            }
    std::stable_sort(s.topErrors.begin(), s.topErrors.end(),
                     [](const auto& a, const auto& b) { return a.count > b.count; });
    return s;
}

} // namespace

const char* sectionKindName(StepSection::Kind kind)
{
    return kind == StepSection::Kind::Group      ? "group"
           : kind == StepSection::Kind::Scenario ? "scenario"
           : kind == StepSection::Kind::Run      ? "run"
                                                 : "step";
}

StepSection runSection(const SavedRun& run, const RunSummary& summary, const ReportOptions& options)
{
    return reportSection(run, summary, options, StepSection::Kind::Run, 0);
}

StepSection reportSection(const SavedRun& run, const RunSummary& summary, const ReportOptions& options,
                          StepSection::Kind kind, std::size_t i)
{
    switch (kind) {
    case StepSection::Kind::Run: {
        LatencyHistogram merged; // the steps' histograms merged exactly
        for (const StepMetrics& m : run.total.steps)
            merged.merge(m.latency);
        return sectionOf(kind, "total", &merged, run.rows, -1, &summary.total, run, options.apdexTMs,
                         [](std::size_t) { return true; });
    }
    case StepSection::Kind::Step:
        return sectionOf(kind, run.stepNames[i], i < run.total.steps.size() ? &run.total.steps[i].latency : nullptr,
                         run.rows, int(i), i < summary.steps.size() ? &summary.steps[i] : nullptr, run,
                         options.apdexTFor(run.stepNames[i]), [i](std::size_t step) { return step == i; });
    case StepSection::Kind::Group: // its samples are not told apart from its steps' others: counted, not sampled
        return sectionOf(kind, run.groupNames[i], i < run.total.groups.size() ? &run.total.groups[i].latency : nullptr,
                         run.groupRows, int(i), i < summary.groups.size() ? &summary.groups[i] : nullptr, run,
                         options.apdexTFor(run.groupNames[i]), [](std::size_t) { return false; });
    case StepSection::Kind::Scenario: {
        const RunScenario& sc = run.scenarios[i];
        LatencyHistogram merged; // its steps' histograms merged exactly
        for (std::uint32_t k = sc.firstStep; k < sc.firstStep + sc.steps && k < run.total.steps.size(); ++k)
            merged.merge(run.total.steps[k].latency);
        const MetricsSummary* figures = nullptr;
        for (const MetricsSummary& m : summary.scenarios)
            if (m.name == sc.name)
                figures = &m;
        return sectionOf(kind, sc.name, &merged, run.scenarioRows, int(i), figures, run, options.apdexTFor(sc.name),
                         [&sc](std::size_t step) { return step >= sc.firstStep && step < sc.firstStep + sc.steps; });
    }
    }
    return {};
}

std::vector<StepSection> reportSections(const SavedRun& run, const RunSummary& summary, const ReportOptions& options)
{
    std::vector<StepSection> out;
    if (run.stepNames.size() > 1)
        out.push_back(runSection(run, summary, options));
    for (std::size_t i = 0; i < run.stepNames.size(); ++i)
        out.push_back(reportSection(run, summary, options, StepSection::Kind::Step, i));
    for (std::size_t g = 0; g < run.groupNames.size(); ++g)
        out.push_back(reportSection(run, summary, options, StepSection::Kind::Group, g));
    for (std::size_t k = 0; k < run.scenarios.size(); ++k)
        out.push_back(reportSection(run, summary, options, StepSection::Kind::Scenario, k));
    return out;
}

std::string sectionsJson(const std::vector<StepSection>& sections)
{
    std::string out = "\"sections\": [";
    for (std::size_t i = 0; i < sections.size(); ++i) {
        const StepSection& s = sections[i];
        out += (i ? ",\n    " : "\n    ");
        out += "{\"" + std::string(sectionKindName(s.kind)) + "\": " + jsonString(s.name) +
               ", \"apdex\": {\"t_ms\": " + jsonNumber(s.apdexTMs) +
               ", \"score\": " + (s.apdex < 0 ? std::string("null") : jsonNumber(std::round(s.apdex * 1e4) / 1e4)) +
               ", \"satisfied\": " + std::to_string(s.satisfied) + ", \"tolerating\": " + std::to_string(s.tolerating) +
               ", \"frustrated\": " + std::to_string(s.frustrated) + "},\n     \"distribution\": [";
        for (std::size_t k = 0; k < s.distribution.size(); ++k)
            out += (k ? ", " : "") + std::string("{\"from_ms\": ") + jsonNumber(s.distribution[k].fromMs) +
                   ", \"to_ms\": " + jsonNumber(s.distribution[k].toMs) +
                   ", \"count\": " + std::to_string(s.distribution[k].count) + "}";
        out += "],\n     \"over_time\": [";
        for (std::size_t k = 0; k < s.overTime.size(); ++k) {
            const auto& t = s.overTime[k];
            out += (k ? ", " : "") + std::string("{\"second\": ") + std::to_string(t.second) +
                   ", \"p50_ms\": " + jsonNumber(t.p50) + ", \"p90_ms\": " + jsonNumber(t.p90) +
                   ", \"p99_ms\": " + jsonNumber(t.p99) + ", \"max_ms\": " + jsonNumber(t.max) +
                   ", \"requests\": " + std::to_string(t.requests) + "}";
        }
        out += "],\n     \"top_errors\": [";
        for (std::size_t k = 0; k < s.topErrors.size(); ++k)
            out += (k ? ", " : "") + std::string("{\"class\": ") + jsonString(s.topErrors[k].errorClass) +
                   ", \"count\": " + std::to_string(s.topErrors[k].count) +
                   ", \"sample\": " + jsonString(s.topErrors[k].sample) + "}";
        out += "]}";
    }
    return out + "]";
}

std::string sectionsHtml(const std::vector<StepSection>& sections, const ReportWords& w)
{
    std::string html;
    for (const StepSection& s : sections) {
        const char* kind = s.kind == StepSection::Kind::Group      ? "Group"
                           : s.kind == StepSection::Kind::Scenario ? "Scenario"
                           : s.kind == StepSection::Kind::Run      ? "All steps"
                                                                   : "Step";
        html += "<h2>" + w(kind) + (s.kind == StepSection::Kind::Run ? "" : " " + escapeXml(s.name)) +
                "</h2>\n<p>APDEX (T " + fixed(s.apdexTMs, s.apdexTMs < 10 ? 1 : 0) + " ms): <b>" +
                (s.apdex < 0 ? std::string("-") : fixed(s.apdex, 2)) + "</b> · " + w("satisfied") + " " +
                std::to_string(s.satisfied) + " · " + w("tolerating") + " " + std::to_string(s.tolerating) + " · " +
                w("frustrated") + " " + std::to_string(s.frustrated) + "</p>\n";
        if (!s.distribution.empty()) {
            std::vector<std::pair<std::string, double>> bars;
            for (const auto& b : s.distribution)
                bars.emplace_back(b.toMs < 1       ? "≤ " + fixed(b.toMs * 1000, 0) + " µs"
                                  : b.toMs < 10000 ? "≤ " + fixed(b.toMs, 0) + " ms"
                                                   : "≤ " + fixed(b.toMs / 1000, 0) + " s",
                                  double(b.count)); // as the workbench's distribution labels them
            html += svgBars(w("Latency distribution"), w("requests"), bars) + "\n";
        }
        if (!s.overTime.empty()) {
            ChartSeries lines{{"p50", {}}, {"p90", {}}, {"p99", {}}, {w("max"), {}}};
            for (const auto& t : s.overTime) {
                lines[0].second.emplace_back(t.second, t.p50);
                lines[1].second.emplace_back(t.second, t.p90);
                lines[2].second.emplace_back(t.second, t.p99);
                lines[3].second.emplace_back(t.second, t.max);
            }
            html += svgChart(w("Percentiles over time"), "ms", lines, {}, "s", w("seconds")) + "\n";
            std::vector<std::pair<double, double>> against; // each second: its throughput, its p99
            for (const auto& t : s.overTime)
                against.emplace_back(double(t.requests), t.p99);
            html += svgDots(w("p99 against throughput (a dot a second)"), "ms", w("requests/s"), against) + "\n";
        }
        if (s.topErrors.empty())
            continue;
        html +=
            "<table><tr><th>" + w("error") + "</th><th>" + w("count") + "</th><th>" + w("a sample") + "</th></tr>\n";
        for (const auto& e : s.topErrors)
            html += "<tr><td>" + escapeXml(e.errorClass) + "</td><td>" + std::to_string(e.count) +
                    "</td><td style=\"text-align:left\"><pre>" + escapeXml(e.sample) + "</pre></td></tr>\n";
        html += "</table>\n";
    }
    return html;
}

} // namespace stampede
