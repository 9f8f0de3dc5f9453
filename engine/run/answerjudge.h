#pragma once
// An answer judged for its step, out of the worker: the answer as the step's
// checks see it (its body decoded when a check, an extractor or a script reads
// it), the step's checks and its test script, the verdict they make together
// (checktally.h: answerVerdict), and the values it gives the user when it
// passed. What the checks and the tests said is kept until the step's outcome
// is counted (countInto) or its try is retried (drop). A collection's test
// script also runs when no answer came, as newman runs it. Nothing here knows
// the loop, the sessions, the clock or the protocol: a session's Answer is
// protocol-neutral (its status judged by its protocol's rules).
#include "check/checks.h"
#include "check/jsonpath.h"
#include "checktally.h"
#include "core/clock.h"
#include "metrics/runmetrics.h"
#include "net/sessionlistener.h"
#include "plan/scenarioplan.h"
#include "requestrenderer.h"
#include "uservalues.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

class ScriptStep;

class AnswerJudge
{
public:
    // Judges the steps of `plan`, extracting into `values` (the users' own).
    AnswerJudge(const ScenarioPlan& plan, UserValues& values) : m_plan(plan), m_values(values) {}
    // The steps' scripts (null: none), made on the worker's thread once it runs; they tally into tally().
    void setScripts(ScriptStep* scripts) { m_scripts = scripts; }
    CheckTally& tally() { return m_tally; }

    // What `step`'s checks see of `answer`, which came `elapsed` after the step was meant to start: with its
    // body decoded (from gzip or deflate, or by the step's codec: a message as JSON) when something reads it.
    // Valid until the next answer is viewed.
    AnswerView view(const PlannedStep& step, const Answer& answer, Nanos elapsed);

    // One answer of one user's step, as the test script sees it.
    struct Call
    {
        std::uint32_t user = 0;
        std::size_t step = 0;                  // the plan's
        const RenderedRequest* sent = nullptr; // the request as it went (pm.request)
        std::string_view cookies;              // the user's Cookie header for the request's URL (pm.cookies)
        IntervalMetrics& second;               // the second it counts in (the scripts' console lines)
    };
    // Judges `answer` by the step's checks, then its test script (run on every answer, as Postman does); a status
    // its protocol calls an error (`statusFailed`) is a StatusError unless a status check accepted it. Extracts
    // into the user's values when it passed; `why`: a failure's account (empty for a StatusError, whose account
    // is its status's).
    Verdict judge(const Call& call, const AnswerView& answer, bool statusFailed, std::string& why);
    // A collection run (newman's verdict) runs a request's test script also when its request failed, on no
    // answer (code 0, no headers, no body), and counts its tests; the failure stands whatever they say. Not for a
    // step without a test script, nor in a run that is not a collection's.
    void judgeNoAnswer(const Call& call, Nanos elapsed);

    // Counts what the last judgement said into `m` (passed and failed checks, each failure's message).
    void countInto(StepMetrics& m) { m_tally.countInto(m); }
    // Forgets it: a try that is retried.
    void drop() { m_tally.drop(); }

private:
    const ScenarioPlan& m_plan;
    UserValues& m_values;
    ScriptStep* m_scripts = nullptr;
    CheckTally m_tally;
    JsonReader m_json;     // reads the answers' JSON paths
    std::string m_decoded; // an answer's body decoded
};

// A status error's account for its sample: the protocol's name of the code and the server's words on it ("": the
// answer's start is the sample, as HTTP's).
std::string statusAccount(const Answer& answer);
// An error's sample kept in `second` (at most a few of each class per step and second: sampleBudgetSpent): the
// raw answer's start split into its head and the first KiB of its body, or none.
void keepRawSample(IntervalMetrics& second, std::uint32_t step, ErrorClass c, int status, std::string_view raw,
                   const std::string& why, std::string_view trace = {});
// The answer of a failed check kept as a sample: its status, its headers, the first KiB of the body as the checks
// saw it, and the check's account.
void keepAnswerSample(IntervalMetrics& second, std::uint32_t step, ErrorClass c, const AnswerView& answer,
                      const std::string& why, std::string_view trace);

} // namespace stampede
