// libFuzzer target: the breaker's rule syntax ("p99 > 300ms for 3x5s: stop").
// A rule that parses keeps its bounds and reads back as a rule that parses
// to the same thing.
#include "core/breakerrule.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::string error;
    const auto rule = stampede::BreakerRule::parse(input, error);
    if (!rule) {
        if (error.empty())
            __builtin_trap(); // a refusal always says why
        return 0;
    }
    if (rule->window < 1 || rule->window > stampede::BreakerRule::kMaxWindow || rule->consecutive < 1 ||
        rule->consecutive > stampede::BreakerRule::kMaxConsecutive)
        __builtin_trap();
    const auto again = stampede::BreakerRule::parse(rule->text(), error);
    if (!again || again->window != rule->window || again->consecutive != rule->consecutive ||
        again->action != rule->action)
        __builtin_trap();
    return 0;
}
