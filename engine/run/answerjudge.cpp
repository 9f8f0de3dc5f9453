#include "answerjudge.h"

#include "check/contentcoding.h"
#include "scriptstep.h"

namespace stampede {

AnswerView AnswerJudge::view(const PlannedStep& step, const Answer& answer, Nanos elapsed)
{
    AnswerView a;
    a.status = answer.code;
    a.statusName = answer.statusName;
    a.codeName = answer.codeName;
    a.elapsedNanos = elapsed;
    if (!answer.headers)
        return a;
    a.headers = answer.headers;
    a.trailers = answer.trailers;
    a.body = *answer.body;
    if (!(step.needs & kNeedsBody))
        return a;
    if (step.codec) {
        step.codec->decode(*answer.body, m_decoded);
        a.body = m_decoded;
    } else {
        a.body = decodedBody(a, m_decoded);
    }
    return a;
}

Verdict AnswerJudge::judge(const Call& call, const AnswerView& a, bool statusFailed, std::string& why)
{
    const PlannedStep& st = m_plan.steps[call.step];
    AnswerJson json(m_json, a.body);
    const CheckTally::Judged checks = m_tally.judge(st, a, json, why);
    Verdict script = Verdict::Pass;
    std::string scriptWhy;
    if (m_scripts && ScriptStep::hasTest(st))
        m_scripts->runTest(call.user, call.step, a, call.cookies, call.sent, call.second, script, scriptWhy);
    const Verdict verdict = answerVerdict(statusFailed, checks, script, m_plan.testsVerdict);
    if (verdict == Verdict::StatusError)
        why.clear();
    else if (verdict != Verdict::Pass && !(verdict == Verdict::CheckFailed && checks.failed >= 0))
        why = std::move(scriptWhy); // the script's, unless a check of the step's own failed first
    else if (verdict == Verdict::Pass)
        m_values.extract(call.user, st, a, json);
    return verdict;
}

void AnswerJudge::judgeNoAnswer(const Call& call, Nanos elapsed)
{
    const PlannedStep& st = m_plan.steps[call.step];
    if (!m_plan.testsVerdict || !m_scripts || !ScriptStep::hasTest(st))
        return;
    static const HeaderPairs none;
    AnswerView a;
    a.headers = &none;
    a.elapsedNanos = elapsed;
    m_tally.openNotRun(st.checks.size());
    Verdict verdict = Verdict::Failed; // the request's failure stands
    std::string why;
    m_scripts->runTest(call.user, call.step, a, call.cookies, call.sent, call.second, verdict, why);
}

std::string statusAccount(const Answer& answer)
{
    if (answer.codeName.empty())
        return {};
    std::string why(answer.statusName);
    why += ' ';
    why += std::to_string(answer.code);
    why += ' ';
    why += answer.codeName;
    if (!answer.statusMessage.empty()) {
        why += ": ";
        why += answer.statusMessage;
    }
    return why;
}

namespace {

// A sample of `step`'s error of class `c` in `second`, with its account and trace (its status, head and body are
// the caller's).
ErrorSample sampleOf(const IntervalMetrics& second, std::uint32_t step, ErrorClass c, const std::string& why,
                     std::string_view trace)
{
    ErrorSample e;
    e.step = step;
    e.second = second.second;
    e.errorClass = c;
    e.detail = why;
    e.trace = trace;
    return e;
}

} // namespace

void keepRawSample(IntervalMetrics& second, std::uint32_t step, ErrorClass c, int status, std::string_view raw,
                   const std::string& why, std::string_view trace)
{
    if (sampleBudgetSpent(second.samples, step, c))
        return;
    ErrorSample e = sampleOf(second, step, c, why, trace);
    e.status = status;
    const auto headEnd = raw.find("\r\n\r\n");
    e.head = raw.substr(0, headEnd);
    if (headEnd != std::string::npos)
        e.body = raw.substr(headEnd + 4, kSampleBodyLimit);
    second.samples.push_back(std::move(e));
}

void keepAnswerSample(IntervalMetrics& second, std::uint32_t step, ErrorClass c, const AnswerView& a,
                      const std::string& why, std::string_view trace)
{
    if (sampleBudgetSpent(second.samples, step, c))
        return;
    ErrorSample e = sampleOf(second, step, c, why, trace);
    e.status = a.codeName.empty() ? a.status : 0; // a sample's status is HTTP's: a protocol's own code is in its head
    e.head.assign(a.statusName); // appended part by part: GCC 12 warns falsely on a chain of + (-Wrestrict)
    e.head += ": ";
    e.head += std::to_string(a.status);
    if (!a.codeName.empty()) {
        e.head += ' ';
        e.head += a.codeName;
    }
    if (a.headers)
        for (const auto& [name, value] : *a.headers)
            e.head += "\r\n" + name + ": " + value;
    e.body = std::string(a.body.substr(0, kSampleBodyLimit));
    second.samples.push_back(std::move(e));
}

} // namespace stampede
