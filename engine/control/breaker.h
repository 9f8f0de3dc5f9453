#pragma once
// The live breaker: rules judged every second by the controller on the merged
// data of all engines, over a sliding window of whole seconds (exact merged
// histograms for percentiles, never averages of per-second values), for the
// total or one step. A rule whose condition holds for `consecutive` windows
// in a row trips: warn (an event), degrade (lower the level by a percentage,
// again after each further violation, never below kMinFactor), stop, or
// roll back (stop; the plan's teardown and --rollback COMMAND then run). With
// levels (escalate), the rules tripping together set the action instead: one
// warns, two degrade, three or more stop.
//
// Rules (core/breakerrule.h) come from a scenario's "breaker" and from the
// command line's --breaker.
#include "core/breakerrule.h"
#include "metrics/runmetrics.h"
#include "plan/scenarioplan.h"

#include <deque>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stampede {

// The lowest level a degrade goes to: a tenth of the planned load.
constexpr double kMinFactor = 0.1;

// One rule that tripped in a second.
struct BreakerTrip
{
    const BreakerRule* rule = nullptr; // null: a recovery step
    double value = 0;                  // the window's value of the rule's metric
    double factor = 1;                 // Degrade: the level asked from now on
    std::string detail;                // for the event: rule, window value and action
};

class Breaker
{
public:
    // `stepNames` resolve the rules' scopes; an unknown step is reported by
    // the caller before the run (see unknownStep()).
    // With `recover`, a degraded load climbs back by a quarter of the plan
    // after each `cooldownSeconds` without any violation (a trip with no rule).
    Breaker(std::vector<BreakerRule> rules, std::vector<std::string> stepNames, std::uint32_t cooldownSeconds = 10,
            bool recover = false);
    // The same, scoped by what the plan's names stand for (steps, groups, a plan's scenarios).
    Breaker(std::vector<BreakerRule> rules, std::vector<MeasuredName> scopes, std::uint32_t cooldownSeconds = 10,
            bool recover = false);
    // The name of a step some rule is scoped to that the run does not have.
    static std::optional<std::string> unknownStep(const std::vector<BreakerRule>& rules,
                                                  const std::vector<std::string>& stepNames);
    bool empty() const { return m_rules.empty(); }
    // Each step's checks by name ("STEP/NAME", as the run's summary names
    // them): a rule on check "NAME" judges those alone.
    void setCheckNames(std::vector<std::vector<std::string>> names) { m_checkNames = std::move(names); }
    // A merged second of the run (in order), with the server metrics read in
    // it (server:NAME: a window's value is the mean of its readings); the
    // rules that trip in it.
    std::vector<BreakerTrip> onSecond(const IntervalMetrics& second, const std::map<std::string, double>& server = {});
    double factor() const { return m_factor; } // the level degrades have left
    // Levels instead of each rule's own action: the rules that trip in the same second are counted: one warns,
    // two degrade the load by `degradePercent`, three or more stop the run (one trip a second, its rule the level's).
    void escalate(double degradePercent);

private:
    struct State
    {
        std::uint32_t inARow = 0;
    };
    double windowValue(const BreakerRule& r, bool& noData) const;

    std::vector<BreakerRule> m_rules;
    std::vector<MeasuredName> m_scopes;
    std::vector<std::vector<std::string>> m_checkNames;
    std::vector<State> m_state;
    std::deque<IntervalMetrics> m_window;               // the last seconds, as long as the longest window
    std::deque<std::map<std::string, double>> m_server; // their server metrics
    std::uint32_t m_longest = 1;
    double m_factor = 1;
    std::uint32_t m_cooldown = 10;
    bool m_recover = false;
    bool m_escalate = false;
    BreakerRule m_levels[3];   // the levels' own rules: warn, degrade, stop
    std::uint32_t m_quiet = 0; // seconds in a row without a violation
};

} // namespace stampede
