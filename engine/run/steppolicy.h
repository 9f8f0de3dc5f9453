#pragma once
// A step's plan between its sends (scenario fields retry, onError, repeat), a
// concern of its own: whether a try that failed goes again and when, what an
// error that is counted does to the user's iteration, and which step goes
// next (its repeats, a script's jump, the next one, the iteration's end). It
// keeps each user's tries of the send and sends of the step; the worker's
// loop carries its answers out (it queues the retry, pauses, retires the
// user, stops the run). Nothing here knows the loop, the sessions or a clock:
// it is given the times.
#include "checktally.h"
#include "core/clock.h"
#include "plan/scenarioplan.h"
#include "stepscripts.h"

#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace stampede {

class StepPolicy
{
public:
    explicit StepPolicy(const std::vector<PlannedStep>& steps, std::uint32_t users = 0);
    // For `users` users, each at no try and no send.
    void reset(std::uint32_t users);

    // A user's new iteration: its first step's sends start at none.
    void newIteration(std::uint32_t user) { m_repeated[user] = 0; }
    // The user's step begins: a send of its own starts its tries anew; a retry (or a user a hook held, resumed)
    // keeps them.
    void begin(std::uint32_t user, bool retry)
    {
        if (!retry)
            m_tries[user] = 0;
    }

    // When the user's failed try of `step` goes again (its backoff from `now`), its try counted; kNever when it
    // does not: it passed, its retries are spent, it would fail the same way again (a value the request cannot
    // carry, a name never extracted, a script), or it could not go before `end` (the plan's).
    static constexpr Nanos kNever = -1;
    Nanos retryAt(std::uint32_t user, std::size_t step, Verdict verdict, ErrorClass error, Nanos now, Nanos end);
    // Whether the user's try of `step` is its last (no retry left): what a collection's test script runs on.
    bool lastTry(std::uint32_t user, std::size_t step) const { return m_tries[user] >= m_steps[step].retries; }

    // What an error of `step`, counted, does: go on to the step after it (at the loop's next turn when the send
    // failed inside its own call: `transport`), end the iteration, end the user's iterations, or stop the run.
    enum class AfterError
    {
        GoOn,
        GoOnNextTurn,
        EndIteration,
        StopUser,
        StopRun
    };
    static AfterError afterError(const PlannedStep& step, bool transport);

    // The step the user sends after `current` was done (passed, or an error it goes on past): `current` again
    // (its repeat), `jump` (a script's postman.setNextRequest; kNoJump: none; another negative value or past the last
    // step: the end), the next one; kEnd: the iteration ends. A step other than the current one starts its sends anew.
    static constexpr std::size_t kEnd = std::numeric_limits<std::size_t>::max();
    static constexpr int kNoJump = StepScripts::kNoJump; // a script's jump is the scripts' (StepScripts::takeJump)
    std::size_t next(std::uint32_t user, std::size_t current, int jump);

private:
    const std::vector<PlannedStep>& m_steps;
    std::vector<std::uint32_t> m_tries;    // per user: retries made of the current send
    std::vector<std::uint32_t> m_repeated; // per user: sends of the current step done (its repeat)
};

static_assert(StepScripts::kEndIteration < 0); // next() takes every other negative jump as the end

} // namespace stampede
