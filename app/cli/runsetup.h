#pragma once
// What `stampede-cli run` hands to the run service: its options turned into a
// run request (the scenario with --var and the mock's URL as constants, the
// engines, the controller's options, where the run is saved), and what it
// prints while the run goes on.
#include "runoptions.h"

#include "control/agentregistry.h"
#include "control/controlserver.h"
#include "control/runservice.h"
#include "mock/mockserver.h"
#include "store/projectstore.h"

#include <memory>
#include <string>

namespace stampede::cli {

// Everything a run from the command line holds until it ends.
struct CliRun
{
    RunRequest request;
    std::unique_ptr<MockServer> mock;    // --mock
    std::unique_ptr<ProjectStore> store; // --project / --report
    // --accept-agents: the agents that joined, and where they say so
    std::shared_ptr<AgentRegistry> joined;
    std::unique_ptr<ControlServer> joinServer;
};

// The outputs (--summary-json, --out jsonl=) are none of the files the
// compiled scenario reads (its data sets, protos, traffic, certificates),
// compared by device and inode: checked before any load.
bool outputsSpareInputs(const Options& o, const std::vector<std::string>& planInputs, std::string& error);
// From parsed options; false with `error` and the exit code to return.
bool setUpRun(const Options& o, CliRun& run, std::string& error, int& exitCode);
// Opens (or creates) --project, or creates --report; false with `error`.
bool openStore(const Options& o, CliRun& run, std::string& error);
// Prepares, records and carries out the run set up in `run`, prints its
// summary and returns the exit code (`command` names the subcommand in messages).
int carryOut(const Options& o, CliRun& run, const char* command);

// The status line per second and the header once the engines are known.
class CliSink final : public RunSink
{
public:
    CliSink(const ScenarioPlan& plan, bool quiet) : m_plan(plan), m_quiet(quiet) {}
    void started(const std::vector<std::string>& agents) override;
    void second(const LiveSecond& second) override;
    void recordingFailed(const std::string& error) override;

private:
    const ScenarioPlan& m_plan;
    bool m_quiet;
    std::uint32_t m_second = 0;
};

} // namespace stampede::cli
