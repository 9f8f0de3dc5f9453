#include "breaker.h"

#include "core/durationtext.h"
#include "core/number.h"
#include "report/runsummary.h"

#include <algorithm>
#include <cstdio>

namespace stampede {

namespace {

std::string_view trim(std::string_view s)
{
    while (!s.empty() && s.front() == ' ')
        s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ')
        s.remove_suffix(1);
    return s;
}

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

// "3x5s": consecutive violations of a window of whole seconds.
bool parseFor(std::string_view text, BreakerRule& r, std::string& error)
{
    const std::size_t x = text.find('x');
    if (x == std::string_view::npos) {
        error = "\"" + std::string(text) + "\": write how many windows of how long, e.g. 3x5s";
        return false;
    }
    std::uint64_t n = 0;
    if (!parseWhole(trim(text.substr(0, x)), "consecutive violations", 1, BreakerRule::kMaxConsecutive, n, error))
        return false;
    const auto w = parseDuration(trim(text.substr(x + 1)));
    if (!w || *w < kNanosPerSecond || *w % kNanosPerSecond != 0 ||
        *w > Nanos(BreakerRule::kMaxWindow) * kNanosPerSecond) {
        error = "\"" + std::string(trim(text.substr(x + 1))) + "\": a window is whole seconds, from 1s to " +
                std::to_string(BreakerRule::kMaxWindow) + "s";
        return false;
    }
    r.consecutive = std::uint32_t(n);
    r.window = std::uint32_t(*w / kNanosPerSecond);
    return true;
}

bool parseAction(std::string_view text, BreakerRule& r, std::string& error)
{
    if (text == "warn" || text == "stop") {
        r.action = text == "warn" ? BreakerRule::Action::Warn : BreakerRule::Action::Stop;
        return true;
    }
    if (text.substr(0, 8) == "degrade ") {
        std::string_view pct = trim(text.substr(8));
        if (!pct.empty() && pct.back() == '%')
            pct.remove_suffix(1);
        r.action = BreakerRule::Action::Degrade;
        return parseDecimal(trim(pct), "degrade", 1, 90, r.degradePercent, error);
    }
    error = "\"" + std::string(text) + "\": the action is warn, degrade N% or stop";
    return false;
}

} // namespace

std::string BreakerRule::text() const
{
    const std::string action = this->action == Action::Warn   ? "warn"
                               : this->action == Action::Stop ? "stop"
                                                              : "degrade " + number(degradePercent) + "%";
    return when.expr + " for " + std::to_string(consecutive) + "x" + std::to_string(window) + "s: " + action;
}

std::optional<BreakerRule> BreakerRule::parse(const std::string& text, std::string& error)
{
    const std::string_view all = trim(text);
    const std::size_t colon = all.rfind(':');
    if (colon == std::string_view::npos) {
        error =
            "\"" + std::string(all) + "\": expected CONDITION for NxWs: ACTION, e.g. \"p99 > 300ms for 3x5s: stop\"";
        return std::nullopt;
    }
    BreakerRule r;
    std::string_view cond = trim(all.substr(0, colon));
    if (const std::size_t f = cond.rfind(" for "); f != std::string_view::npos) {
        if (!parseFor(trim(cond.substr(f + 5)), r, error))
            return std::nullopt;
        cond = trim(cond.substr(0, f));
    }
    if (!parseAction(trim(all.substr(colon + 1)), r, error))
        return std::nullopt;
    auto t = Threshold::parse(cond, error);
    if (!t)
        return std::nullopt;
    r.when = *t;
    r.name = std::string(cond);
    return r;
}

Breaker::Breaker(std::vector<BreakerRule> rules, std::vector<std::string> stepNames)
    : m_rules(std::move(rules)), m_steps(std::move(stepNames)), m_state(m_rules.size())
{
    for (const auto& r : m_rules)
        m_longest = std::max(m_longest, r.window);
}

std::optional<std::string> Breaker::unknownStep(const std::vector<BreakerRule>& rules,
                                                const std::vector<std::string>& stepNames)
{
    for (const auto& r : rules)
        if (!r.when.step.empty() && std::find(stepNames.begin(), stepNames.end(), r.when.step) == stepNames.end())
            return r.when.step;
    return std::nullopt;
}

// The rule's metric over its window: the window's seconds merged exactly
// (counters added, histograms merged), for its step or the total.
double Breaker::windowValue(const BreakerRule& r, bool& noData) const
{
    const std::size_t n = std::min<std::size_t>(r.window, m_window.size());
    StepMetrics merged;
    const auto step = std::find(m_steps.begin(), m_steps.end(), r.when.step);
    for (std::size_t i = m_window.size() - n; i < m_window.size(); ++i) {
        const IntervalMetrics& s = m_window[i];
        if (r.when.step.empty())
            merged.merge(s.total());
        else if (std::size_t k = std::size_t(step - m_steps.begin()); k < s.steps.size())
            merged.merge(s.steps[k]);
    }
    MetricsSummary m = summarizeMetrics("window", merged, double(n));
    if (r.when.metric == Threshold::Metric::Checks) {
        for (std::size_t i = m_window.size() - n; i < m_window.size(); ++i)
            for (std::size_t k = 0; k < m_window[i].steps.size(); ++k) {
                if (!r.when.step.empty() && m_steps[k] != r.when.step)
                    continue;
                for (const CheckCount& c : m_window[i].steps[k].checks)
                    m.checks.push_back({"", c.passed, c.failed});
            }
    }
    noData = m.requests == 0 || (r.when.isLatency() && m.answered == 0) ||
             (r.when.metric == Threshold::Metric::Checks && m.checkPassRate() < 0);
    return thresholdValue(r.when, m);
}

std::vector<BreakerTrip> Breaker::onSecond(const IntervalMetrics& second)
{
    m_window.push_back(second);
    m_window.back().samples.clear();
    while (m_window.size() > m_longest)
        m_window.pop_front();
    std::vector<BreakerTrip> trips;
    for (std::size_t i = 0; i < m_rules.size(); ++i) {
        const BreakerRule& r = m_rules[i];
        bool noData = false;
        const double value = windowValue(r, noData);
        if (noData)
            continue; // nothing to judge: neither a violation nor a pause in one
        if (!r.when.holds(value)) {
            m_state[i].inARow = 0;
            continue;
        }
        if (++m_state[i].inARow < r.consecutive)
            continue;
        m_state[i].inARow = 0; // a further trip takes as many violations again
        BreakerTrip t;
        t.rule = &r;
        t.value = value;
        if (r.action == BreakerRule::Action::Degrade)
            m_factor = std::max(kMinFactor, m_factor * (1 - r.degradePercent / 100));
        t.factor = m_factor;
        const std::string shown = r.when.isFraction()  ? number(value * 100) + "%"
                                  : r.when.isLatency() ? number(value) + " ms"
                                                       : number(value);
        t.detail =
            "rule \"" + r.name + "\" (" + r.text() + "): " + shown + " over the last " +
            std::to_string(std::min<std::size_t>(r.window, m_window.size())) + " s, " + std::to_string(r.consecutive) +
            " time(s) in a row; " +
            (r.action == BreakerRule::Action::Warn   ? std::string("warned")
             : r.action == BreakerRule::Action::Stop ? std::string("the run stops")
                                                     : "the load goes to " + number(m_factor * 100) + "% of plan");
        trips.push_back(std::move(t));
    }
    return trips;
}

} // namespace stampede
