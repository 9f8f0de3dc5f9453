#include "baseline.h"

#include "trendreport.h"

#include <cmath>
#include <cstdio>

namespace stampede {

namespace {

std::string shown(double v, const Threshold& t)
{
    char text[48];
    if (t.isFraction())
        std::snprintf(text, sizeof text, "%.4g %%", v * 100);
    else
        std::snprintf(text, sizeof text, "%.4g%s", v,
                      t.isLatency()                                                                       ? " ms"
                      : t.metric == Threshold::Metric::Rate || t.metric == Threshold::Metric::MessageRate ? "/s"
                                                                                                          : "");
    return text;
}

// The limit as the resolved expression writes it, in the threshold's own units: "47.52ms", "1234.5/s", "0.0012".
std::string written(double v, const Threshold& t)
{
    char text[48];
    std::snprintf(text, sizeof text, "%.10g", v);
    return std::string(text) + (t.isLatency() ? "ms"
                                : t.metric == Threshold::Metric::Rate || t.metric == Threshold::Metric::MessageRate
                                    ? "/s"
                                    : "");
}

} // namespace

bool thresholdFigure(const RunSummary& s, const Threshold& t, double& value)
{
    const MetricsSummary* m = namedMetrics(s, t.step);
    if (!m || m->requests == 0 || (t.isLatency() && m->answered == 0))
        return false;
    value = thresholdValue(t, *m);
    return std::isfinite(value);
}

bool resolveBaseline(Threshold& t, const std::vector<RunSummary>& history, const std::string& scenario,
                     std::string& error)
{
    const std::uint32_t wanted = t.baseline ? t.baseline->runs : 10;
    std::vector<double> figures;
    for (std::size_t i = history.size(); i-- > 0 && figures.size() < wanted;)
        if (double v = 0; thresholdFigure(history[i], t, v))
            figures.push_back(v);
    if (figures.size() < kMinBaselineRuns) {
        error = "threshold \"" + t.expr + "\": a baseline is made of at least " + std::to_string(kMinBaselineRuns) +
                " completed runs of \"" + scenario + "\" in its project that have this figure" +
                (t.step.empty() ? std::string() : " (step \"" + t.step + "\")") + "; it has " +
                std::to_string(figures.size());
        return false;
    }
    double mean = 0;
    for (double v : figures)
        mean += v;
    mean /= double(figures.size());
    double squares = 0;
    for (double v : figures)
        squares += (v - mean) * (v - mean);
    const double sigma = std::sqrt(squares / double(figures.size() - 1)); // the sample's
    const double k = t.baseline ? t.baseline->sigmas : 0;
    double limit = mean + k * sigma;
    if (t.isFraction())
        limit = std::clamp(limit, 0.0, 1.0);
    else
        limit = std::max(0.0, limit);
    char kText[32];
    std::snprintf(kText, sizeof kText, "%g", std::fabs(k));
    t.limit = limit;
    t.expr += " (= " + written(limit, t) + ": mean " + shown(mean, t) + (k < 0 ? " - " : " + ") + kText + " sigma of " +
              shown(sigma, t) + " over " + std::to_string(figures.size()) + " runs)";
    if (t.baseline)
        t.baseline->resolved = true;
    return true;
}

bool resolveBaselines(std::vector<Threshold*> thresholds, ProjectStore& store, const std::string& scenario,
                      std::string& error)
{
    std::uint32_t most = 0;
    for (const Threshold* t : thresholds)
        if (t->baseline && !t->baseline->resolved)
            most = std::max(most, t->baseline->runs);
    if (most == 0)
        return true;
    TrendQuery q;
    q.scenario = scenario;
    q.last = most;
    std::vector<RunSummary> history;
    std::string why;
    if (const auto trend = loadTrend(store, q, why))
        for (const TrendRun& r : trend->runs)
            history.push_back(r.summary);
    for (Threshold* t : thresholds)
        if (t->baseline && !t->baseline->resolved && !resolveBaseline(*t, history, scenario, error))
            return false;
    return true;
}

} // namespace stampede
