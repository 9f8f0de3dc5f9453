#pragma once
// The command a run's rollback runs (the command line's --rollback COMMAND), on the controller only, after the
// plan's teardown: through /bin/sh -c, with the run's id, scenario and reason in its environment
// (STAMPEDE_RUN_ID, STAMPEDE_SCENARIO, STAMPEDE_REASON), bounded in time (killed, with its process group, at the
// end of `timeout`). What it said last and how it ended become the run's "rollback" event.
#include "core/clock.h"

#include <atomic>
#include <string>
#include <utility>
#include <vector>

namespace stampede {

struct CommandOutcome
{
    bool started = false;
    int exitCode = -1; // -1: killed or not started
    bool timedOut = false;
    bool cancelled = false;   // ended (with its process group) because `cancel` was set
    std::string lastLine;     // its output's last line (stdout and stderr), at most 300 bytes
    std::string text() const; // "exit 0: rolled back to v41", "killed after 60 s", "could not start: ..."
};

// `cancel`, when set to true while it runs, kills it with its group at once.
CommandOutcome runCommand(const std::string& command, const std::vector<std::pair<std::string, std::string>>& env,
                          Nanos timeout, const std::atomic<bool>* cancel = nullptr);

} // namespace stampede
