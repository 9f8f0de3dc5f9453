#include "scriptstep.h"

#include <algorithm>

namespace stampede {

bool ScriptStep::needed(const ScenarioPlan& plan)
{
    return std::any_of(plan.steps.begin(), plan.steps.end(), [](const PlannedStep& st) { return st.scripts; });
}

ScriptStep::ScriptStep(const ScenarioPlan& plan, std::uint32_t users, UserValues& values,
                       const std::vector<SourceCursorPtr>& cursors, CheckTally& tally, std::uint32_t stepOffset)
    : m_plan(plan), m_values(values), m_cursors(cursors), m_tally(tally), m_stepOffset(stepOffset),
      m_scripts(plan, users), m_pre(users)
{
}

ScriptStep::~ScriptStep() = default;

// A script's view of the user's values: what it extracted (and whether each is set), and what it reads now that
// it did not extract (a constant, the iteration's data or generated value).
ScriptValues ScriptStep::valuesOf(std::uint32_t user)
{
    return {m_values.values(user), m_values.isSet(user), [this, user](std::uint16_t v, int column, std::string& out) {
                return m_values.current(user, v, column, m_cursors, out);
            }};
}

// A script's console lines go to the run's events (an engine's first ten a second; the rest counted).
void ScriptStep::keepConsole(std::size_t step, const std::vector<std::string>& logs, IntervalMetrics& second) const
{
    for (const std::string& line : logs)
        second.addConsole(m_stepOffset + std::uint32_t(step), line);
}

ScriptStep::Pre ScriptStep::runPre(std::uint32_t user, std::size_t step, IntervalMetrics& second, std::string& why)
{
    const PlannedStep& st = m_plan.steps[step];
    ScriptRun& run = m_pre[user];
    run = m_scripts.runPre(user, step, valuesOf(user), m_scripts.iteration(user));
    keepConsole(step, run.logs, second);
    CheckTally::countTests(*st.scripts, run.tests, second.steps[m_stepOffset + step]);
    if (!run.ok) {
        why = run.error;
        withConsole(why, run.logs);
        run = {}; // nothing of a script that threw is applied
        return Pre::Failed;
    }
    return run.skip ? Pre::Skip : Pre::Send;
}

bool ScriptStep::change(std::uint32_t user, std::size_t step, RenderedRequest& mine, std::string& why) const
{
    return applyScriptChanges(m_pre[user], m_plan.steps[step], m_plan.http == HttpVersion::Http2, mine, why);
}

void ScriptStep::runTest(std::uint32_t user, std::size_t step, const AnswerView& answer, std::string_view cookies,
                         const RenderedRequest* sent, IntervalMetrics& second, Verdict& verdict, std::string& why)
{
    const PlannedStep& st = m_plan.steps[step];
    AnswerView withCookies = answer; // pm.cookies: the jar's for the URL, with what the answer set
    withCookies.cookies = cookies;
    const ScriptRun r = m_scripts.runTest(user, step, withCookies, valuesOf(user), m_scripts.iteration(user), sent);
    if (const ScriptRun::Test* failed = m_tally.tests(*st.scripts, r.tests); failed && verdict == Verdict::Pass) {
        verdict = Verdict::CheckFailed;
        why = "check \"" + failed->name + "\": " + failed->error;
    }
    if (!r.ok) {
        verdict = Verdict::ScriptFailed;
        why = r.error;
    }
    if (verdict != Verdict::Pass)
        withConsole(why, r.logs);
    keepConsole(step, r.logs, second);
}

} // namespace stampede
