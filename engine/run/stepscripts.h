#pragma once
// A worker's Postman scripts (scenario fields preRequestScript and
// testScript): each step's compiled once in the thread's JavaScript runtime,
// a realm (a global of its own) per virtual user made at its first script,
// and each run given the user's variables and taking back what it set. Made,
// run and dropped on the worker's own thread (a runtime belongs to one).
//
// The variables a script sees: the plan's (constants, this iteration's data
// and generated values, and what the user extracted) where the script last
// put them (pm.environment by default), with what the user's scripts set of
// other names. What a script sets of a name the plan knows as this user's
// (plan/scriptplan.h: a literal pm.*.set name) goes into the user's
// extracted values, so the requests that use it send it.
#include "check/checks.h"
#include "net/outgoing.h"
#include "plan/scenarioplan.h"

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace simdjson::dom {
class parser;
}

namespace stampede {

// What one run of a script came to.
struct ScriptRun
{
    bool ok = true;    // false: it threw, ran past its budget or its heap
    std::string error; // why: "steps[1].testScript:3: TypeError: ..."
    bool skip = false; // pm.execution.skipRequest()
    // postman.setNextRequest(next) was called: the request to go to after this one (none: the iteration ends)
    bool jump = false;
    std::optional<std::string> next;
    struct Test
    {
        std::string name;
        bool passed = false;
        std::string error; // the assertion's message
    };
    std::vector<Test> tests;
    std::vector<std::string> logs; // console.log's lines (at most 100 a run)
    // A pre-request script's changes to the request (resolved: its {{names}} expanded).
    std::string method;                   // "" when unchanged
    std::optional<std::string> url, body; // set when changed
    std::vector<std::string> headerNames; // lower-case names whose headers changed (added, set or removed)
    HeaderPairs headers;                  // the request's headers of those names now
    bool changesRequest() const { return !method.empty() || url || body || !headerNames.empty(); }
};

// A failed script's account `why` with its console.log lines (the first five): what its author printed to see
// why.
void withConsole(std::string& why, const std::vector<std::string>& logs);

// The user's values a script reads and sets (the worker's slot).
struct ScriptValues
{
    std::vector<std::string>& values; // extracted values, by variable index
    std::vector<bool>& isSet;
    // A variable's value now that is not extracted (a constant, this
    // iteration's data or generated value); false when the user has none.
    std::function<bool(std::uint16_t variable, int column, std::string& out)> read;
};

class StepScripts
{
public:
    // Compiles the scripts of the plan's steps; throws std::runtime_error when one does not (the plan checked them).
    StepScripts(const ScenarioPlan& plan, std::uint32_t slots);
    ~StepScripts();
    StepScripts(const StepScripts&) = delete;
    StepScripts& operator=(const StepScripts&) = delete;

    // The step's pre-request script for `slot` (the step has one).
    ScriptRun runPre(std::uint32_t slot, std::size_t step, ScriptValues values, std::uint64_t iteration);
    // Its test script on `answer`.
    // `sent`: the request as it went out, which the script reads as pm.request (else as written).
    ScriptRun runTest(std::uint32_t slot, std::size_t step, const AnswerView& answer, ScriptValues values,
                      std::uint64_t iteration, const RenderedRequest* sent = nullptr);
    // How a script's pm.sendRequest goes (for the step it runs for): by default sent (scriptrequest.h) and not
    // counted; a worker's counts each beside its step's.
    using RequestSender = std::function<void(std::size_t step, std::string_view spec, std::string& json)>;
    void setRequestSender(RequestSender sender) { m_sender = std::move(sender); }
    // How a script's pm.shared goes (sharedscript.h); none: the run has no shared data, and pm.shared throws.
    using SharedAsker =
        std::function<void(int kind, std::string_view key, std::string_view value, double by, std::string& json)>;
    void setSharedAsker(SharedAsker asker) { m_shared = std::move(asker); }
    // A new iteration of `slot`: pm.variables start empty; `user` false (an
    // open model's slot is an iteration's place): everything the scripts set.
    // Its number (pm.info.iteration) goes on, and no next request is asked for.
    void newIteration(std::uint32_t slot, bool user);
    // pm.info.iteration of `slot`'s iteration: from 0, as Postman counts.
    std::uint64_t iteration(std::uint32_t slot) const
    {
        return m_turns[slot].iterations ? m_turns[slot].iterations - 1 : 0;
    }
    // Where postman.setNextRequest said `slot` goes after its current step: a step's index (the last step of that
    // name, as Postman's lookup keeps), kEndIteration (null, or a name no step has, as Postman's runner takes
    // it), or kNoJump (not asked: the next in order). takeJump() forgets it.
    static constexpr int kNoJump = -1, kEndIteration = -2;
    int takeJump(std::uint32_t slot) { return std::exchange(m_turns[slot].jump, kNoJump); }

private:
    struct User;
    ScriptRun run(std::uint32_t slot, std::size_t step, bool pre, const AnswerView* answer, ScriptValues& values,
                  std::uint64_t iteration, const RenderedRequest* sent = nullptr);
    struct Host;
    void variablesJson(const User& u, ScriptValues& values, std::string& out) const;
    void takeResult(std::size_t step, const std::string& result, ScriptRun& out);

    void noteJump(std::uint32_t slot, const ScriptRun& r);

    const ScenarioPlan& m_plan;
    struct Turn
    {
        std::uint64_t iterations = 0; // begun
        int jump = kNoJump;
    };
    std::vector<Turn> m_turns;                             // by slot
    std::vector<std::optional<std::size_t>> m_pre, m_test; // compiled, by step
    std::vector<std::unique_ptr<User>> m_users;            // by slot, made at the first script
    std::string m_result;                                  // keeps its capacity
    std::unique_ptr<simdjson::dom::parser> m_parser;       // reads each result (keeps its buffers)
    RequestSender m_sender;
    SharedAsker m_shared;
};

// Applies a pre-request script's changes to a request as rendered for its
// protocol (`st`'s server; the URL may change its path, not its server);
// false with `why` when a value cannot go on the wire.
bool applyScriptChanges(const ScriptRun& changes, const PlannedStep& st, bool http2, RenderedRequest& r,
                        std::string& why);

} // namespace stampede
