#include "breaker.h"

#include "report/runsummary.h"

#include <algorithm>
#include <cstdio>

namespace stampede {

namespace {

std::string number(double v)
{
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.4g", v);
    return buf;
}

} // namespace

namespace {
std::vector<MeasuredName> stepScopes(const std::vector<std::string>& names)
{
    std::vector<MeasuredName> out;
    for (std::size_t i = 0; i < names.size(); ++i)
        out.push_back({names[i], MeasuredName::Kind::Step, std::uint32_t(i), 1});
    return out;
}
} // namespace

Breaker::Breaker(std::vector<BreakerRule> rules, std::vector<std::string> stepNames, std::uint32_t cooldownSeconds,
                 bool recover)
    : Breaker(std::move(rules), stepScopes(stepNames), cooldownSeconds, recover)
{
}

Breaker::Breaker(std::vector<BreakerRule> rules, std::vector<MeasuredName> scopes, std::uint32_t cooldownSeconds,
                 bool recover)
    : m_rules(std::move(rules)), m_scopes(std::move(scopes)), m_state(m_rules.size()),
      m_cooldown(std::max(1u, cooldownSeconds)), m_recover(recover)
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
    if (r.when.metric == Threshold::Metric::Server) {
        double sum = 0;
        std::size_t readings = 0;
        for (std::size_t i = m_server.size() - n; i < m_server.size(); ++i)
            if (const auto it = m_server[i].find(r.when.server); it != m_server[i].end()) {
                sum += it->second;
                ++readings;
            }
        noData = readings == 0;
        return readings ? sum / double(readings) : 0;
    }
    if (r.when.metric == Threshold::Metric::AgentCpu) { // the busiest agent's, second by second
        double sum = 0;
        std::size_t known = 0;
        for (std::size_t i = m_window.size() - n; i < m_window.size(); ++i)
            if (m_window[i].health.known()) {
                sum += m_window[i].health.cpu;
                ++known;
            }
        noData = known == 0;
        return known ? sum / double(known) : 0;
    }
    const auto scope =
        std::find_if(m_scopes.begin(), m_scopes.end(), [&](const MeasuredName& m) { return m.name == r.when.step; });
    const bool whole = r.when.step.empty() || scope == m_scopes.end();
    // the steps (or the group) a rule's scope stands for, in one second
    const auto eachOf = [&](const IntervalMetrics& s, const auto& take) {
        if (whole) {
            for (const StepMetrics& st : s.steps)
                take(st);
        } else if (scope->kind == MeasuredName::Kind::Group) {
            if (scope->index < s.groups.size())
                take(s.groups[scope->index]);
        } else {
            for (std::uint32_t k = scope->index; k < scope->index + scope->count && k < s.steps.size(); ++k)
                take(s.steps[k]);
        }
    };
    StepMetrics merged;
    for (std::size_t i = m_window.size() - n; i < m_window.size(); ++i)
        eachOf(m_window[i], [&](const StepMetrics& st) { merged.merge(st); });
    merged.checks.clear(); // checks are a step's own: their indices mean nothing across steps
    MetricsSummary m = summarizeMetrics("window", merged, double(n));
    if (r.when.metric == Threshold::Metric::Checks)
        for (std::size_t i = m_window.size() - n; i < m_window.size(); ++i) {
            const IntervalMetrics& second = m_window[i];
            for (std::size_t k = 0; k < second.steps.size(); ++k) {
                const bool inScope = whole || (scope->kind != MeasuredName::Kind::Group && k >= scope->index &&
                                               k < scope->index + scope->count);
                if (!inScope)
                    continue;
                const std::vector<CheckCount>& checks = second.steps[k].checks;
                for (std::size_t c = 0; c < checks.size(); ++c) // named as the run's summary names them
                    m.checks.push_back({k < m_checkNames.size() && c < m_checkNames[k].size() ? m_checkNames[k][c] : "",
                                        checks[c].passed,
                                        checks[c].failed,
                                        {}});
            }
        }
    const bool messages =
        r.when.metric == Threshold::Metric::MessagesReceived || r.when.metric == Threshold::Metric::MessageRate;
    noData = (m.requests == 0 && !(messages && m.messagesReceived)) || (r.when.isLatency() && m.answered == 0) ||
             (r.when.metric == Threshold::Metric::Checks && checkRate(r.when, m) < 0);
    return thresholdValue(r.when, m);
}

void Breaker::escalate(double degradePercent)
{
    m_escalate = true;
    const BreakerRule::Action actions[3] = {BreakerRule::Action::Warn, BreakerRule::Action::Degrade,
                                            BreakerRule::Action::Stop};
    for (int i = 0; i < 3; ++i) {
        m_levels[i].name = "level " + std::to_string(i + 1);
        m_levels[i].action = actions[i];
        m_levels[i].degradePercent = degradePercent;
    }
}

std::vector<BreakerTrip> Breaker::onSecond(const IntervalMetrics& second, const std::map<std::string, double>& server)
{
    m_window.push_back(second);
    m_window.back().samples.clear();
    m_server.push_back(server);
    while (m_window.size() > m_longest) {
        m_window.pop_front();
        m_server.pop_front();
    }
    std::vector<BreakerTrip> trips;
    std::vector<std::string> together; // with levels: the rules tripping in this second, as said
    bool violated = false;
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
        violated = true;
        if (++m_state[i].inARow < r.consecutive)
            continue;
        m_state[i].inARow = 0; // a further trip takes as many violations again
        if (m_escalate) {
            together.push_back("\"" + r.name + "\" " +
                               (r.when.isFraction()  ? number(value * 100) + "%"
                                : r.when.isLatency() ? number(value) + " ms"
                                                     : number(value)));
            continue;
        }
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
            (r.action == BreakerRule::Action::Warn       ? std::string("warned")
             : r.action == BreakerRule::Action::Stop     ? std::string("the run stops")
             : r.action == BreakerRule::Action::Rollback ? std::string("the run stops and is rolled back")
                                                         : "the load goes to " + number(m_factor * 100) + "% of plan");
        trips.push_back(std::move(t));
    }
    if (!together.empty()) { // the level: how many rules tripped together
        const std::size_t level = std::min<std::size_t>(together.size(), 3);
        BreakerTrip t;
        t.rule = &m_levels[level - 1];
        if (t.rule->action == BreakerRule::Action::Degrade)
            m_factor = std::max(kMinFactor, m_factor * (1 - t.rule->degradePercent / 100));
        t.factor = m_factor;
        std::string rules;
        for (const std::string& r : together)
            rules += (rules.empty() ? "" : ", ") + r;
        t.detail = "level " + std::to_string(level) + " of 3: " + std::to_string(together.size()) +
                   (together.size() == 1 ? " rule" : " rules") + " violated together (" + rules + "); " +
                   (level == 1   ? std::string("warned")
                    : level == 3 ? std::string("the run stops")
                                 : "the load goes to " + number(m_factor * 100) + "% of plan");
        trips.push_back(std::move(t));
    }
    m_quiet = violated ? 0 : m_quiet + 1;
    if (m_recover && m_factor < 1 && m_quiet >= m_cooldown) {
        m_quiet = 0;
        m_factor = std::min(1.0, m_factor + 0.25);
        BreakerTrip t;
        t.factor = m_factor;
        t.detail = "no violation for " + std::to_string(m_cooldown) + " s: the load goes back to " +
                   number(m_factor * 100) + "% of plan";
        trips.push_back(std::move(t));
    }
    return trips;
}

} // namespace stampede
