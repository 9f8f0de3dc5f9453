#pragma once
// Compiling a replay step: recorded traffic (a project's set handed over as
// `data`, or an access log / HAR file read here) with its options checked,
// each request given the server it goes to (`hosts`, else `target`: one
// planned step per server, so that reports count them apart), and the
// requests planned per second over the whole run, for the dashboard and the
// summary's `planned`.
#include "grpcstep.h"
#include "load/replayload.h"

#include <memory>
#include <string>
#include <vector>

namespace stampede {

namespace v1 {
class Replay;
}

// The most requests one replay holds (docs/command-line.md, "Limits"): about 2 GB of records
// on every engine.
constexpr std::size_t kMaxReplayRecords = 10000000;
// Requests waiting for a connection before new ones are dropped, over the whole run.
constexpr std::uint32_t kReplayBacklog = 10000;

class ReplayStepCompiler
{
public:
    explicit ReplayStepCompiler(StepContext& context) : m_ctx(context) {}
    // Compiles step `st` (which has `replay`) into `plan`: its steps, its
    // replay and, unless the scenario gives one, its duration. False after
    // reporting its faults.
    bool compile(const v1::Step& st, const std::string& field, ScenarioPlan& plan);

private:
    bool records(const v1::Replay& r, const std::string& field, std::vector<TrafficRecord>& out);
    bool options(const v1::Replay& r, const std::string& field, ReplayOptions& out);
    bool selection(const v1::Replay& r, const std::string& field, ReplaySelection& out);
    bool servers(const v1::Step& st, const std::string& field, ScenarioPlan& plan, ReplayPlan& replay);
    bool server(const std::string& url, const std::string& field, const std::string& name, PlannedStep& ps);
    bool secondServer(const v1::Step& st, const std::string& field, ScenarioPlan& plan);

    bool constantsIn(std::string& url, const std::string& field);
    StepContext& m_ctx;
};

// Whether the scenario replays traffic (a step has `replay`).
bool isReplay(const v1::Scenario& s);
// The scenario as a run records it: replays' inline data left out (a
// project's set is named by `traffic`, a file by `file`).
void withoutReplayData(v1::Scenario& s);
// Requests the plan's replay meant to send in second `second` (0 when it is not a replay).
std::uint64_t plannedRequests(const ScenarioPlan& plan, std::uint32_t second);

} // namespace stampede
