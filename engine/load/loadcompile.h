#pragma once
// Compiling a scenario's `load` (and its `duration` and `iterations`) into
// its executor: the model chosen, its level and stages within the flags'
// bounds, every fault named by its field ("load.stages[1].target: ...").
// A replay's executor is made where its traffic is compiled (plan/replaystep).
#include "executor.h"

#include <functional>
#include <string>

namespace stampede {

namespace v1 {
class Scenario;
}

// A fault of the field.
using LoadFault = std::function<void(const std::string& field, const std::string& message)>;

struct CompiledLoad
{
    LoadExecutorPtr executor;              // null after a fault
    Nanos duration = 10 * kNanosPerSecond; // the run's length
};

CompiledLoad compileLoad(const v1::Scenario& scenario, const LoadFault& fault);
// The flags' bound on a duration (a run, a stage, a timeout): false after reporting it.
bool withinLongest(Nanos d, const std::string& field, std::int64_t maxSeconds, const LoadFault& fault);

} // namespace stampede
