#include "breakerrule.h"

#include "durationtext.h"
#include "number.h"
#include "text.h"

#include <cstdio>

namespace stampede {

namespace {

std::string_view trim(std::string_view s)
{
    return trimSpaces(s);
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
    if (text == "warn" || text == "stop" || text == "rollback") {
        r.action = text == "warn"   ? BreakerRule::Action::Warn
                   : text == "stop" ? BreakerRule::Action::Stop
                                    : BreakerRule::Action::Rollback;
        return true;
    }
    if (text.substr(0, 8) == "degrade ") {
        std::string_view pct = trim(text.substr(8));
        if (!pct.empty() && pct.back() == '%')
            pct.remove_suffix(1);
        r.action = BreakerRule::Action::Degrade;
        return parseDecimal(trim(pct), "degrade", 1, 90, r.degradePercent, error);
    }
    error = "\"" + std::string(text) + "\": the action is warn, degrade N%, stop or rollback";
    return false;
}

} // namespace

std::string BreakerRule::text() const
{
    const std::string action = this->action == Action::Warn       ? "warn"
                               : this->action == Action::Stop     ? "stop"
                               : this->action == Action::Rollback ? "rollback"
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

} // namespace stampede
