#pragma once
// A step's Postman scripts as a run carries them out, out of the worker: the
// pre-request script run before the request is made (its pm.tests counted with
// the step's, its console lines kept, what it changed applied to the user's
// own copy of the request), the test script run on an answer (its pm.tests
// tallied as the step's checks, its verdict), each user's iteration and where
// postman.setNextRequest said it goes. The worker asks at those three places;
// nothing here knows the loop, the sessions or the clock. Made, run and
// dropped on the worker's thread (stepscripts.h: a JavaScript runtime is one
// thread's); a plan without scripts makes none.
#include "checktally.h"
#include "core/parametersource.h"
#include "metrics/runmetrics.h"
#include "plan/scenarioplan.h"
#include "stepscripts.h"
#include "uservalues.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class ScriptStep
{
public:
    // Whether some step of `plan` has a script (none: the worker makes no ScriptStep).
    static bool needed(const ScenarioPlan& plan);
    // The scripts of `plan` for `users` users, reading and setting `values` (the users' own) and `cursors` (the
    // worker's, by variable index); what a step's scripts say of its checks goes into `tally`. `stepOffset`: the
    // plan's steps among the run's (where console lines are kept). Compiles the scripts: throws
    // std::runtime_error when one does not (the plan checked them).
    ScriptStep(const ScenarioPlan& plan, std::uint32_t users, UserValues& values,
               const std::vector<SourceCursorPtr>& cursors, CheckTally& tally, std::uint32_t stepOffset = 0);
    ~ScriptStep();
    ScriptStep(const ScriptStep&) = delete;
    ScriptStep& operator=(const ScriptStep&) = delete;

    // How a script's pm.sendRequest goes (stepscripts.h).
    void setRequestSender(StepScripts::RequestSender sender) { m_scripts.setRequestSender(std::move(sender)); }
    // How a script's pm.shared goes (stepscripts.h).
    void setSharedAsker(StepScripts::SharedAsker asker) { m_scripts.setSharedAsker(std::move(asker)); }
    // A new iteration of `user` (`fresh`: an open model's slot, where everything a script set starts anew).
    void newIteration(std::uint32_t user, bool fresh) { m_scripts.newIteration(user, !fresh); }
    // Where postman.setNextRequest sent `user` after its step (StepScripts::kNoJump when it did not); forgotten.
    int takeJump(std::uint32_t user) { return m_scripts.takeJump(user); }

    // Whether the step has a pre-request script, a test script.
    static bool hasPre(const PlannedStep& step) { return step.scripts && !step.scripts->pre.empty(); }
    static bool hasTest(const PlannedStep& step) { return step.scripts && !step.scripts->test.empty(); }

    // The step's pre-request script for `user`, before its request is made: its pm.tests counted into `second`
    // (the step's counters of the second it runs in, `step` of the plan), its console lines kept there.
    enum class Pre
    {
        Send,   // the request is made (with what the script set), then change() applies what it changed
        Skip,   // pm.execution.skipRequest(): done unsent, the iteration goes on
        Failed, // it threw or ran past its budget: not sent, `why` says so (with its console lines)
    };
    Pre runPre(std::uint32_t user, std::size_t step, IntervalMetrics& second, std::string& why);
    // What the pre-request script that last ran for `user` changed of the request (method, URL, body, headers).
    bool changesRequest(std::uint32_t user) const { return m_pre[user].changesRequest(); }
    // Applies those changes to `mine`, the user's own copy of the request as rendered (`step`'s server: the URL
    // may change its path, not its server); false with `why` when a value cannot go on the wire.
    bool change(std::uint32_t user, std::size_t step, RenderedRequest& mine, std::string& why) const;

    // The step's test script on `answer` for `user` (`cookies`: the user's Cookie header for the request, which
    // pm.cookies reads; `sent`: the request as it went, pm.request): each pm.test it ran tallied as the check of
    // its name; `verdict` becomes CheckFailed when one failed and it was Pass, ScriptFailed when it threw, with
    // `why` (its console lines added). Its console lines are kept in `second`.
    void runTest(std::uint32_t user, std::size_t step, const AnswerView& answer, std::string_view cookies,
                 const RenderedRequest* sent, IntervalMetrics& second, Verdict& verdict, std::string& why);

private:
    ScriptValues valuesOf(std::uint32_t user);
    void keepConsole(std::size_t step, const std::vector<std::string>& logs, IntervalMetrics& second) const;

    const ScenarioPlan& m_plan;
    UserValues& m_values;
    const std::vector<SourceCursorPtr>& m_cursors;
    CheckTally& m_tally;
    const std::uint32_t m_stepOffset;
    StepScripts m_scripts;
    std::vector<ScriptRun> m_pre; // by user: what its last pre-request script changed, until the request is made
};

} // namespace stampede
