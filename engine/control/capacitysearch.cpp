#include "capacitysearch.h"

#include "report/runsummary.h"
#include "run/runengine.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace stampede {

CapacitySearch::CapacitySearch(CapacityOptions options, std::vector<std::string> stepNames)
    : m_o(std::move(options)), m_steps(std::move(stepNames)), m_rate(m_o.start)
{
    for (const Threshold& t : m_o.slos)
        m_result.slos.push_back(t.expr);
}

std::string CapacitySearch::invalid(const CapacityOptions& o)
{
    if (!(o.start > 0) || o.start > kCapacityMaxRate)
        return "--start: must be above 0 and at most " + rateText(kCapacityMaxRate);
    if (!(o.max >= o.start) || o.max > kCapacityMaxRate)
        return "--max: must be at least --start and at most " + rateText(kCapacityMaxRate);
    if (o.max / o.start > kMaxLevelFactor)
        return "--max: at most " + rateText(kMaxLevelFactor) + " times --start";
    if (o.stepSeconds < kCapacityMinStepSeconds || o.stepSeconds > kCapacityMaxStepSeconds)
        return "--step-duration: must be between " + std::to_string(kCapacityMinStepSeconds) + " s and " +
               std::to_string(kCapacityMaxStepSeconds) + " s (the first second of a level is not judged)";
    if (o.slos.empty())
        return "--slo: give at least one (e.g. --slo 'p99 < 50ms')";
    if (!(o.growth >= kCapacityMinGrowth) || o.growth > kCapacityMaxGrowth)
        return "--growth: must be between 1.25 and 10";
    if (!(o.precision > 0) || o.precision >= 1)
        return "precision: must be above 0 and below 1";
    return {};
}

std::optional<double> CapacitySearch::onSecond(const IntervalMetrics& second,
                                               const std::map<std::string, double>& server)
{
    if (m_result.finished)
        return std::nullopt;
    ++m_levelSeconds;
    if (m_levelSeconds == 1) // the change-over second: partly the previous level
        return std::nullopt;
    if (!m_merged) {
        m_merged = second;
        m_firstJudged = second.second;
    } else
        m_merged->accumulate(second);
    for (const auto& [name, value] : server) {
        m_server[name].first += value;
        ++m_server[name].second;
    }
    if (m_levelSeconds < m_o.stepSeconds)
        return std::nullopt;
    CapacityLevel level = judge(m_firstJudged, second.second);
    m_result.levels.push_back(level);
    m_merged.reset();
    m_server.clear();
    m_levelSeconds = 0;
    std::optional<double> rate = next(level);
    if (rate)
        m_rate = *rate;
    return rate;
}

// The level's judged seconds, summarized as a run's are, against the SLOs.
CapacityLevel CapacitySearch::judge(std::uint32_t fromS, std::uint32_t toS) const
{
    const double seconds = double(toS - fromS + 1);
    RunSummary s;
    StepMetrics total;
    for (std::size_t i = 0; i < m_merged->steps.size(); ++i) {
        total.merge(m_merged->steps[i]);
        s.steps.push_back(summarizeMetrics(i < m_steps.size() ? m_steps[i] : "", m_merged->steps[i], seconds));
    }
    s.total = summarizeMetrics("total", total, seconds);
    for (const auto& step : s.steps)
        s.total.checks.insert(s.total.checks.end(), step.checks.begin(), step.checks.end());
    for (const auto& [name, sum] : m_server)
        s.total.server[name] = sum.first / double(sum.second);
    evaluateThresholds(s, m_o.slos);
    CapacityLevel l;
    l.rate = m_rate;
    l.achieved = s.total.rate;
    l.p99Ms = s.total.latency.p99;
    l.errorRatePct = s.total.errorRatePct();
    l.passed = s.passed;
    l.fromS = fromS;
    l.toS = toS;
    for (const ThresholdResult& r : s.thresholds)
        if (!r.passed && l.brokenBy.empty())
            l.brokenBy = r.expr;
    return l;
}

// Exponential steps up to the first failure, then geometric bisection.
std::optional<double> CapacitySearch::next(const CapacityLevel& level)
{
    if (level.passed)
        m_good = std::max(m_good, level.rate);
    else if (m_bad == 0 || level.rate < m_bad) {
        m_bad = level.rate;
        m_result.brokenBy = level.brokenBy;
        m_result.brokenAt = level.rate;
    }
    m_result.rate = m_good;
    if (!level.passed && m_good == 0) {
        conclude("the start rate " + rateText(level.rate) + " already broke " + level.brokenBy);
        return std::nullopt;
    }
    if (m_bad == 0 && m_good >= m_o.max) {
        conclude("the highest rate asked (--max " + rateText(m_o.max) + ") met every SLO");
        return std::nullopt;
    }
    if (m_bad > 0 && m_bad <= m_good * (1 + m_o.precision)) {
        conclude("the limit lies between " + rateText(m_good) + " and " + rateText(m_bad));
        return std::nullopt;
    }
    if (m_result.levels.size() >= m_o.maxLevels) {
        conclude("stopped after " + std::to_string(m_o.maxLevels) + " levels without narrowing further");
        return std::nullopt;
    }
    if (m_bad == 0)
        return std::min(m_good * m_o.growth, m_o.max);
    return std::sqrt(m_good * m_bad);
}

void CapacitySearch::conclude(const std::string& note)
{
    m_result.finished = true;
    m_result.note = note;
}

void shapeForCapacity(v1::Scenario& s, const CapacityOptions& o)
{
    v1::LoadProfile& load = *s.mutable_load();
    std::uint32_t backlog = load.has_open() ? load.open().backlog_limit() : 0;
    load.clear_stages();
    load.mutable_open()->set_rate(o.start);
    if (backlog)
        load.mutable_open()->set_backlog_limit(backlog);
    const std::int64_t seconds = std::int64_t(o.stepSeconds) * o.maxLevels + 2;
    s.mutable_duration()->set_seconds(seconds);
    s.mutable_duration()->set_nanos(0);
    s.clear_thresholds();
}

void CapacitySearch::interrupted(const std::string& why)
{
    if (!m_result.finished)
        m_result.note = why;
}

} // namespace stampede
