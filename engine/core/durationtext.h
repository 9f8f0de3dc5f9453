#pragma once
// Durations as people write them: "10s", "500ms", "1.5m", "2h", "250us"; and
// the wall clock's time as ISO 8601 writes it.
#include "clock.h"

#include <optional>
#include <string>
#include <string_view>

namespace stampede {

// Returns nullopt when the text is not a duration. A bare number means seconds.
std::optional<Nanos> parseDuration(std::string_view text);
// "1.5s", "20ms", "250us": the shortest exact-enough form, for messages.
std::string formatDuration(Nanos ns);

// Wall-clock milliseconds since the epoch, and as ISO 8601 UTC ("2026-12-01T16:20:05.123Z").
std::int64_t wallMillis();
std::string isoMillis(std::int64_t millis);

} // namespace stampede
