#include "checktally.h"

#include "core/utf8.h"

#include <algorithm>

namespace stampede {

void CheckTally::open(std::size_t checks)
{
    m_results.assign(checks, kFailed);
    m_failures.clear();
}

void CheckTally::openNotRun(std::size_t checks)
{
    m_results.assign(checks, kNotRun);
    m_failures.clear();
}

CheckTally::Judged CheckTally::judge(const PlannedStep& st, const AnswerView& a, AnswerJson& json, std::string& why)
{
    Judged out;
    std::string seen;
    open(st.checks.size());
    for (std::size_t i = 0; i < st.checks.size(); ++i) {
        const Check& c = st.checks[i];
        if (c.subject == Check::Subject::Script) { // a pm.test's: judged by the script that runs it (or none)
            m_results[i] = kNotRun;
            continue;
        }
        if (c.evaluate(a, json, seen)) {
            m_results[i] = kPassed;
            out.accepted |= (c.subject == Check::Subject::Status && !c.negate) ||
                            (c.subject == Check::Subject::RecordedStatus && a.recordedStatus != 0); // as recorded
        } else {
            m_failures.emplace_back(i, seen);
            if (out.failed < 0) {
                out.failed = int(i);
                why = "check \"" + c.name + "\": " + seen;
            }
        }
    }
    return out;
}

const ScriptRun::Test* CheckTally::tests(const StepScriptPlan& sp, const std::vector<ScriptRun::Test>& run)
{
    for (std::size_t k = 0; k < sp.tests.size(); ++k)
        m_results[sp.firstCheck + k] = kNotRun;
    const ScriptRun::Test* first = nullptr;
    for (const ScriptRun::Test& t : run) {
        const int check = checkOf(sp, t.name);
        if (check < 0) {
            m_named.push_back({t.name, t.passed, t.passed ? std::string() : t.error});
        } else {
            std::uint8_t& result = m_results[std::size_t(check)];
            result = result == kFailed || !t.passed ? kFailed : kPassed; // a test of the name that failed fails it
            if (!t.passed)
                m_failures.emplace_back(std::size_t(check), t.error);
        }
        if (!t.passed && !first)
            first = &t;
    }
    return first;
}

void CheckTally::countInto(StepMetrics& m)
{
    for (std::size_t i = 0; i < m_results.size(); ++i)
        if (m_results[i] != kNotRun)
            ++(m_results[i] == kPassed ? m.checks[i].passed : m.checks[i].failed);
    for (const auto& [k, message] : m_failures)
        m.noteMessage(k, message);
    for (const Named& r : m_named) {
        NamedCheckCount& n = m.namedEntry(r.name);
        ++(r.passed ? n.count.passed : n.count.failed);
        if (!r.passed && n.message.empty())
            n.message = utf8Prefix(r.message, kMaxCheckMessageLength);
    }
    drop();
}

void CheckTally::drop()
{
    m_results.clear();
    m_named.clear();
    m_failures.clear();
}

void CheckTally::countTests(const StepScriptPlan& sp, const std::vector<ScriptRun::Test>& run, StepMetrics& m)
{
    for (const ScriptRun::Test& t : run) {
        const int check = checkOf(sp, t.name);
        if (check >= 0) {
            ++(t.passed ? m.checks[std::size_t(check)].passed : m.checks[std::size_t(check)].failed);
            if (!t.passed)
                m.noteMessage(std::size_t(check), t.error);
            continue;
        }
        NamedCheckCount& n = m.namedEntry(t.name);
        ++(t.passed ? n.count.passed : n.count.failed);
        if (!t.passed && n.message.empty())
            n.message = utf8Prefix(t.error, kMaxCheckMessageLength);
    }
}

int CheckTally::checkOf(const StepScriptPlan& sp, const std::string& name)
{
    const std::size_t k = std::size_t(std::find(sp.tests.begin(), sp.tests.end(), name) - sp.tests.begin());
    return k == sp.tests.size() ? -1 : int(sp.firstCheck + k);
}

Verdict answerVerdict(bool statusFailed, const CheckTally::Judged& checks, Verdict script, bool testsVerdict)
{
    if (script == Verdict::ScriptFailed && testsVerdict)
        return script;
    if (statusFailed && !checks.accepted)
        return Verdict::StatusError;
    if (checks.failed >= 0)
        return Verdict::CheckFailed;
    return script;
}

} // namespace stampede
