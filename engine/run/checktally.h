#pragma once
// The verdict and checks of a step, out of the worker: what one answer's
// checks and tests said, kept until the step's outcome is counted (a try that
// is retried is not counted, nor what its checks said), and the verdict that
// the status, the checks and the test script make together. The worker asks;
// nothing here knows the loop, the sessions or the protocol.
#include "check/checks.h"
#include "metrics/runmetrics.h"
#include "plan/scenarioplan.h"
#include "stepscripts.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace stampede {

// What became of one send of a step.
enum class Verdict
{
    Pass,
    StatusError,  // a status its protocol calls an error (Answer::statusError), no status check accepted
    CheckFailed,  // a check failed on the answer
    ScriptFailed, // the step's test script threw (or ran past its budget or heap)
    Failed        // no answer: the transport, or the request could not be made
};

class CheckTally
{
public:
    // A new answer of a step with `checks` checks: none judged yet (a check no one runs counts as failed;
    // notRun() says otherwise).
    void open(std::size_t checks);
    // The same, for an answer that never came (a collection's test script run on nothing): every check not run.
    void openNotRun(std::size_t checks);
    // The step's own checks (not its scripts' pm.tests) on `answer`: each one's result kept; the first that
    // failed, or -1, with `why`; `accepted`: a status check passed (a status its protocol calls an error is
    // then the answer the user expected).
    struct Judged
    {
        int failed = -1;
        bool accepted = false;
    };
    Judged judge(const PlannedStep& step, const AnswerView& answer, AnswerJson& json, std::string& why);
    // A test script's pm.tests, as it ran them: each counted as the check of its name (one it did not run is
    // not), one of a name the plan did not know counted by name. Returns the first that failed (null: none).
    const ScriptRun::Test* tests(const StepScriptPlan& scripts, const std::vector<ScriptRun::Test>& run);
    // Counts what was kept into `m` (passed, failed, each failure's message), and forgets it.
    void countInto(StepMetrics& m);
    // Forgets what was kept: a try that is retried.
    void drop();
    // A pre-request script's pm.tests, counted as it ran them (as newman lists them with the request's): they
    // judge nothing.
    static void countTests(const StepScriptPlan& scripts, const std::vector<ScriptRun::Test>& run, StepMetrics& m);

private:
    static constexpr std::uint8_t kFailed = 0, kPassed = 1, kNotRun = 2;
    // The check a pm.test of `name` counts under (-1: a name the plan did not see, counted by name).
    static int checkOf(const StepScriptPlan& scripts, const std::string& name);
    struct Named
    {
        std::string name;
        bool passed = false;
        std::string message; // why it failed
    };
    std::vector<std::uint8_t> m_results;                         // each check: kPassed, kFailed, kNotRun
    std::vector<Named> m_named;                                  // tests of names the plan did not know
    std::vector<std::pair<std::size_t, std::string>> m_failures; // why checks failed, by index
};

// The verdict of an answer: a test script that threw fails a collection's run whatever the status (newman's,
// `testsVerdict`); then a status its protocol calls an error unless a status check accepted it; then a failed
// check; then the script's own verdict (a pm.test that failed, or it threw).
Verdict answerVerdict(bool statusFailed, const CheckTally::Judged& checks, Verdict script, bool testsVerdict);

} // namespace stampede
