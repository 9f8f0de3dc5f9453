#pragma once
// pm.shared as a run makes it (StepScripts::SharedAsker): each call an ask of
// the run's shared data (core/shareddata.h), the script's thread waiting for
// its answer at most kSharedWait, a second once the run's `end` on `clock` is
// past (an answer that lands then is still judged); an ask not answered in
// time is abandoned if it was not sent yet, and the script told so.
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
