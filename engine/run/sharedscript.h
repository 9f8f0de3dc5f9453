#pragma once
// pm.shared as a run makes it (StepScripts::SharedAsker): each call an ask of
// the run's shared data (core/shareddata.h), the script's thread waiting for
// its answer at most kSharedWait and never past the run's end on `clock` (then
// the op is abandoned if it was not sent yet, and the script told so).
#include "core/clock.h"
#include "core/shareddata.h"

#include <functional>
#include <string>
#include <string_view>

namespace stampede {

inline constexpr Nanos kSharedWait = 5 * kNanosPerSecond;

std::function<void(int kind, std::string_view key, std::string_view value, double by, std::string& json)>
sharedAsker(SharedAccess& access, const Clock& clock, Nanos end);

} // namespace stampede
