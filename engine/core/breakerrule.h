#pragma once
// A live breaker's rule (see control/breaker.h for how rules are judged):
// a threshold expression that, holding, is a violation; a window of whole
// seconds; the violations in a row that trip it; the action. Written on the
// command line as "COND for NxWs: ACTION":
//   "p99 > 300ms for 3x5s: stop", "error_rate > 5% for 2x2s: degrade 50%",
//   "login: checks < 99% for 2x5s: warn", "error_rate > 20% for 2x5s: rollback".
#include "threshold.h"

#include <cstdint>
#include <optional>
#include <string>

namespace stampede {

struct BreakerRule
{
    enum class Action
    {
        Warn,
        Degrade,
        Stop,
        Rollback // stop, then roll back: the plan's teardown and the command line's --rollback COMMAND
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

} // namespace stampede
