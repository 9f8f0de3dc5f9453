#pragma once
// A load model, as one executor: what it was compiled from, how many slots
// each worker keeps, the pacer that starts iterations on them, and what it
// planned (for the verdict, the preview and the summary). A scenario plan
// holds one executor and never the fields of the others; the worker, the
// engine and the reports ask it, never which model it is.
//
// - OpenExecutor (openload.h): arrivals at a planned rate, whatever the target
//   does; slots are connections (HTTP/2: streams), an iteration's place.
// - ClosedExecutor (closedload.h): virtual users that run, think and run
//   again; the number taking part follows the planned level.
// - IterationsExecutor (closedload.h): virtual users that each make N
//   iterations; the run ends when every one has.
// - ReplayExecutor (replayload.h): recorded traffic at its own timing.
#include "core/clock.h"
#include "pacer.h"
#include "stageprofile.h"

#include <cstdint>
#include <memory>
#include <string>

namespace stampede {

enum class LoadModel
{
    Open,
    Closed,
    Iterations, // closed users with a number of iterations each
    Replay
};

class LoadExecutor
{
public:
    virtual ~LoadExecutor() = default;
    // For descriptions ("open model at 200/s") only: behaviour asks the methods below.
    virtual LoadModel model() const = 0;
    // The pacer of worker `part` of `parts` over its `slots`, for a run of `duration`.
    virtual PacerPtr pacer(PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts,
                           Nanos duration) const = 0;
    // How many slots part `part` of `parts` keeps of the run's `pool` (connections,
    // or virtual users: users are dealt by global index, user u to part u mod parts).
    virtual std::uint32_t slotsOf(std::uint32_t pool, std::uint32_t part, std::uint32_t parts) const = 0;
    // The run's pool: connections for arrivals (the scenario's, default 50), the peak of users for users.
    virtual std::uint32_t pool(std::uint32_t connections) const = 0;
    // Iterations start at planned times whatever the target does (arrivals,
    // recorded times): their send lag is measured, and a run that made under
    // 90 % of its plan does not pass.
    virtual bool paced() const = 0;
    // A slot is a virtual user, whose extracted values and cookies last from
    // one iteration to the next; else an iteration's place, fresh each time.
    virtual bool slotIsUser() const = 0;
    // Slots that share one HTTP/2 connection with `streams` streams (arrivals
    // multiplex; a user keeps its own).
    virtual std::uint32_t slotsPerConnection(std::uint32_t streams) const
    {
        (void)streams;
        return 1;
    }
    // Iterations planned from the start until `until` by every engine together
    // (paced models); 0 for users.
    virtual double plannedBy(Nanos until) const = 0;
    // The planned level over time (a rate, or users); null when the load has
    // no level (a replay: its traffic is its shape).
    virtual const StageProfile* profile() const { return nullptr; }
};
using LoadExecutorPtr = std::shared_ptr<const LoadExecutor>;

} // namespace stampede
