#pragma once
// pm.sendRequest as the engine makes it: a script's request (its JSON from the
// sandbox: {"method", "url", "headers": [[k, v]], "body"}) sent once over
// HTTP/1.1, blocking the script's thread until its answer or its timeout, and
// the answer as the sandbox reads it ({"code", "status", "headers", "body"
// decoded from gzip, deflate or br, "time" in ms, "size"}), or {"error": why}
// for a request that cannot be made or got no answer. Nothing in it is
// resolved: the script sends what it wrote.
#include "core/clock.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace stampede {

// At most this long for an answer (newman's pm.sendRequest has its request timeout; the run's step has its own).
inline constexpr Nanos kScriptRequestTimeout = 10 * kNanosPerSecond;

// Sends `spec`; its answer into `json`. False when there was no answer (the request could not be made, or the
// connection failed or timed out): `json` is then {"error": ...}.
bool sendScriptRequest(std::string_view spec, std::string& json, Nanos timeout = kScriptRequestTimeout);

// pm.sendRequest in a run (StepScripts::RequestSender): sent as the script asks, never past `end` on `clock` (a
// run ends on time: past it the script is told so and nothing is sent), each counted by `count(step, answered)`
// beside its step (a request of the script's, not the step's).
std::function<void(std::size_t step, std::string_view spec, std::string& json)>
runRequestSender(const Clock& clock, Nanos end, std::function<void(std::size_t step, bool answered)> count);

} // namespace stampede
