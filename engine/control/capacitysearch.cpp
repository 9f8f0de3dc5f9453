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
    if (m_settling)
        return settle(second, server);
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
    return endLevel(second);
}

namespace {

std::string levelText(const CapacityLevel& l)
{
    char text[160];
    std::snprintf(text, sizeof text, "%.6g/s: p99 %.2f ms, errors %.2f %%, ", l.rate, l.p99Ms, l.errorRatePct);
    return text + (l.passed ? std::string("met every SLO") : "broke " + l.brokenBy);
}

std::uint64_t lateOf(const IntervalMetrics& m)
{
    std::uint64_t late = 0;
    for (const StepMetrics& st : m.steps)
        late += st.counters.late;
    return late;
}

// The engines themselves sent late: a send lag p99 over 10 ms while fewer
// than 1 % of the arrivals waited for a connection. Some sends then lagged
// though a connection was free: a generator stalled or short of CPU (a busy
// machine), not the target. Its p99 in ms; 0 when the engines kept up.
double generatorLagMs(const IntervalMetrics& m)
{
    LatencyHistogram lag;
    std::uint64_t sent = 0;
    for (const StepMetrics& st : m.steps) {
        lag.merge(st.sendLag);
        sent += st.counters.sent;
    }
    const double p99Ms = lag.count() ? double(lag.percentile(99)) / 1000.0 : 0;
    return p99Ms > kGeneratorLagMs && lateOf(m) * 100 < sent ? p99Ms : 0;
}

std::map<std::string, double> means(const std::map<std::string, std::pair<double, std::uint32_t>>& sums)
{
    std::map<std::string, double> out;
    for (const auto& [name, sum] : sums)
        out[name] = sum.first / double(sum.second);
    return out;
}

} // namespace

// A level's last second: judged (or, when it was draining, run again after
// settling), then the next rate.
std::optional<double> CapacitySearch::endLevel(const IntervalMetrics& last)
{
    CapacityLevel level = judge(*m_merged, m_firstJudged, last.second, means(m_server));
    const double seconds = double(last.second - m_firstJudged + 1);
    m_levelLate = double(lateOf(*m_merged)) / seconds;
    const std::uint32_t inFlight = m_merged->activeUsers; // the peak over the level
    const double lagMs = generatorLagMs(*m_merged);
    m_merged.reset();
    m_server.clear();
    m_levelSeconds = 0;
    if (!level.passed && draining(level) && m_reruns < 2) {
        ++m_reruns;
        m_events.push_back({"capacity_draining", levelText(level) + "; not judged: it completed more than it " +
                                                     "offered while arrivals waited (a backlog draining)"});
        return startSettling(m_rate);
    }
    if (!level.passed && lagMs > 0 && m_reruns < 2) { // the same rate again, from its change-over second
        ++m_reruns;
        char text[160];
        std::snprintf(text, sizeof text,
                      "; not judged: the engines sent late (send lag p99 %.1f ms) with connections free", lagMs);
        m_events.push_back({"capacity_generator", levelText(level) + text});
        return std::nullopt;
    }
    m_reruns = 0;
    m_result.levels.push_back(level);
    m_events.push_back({"capacity_level", levelText(level)});
    if (level.passed) {
        m_goodInFlight = std::max(m_goodInFlight, inFlight);
        m_goodLate = std::max(m_goodLate, m_levelLate);
    }
    const std::optional<double> rate = next(level);
    if (!rate)
        return std::nullopt;
    if (!level.passed)
        return startSettling(*rate);
    m_rate = *rate;
    return rate;
}

std::uint32_t settleSeconds(const CapacityOptions& o)
{
    return std::clamp<std::uint32_t>(3 * o.stepSeconds, 30, 300);
}

std::optional<double> CapacitySearch::startSettling(double then)
{
    m_settling = true;
    m_settleSeconds = 0;
    m_then = then;
    m_rate = m_good > 0 ? m_good / 2 : m_rate / 4;
    return m_rate;
}

// A settling second: drained when its backlog is back to the last good
// level's and it meets every SLO on its own.
std::optional<double> CapacitySearch::settle(const IntervalMetrics& second, const std::map<std::string, double>& server)
{
    ++m_settleSeconds;
    if (m_settleSeconds == 1) // the change-over
        return std::nullopt;
    const bool slos = judge(second, second.second, second.second, server).passed;
    const bool backlog = second.activeUsers <= std::max(m_goodInFlight + 2, m_goodInFlight * 3 / 2) &&
                         double(lateOf(second)) <= m_goodLate * 1.5 + 1;
    const std::uint32_t limit = settleSeconds(m_o);
    if (!(slos && backlog) && m_settleSeconds < limit)
        return std::nullopt;
    char text[200];
    if (slos && backlog)
        std::snprintf(text, sizeof text, "the target drained in %u s at %.6g/s; next level %.6g/s", m_settleSeconds,
                      m_rate, m_then);
    else
        std::snprintf(text, sizeof text,
                      "the target did not drain within %u s at %.6g/s (%s); next level %.6g/s all the same", limit,
                      m_rate, backlog ? "an SLO still broken" : "arrivals still waiting", m_then);
    m_events.push_back({"capacity_settle", text});
    m_settling = false;
    m_rate = m_then;
    return m_rate;
}

// Completions above what the level offered, with arrivals waiting: the
// engines were still working off an earlier backlog.
bool CapacitySearch::draining(const CapacityLevel& level) const
{
    const double offered = level.rate * double(std::max<std::size_t>(1, m_steps.size()));
    return m_levelLate > 0 && level.achieved > offered * 1.05 + 1;
}

// The seconds fromS..toS merged, summarized as a run's are, against the SLOs.
CapacityLevel CapacitySearch::judge(const IntervalMetrics& merged, std::uint32_t fromS, std::uint32_t toS,
                                    const std::map<std::string, double>& server) const
{
    const double seconds = double(toS - fromS + 1);
    RunSummary s;
    StepMetrics total;
    for (std::size_t i = 0; i < merged.steps.size(); ++i) {
        total.merge(merged.steps[i]);
        s.steps.push_back(summarizeMetrics(i < m_steps.size() ? m_steps[i] : "", merged.steps[i], seconds));
    }
    s.total = summarizeMetrics("total", total, seconds);
    for (const auto& step : s.steps)
        s.total.checks.insert(s.total.checks.end(), step.checks.begin(), step.checks.end());
    s.total.server = server;
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

// Exponential steps up to the first failure, then geometric bisection, at
// most x2 past the last good rate.
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
    return std::min(std::sqrt(m_good * m_bad), 2 * m_good);
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
    // each level may be followed by settling (and a draining level runs again)
    const std::int64_t seconds = std::int64_t(o.stepSeconds + settleSeconds(o)) * o.maxLevels * 2 + 2;
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
