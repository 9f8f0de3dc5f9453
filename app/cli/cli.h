#pragma once
// stampede-cli: the headless command line. Exit codes are part of its
// contract with CI pipelines.
#include <string>
#include <vector>

namespace stampede::cli {

enum ExitCode
{
    Passed = 0, // the run passed its thresholds
    ThresholdFailed = 1,
    BadInput = 2,  // with a message naming what is wrong
    RunFailed = 3, // the run could not be carried out
};

int main(int argc, char** argv);
int runCommand(const std::vector<std::string>& args);
int mockCommand(const std::vector<std::string>& args);
int agentCommand(const std::vector<std::string>& args);
int bundleCommand(const std::vector<std::string>& args);
int reportCommand(const std::vector<std::string>& args);
int verifyTagCommand(const std::vector<std::string>& args);
int k8sCommand(const std::vector<std::string>& args);
int capacityCommand(const std::vector<std::string>& args);
int importCommand(const std::vector<std::string>& args);
int replayCommand(const std::vector<std::string>& args);
int recordCommand(const std::vector<std::string>& args);
int scheduleCommand(const std::vector<std::string>& args);
int controlCommand(const std::vector<std::string>& args);

// Small helpers shared by the subcommands.
struct ArgReader
{
    const std::vector<std::string>& args;
    std::size_t pos = 0;
    bool done() const { return pos >= args.size(); }
    // For "--name VALUE" and "--name=VALUE"; on a missing value sets `error`,
    // and on an empty one too (an unset $RATE in a script is no default)
    // unless `allowEmpty` (a body may be empty).
    bool value(const std::string& flag, std::string& out, std::string& error, bool allowEmpty = false);
};

} // namespace stampede::cli
