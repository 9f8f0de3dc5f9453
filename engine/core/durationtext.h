#pragma once
// Durations as people write them: "10s", "500ms", "1.5m", "2h", "250us".
#include "clock.h"

#include <optional>
#include <string>
#include <string_view>

namespace stampede {

// Returns nullopt when the text is not a duration. A bare number means seconds.
std::optional<Nanos> parseDuration(std::string_view text);
// "1.5s", "20ms", "250us": the shortest exact-enough form, for messages.
std::string formatDuration(Nanos ns);

} // namespace stampede
