#include "durationtext.h"

#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>

namespace stampede {

std::optional<Nanos> parseDuration(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    if (text.empty())
        return std::nullopt;
    double value = 0;
    const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (ec != std::errc() || !std::isfinite(value))
        return std::nullopt;
    const std::string_view unit(ptr, text.data() + text.size() - ptr);
    double scale = 0;
    if (unit.empty() || unit == "s")
        scale = 1e9;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "us" || unit == "µs")
        scale = 1e3;
    else if (unit == "ns")
        scale = 1;
    else if (unit == "m" || unit == "min")
        scale = 60e9;
    else if (unit == "h")
        scale = 3600e9;
    else
        return std::nullopt;
    const double ns = value * scale;
    if (ns > 9.2e18 || ns < -9.2e18)
        return std::nullopt;
    return Nanos(std::llround(ns));
}

std::string formatDuration(Nanos ns)
{
    char buf[64];
    if (ns % kNanosPerSecond == 0)
        std::snprintf(buf, sizeof buf, "%llds", static_cast<long long>(ns / kNanosPerSecond));
    else if (ns >= kNanosPerSecond)
        std::snprintf(buf, sizeof buf, "%.3gs", double(ns) / 1e9);
    else if (ns >= kNanosPerMilli)
        std::snprintf(buf, sizeof buf, "%.4gms", double(ns) / 1e6);
    else
        std::snprintf(buf, sizeof buf, "%.4gus", double(ns) / 1e3);
    return buf;
}

std::int64_t wallMillis()
{
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

std::string isoMillis(std::int64_t millis)
{
    const std::time_t seconds = std::time_t(millis / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char text[96];
    std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", utc.tm_year + 1900, utc.tm_mon + 1,
                  utc.tm_mday, utc.tm_hour, utc.tm_min, utc.tm_sec, int(millis % 1000));
    return text;
}

} // namespace stampede
