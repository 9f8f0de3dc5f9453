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

std::vector<StepSection> reportSections(const SavedRun& run, const RunSummary& summary, double apdexTMs)
{
    std::vector<StepSection> out;
    for (std::size_t i = 0; i < run.stepNames.size(); ++i) {
        StepSection s;
        s.name = run.stepNames[i];
        if (i < run.total.steps.size()) {
            distributionOf(run.total.steps[i].latency, s);
            apdexOf(run.total.steps[i].latency, apdexTMs, s);
        } else {
            s.apdexTMs = apdexTMs;
        }
        for (const SecondRow& r : run.rows)
            if (r.step == int(i) && r.agent.empty() && r.counters.requests > r.counters.errors)
                s.overTime.push_back({r.second, r.p50Ms, r.p90Ms, r.p99Ms, r.maxMs, r.counters.requests});
        if (i < summary.steps.size())
            for (std::size_t c = 0; c < kErrorClassCount; ++c)
                if (const std::uint64_t n = summary.steps[i].errorsByClass[c]) {
                    StepSection::TopError e{std::string(errorClassName(ErrorClass(c))), n, {}};
                    for (const ErrorSample& sample : run.samples)
                        if (sample.step == i && sample.errorClass == ErrorClass(c)) {
                            e.sample = sampleText(sample);
                            break;
                        }
                    s.topErrors.push_back(std::move(e));
                }
        std::stable_sort(s.topErrors.begin(), s.topErrors.end(),
                         [](const auto& a, const auto& b) { return a.count > b.count; });
        out.push_back(std::move(s));
    }
    return out;
}

std::string sectionsJson(const std::vector<StepSection>& sections)
{
    std::string out = "\"sections\": [";
    for (std::size_t i = 0; i < sections.size(); ++i) {
        const StepSection& s = sections[i];
        out += (i ? ",\n    " : "\n    ");
        out += "{\"step\": " + jsonString(s.name) + ", \"apdex\": {\"t_ms\": " + jsonNumber(s.apdexTMs) +
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

std::string sectionsHtml(const std::vector<StepSection>& sections)
{
    std::string html;
    for (const StepSection& s : sections) {
        html += "<h2>Step " + escapeXml(s.name) + "</h2>\n<p>APDEX (T " + fixed(s.apdexTMs, 0) + " ms): <b>" +
                (s.apdex < 0 ? std::string("-") : fixed(s.apdex, 2)) + "</b> · satisfied " +
                std::to_string(s.satisfied) + " · tolerating " + std::to_string(s.tolerating) + " · frustrated " +
                std::to_string(s.frustrated) + "</p>\n";
        if (!s.distribution.empty()) {
            std::vector<std::pair<std::string, double>> bars;
            for (const auto& b : s.distribution)
                bars.emplace_back("≤ " + fixed(b.toMs, b.toMs < 1 ? 1 : 0) + " ms", double(b.count));
            html += svgBars("Latency distribution", "requests", bars) + "\n";
        }
        if (!s.overTime.empty()) {
            ChartSeries lines{{"p50", {}}, {"p90", {}}, {"p99", {}}, {"max", {}}};
            for (const auto& t : s.overTime) {
                lines[0].second.emplace_back(t.second, t.p50);
                lines[1].second.emplace_back(t.second, t.p90);
                lines[2].second.emplace_back(t.second, t.p99);
                lines[3].second.emplace_back(t.second, t.max);
            }
            html += svgChart("Percentiles over time", "ms", lines) + "\n";
            std::vector<std::pair<double, double>> against; // each second: its throughput, its p99
            for (const auto& t : s.overTime)
                against.emplace_back(double(t.requests), t.p99);
            html += svgDots("p99 against throughput (a dot a second)", "ms", "requests/s", against) + "\n";
        }
        if (s.topErrors.empty())
            continue;
        html += "<table><tr><th>error</th><th>count</th><th>a sample</th></tr>\n";
        for (const auto& e : s.topErrors)
            html += "<tr><td>" + escapeXml(e.errorClass) + "</td><td>" + std::to_string(e.count) +
                    "</td><td style=\"text-align:left\"><pre>" + escapeXml(e.sample) + "</pre></td></tr>\n";
        html += "</table>\n";
    }
    return html;
}

} // namespace stampede
