#pragma once
// The live breaker: rules judged every second by the controller on the merged
// data of all engines, over a sliding window of whole seconds (exact merged
// histograms for percentiles, never averages of per-second values), for the
// total or one step. A rule whose condition holds for `consecutive` windows
// in a row trips: warn (an event), degrade (lower the level by a percentage,
// again after each further violation, never below kMinFactor), or stop.
//
// Rules come from a scenario's "breaker" or from the command line:
//   "p99 > 300ms for 3x5s: stop"      3 consecutive violations of a 5 s window
//   "error_rate > 5% for 2x2s: degrade 50%"
//   "login: checks < 99% for 2x5s: warn"
// The condition is a threshold expression (core/threshold.h) that, when it
// holds, is a violation.
#include "core/threshold.h"
#include "metrics/runmetrics.h"

#include <deque>
#include <optional>
#include <string>
#include <vector>

namespace stampede {

struct BreakerRule
{
    enum class Action
    {
        Warn,
        Degrade,
        Stop
    };
    std::string name;              // default: the condition as written
    Threshold when;                // holds: a violation (its `step`, when set, is the scope)
    std::uint32_t window = 5;      // seconds, 1 to kMaxWindow
    std::uint32_t consecutive = 1; // violations in a row that trip it, 1 to kMaxConsecutive
    Action action = Action::Warn;
    double degradePercent = 0; // Degrade: the level goes down by this share of itself
    std::string text() const;  // "p99 > 300ms for 3x5s: degrade 50%"

    static constexpr std::uint32_t kMaxWindow = 3600;
    static constexpr std::uint32_t kMaxConsecutive = 1000;
    // "COND for NxWs: ACTION"; "for ..." may be left out (1x5s). Nothing and
    // `error` when it does not parse.
    static std::optional<BreakerRule> parse(const std::string& text, std::string& error);
};

// The lowest level a degrade goes to: a tenth of the planned load.
constexpr double kMinFactor = 0.1;

// One rule that tripped in a second.
struct BreakerTrip
{
    const BreakerRule* rule = nullptr;
    double value = 0;   // the window's value of the rule's metric
    double factor = 1;  // Degrade: the level asked from now on
    std::string detail; // for the event: rule, window value and action
};

class Breaker
{
public:
    // `stepNames` resolve the rules' scopes; an unknown step is reported by
    // the caller before the run (see unknownStep()).
    Breaker(std::vector<BreakerRule> rules, std::vector<std::string> stepNames);
    // The name of a step some rule is scoped to that the run does not have.
    static std::optional<std::string> unknownStep(const std::vector<BreakerRule>& rules,
                                                  const std::vector<std::string>& stepNames);
    bool empty() const { return m_rules.empty(); }
    // A merged second of the run (in order); the rules that trip in it.
    std::vector<BreakerTrip> onSecond(const IntervalMetrics& second);
    double factor() const { return m_factor; } // the level degrades have left

private:
    struct State
    {
        std::uint32_t inARow = 0;
    };
    double windowValue(const BreakerRule& r, bool& noData) const;

    std::vector<BreakerRule> m_rules;
    std::vector<std::string> m_steps;
    std::vector<State> m_state;
    std::deque<IntervalMetrics> m_window; // the last seconds, as long as the longest window
    std::uint32_t m_longest = 1;
    double m_factor = 1;
};

} // namespace stampede
