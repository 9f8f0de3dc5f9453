#include "requestprep.h"

namespace stampede {

RequestPrep::Ready RequestPrep::ready(std::uint32_t user, std::size_t step, Outgoing& o, IntervalMetrics& second,
                                      ErrorClass& error, std::string& why)
{
    error = ErrorClass::Extract;
    if (!m_scripts || !ScriptStep::hasPre(m_plan.steps[step]))
        return render(user, step, o, why) ? Ready::Send : Ready::Refused;
    error = ErrorClass::Script;
    switch (m_scripts->runPre(user, step, second, why)) {
    case ScriptStep::Pre::Failed:
        return Ready::Refused;
    case ScriptStep::Pre::Skip:
        return Ready::Skip;
    case ScriptStep::Pre::Send:
        break;
    }
    m_requests.forgetCopy(user, step); // the fixed request goes, unless this run changes it
    if (!render(user, step, o, why)) {
        error = ErrorClass::Extract;
        return Ready::Refused;
    }
    if (!o.request->failure.empty() || !m_scripts->changesRequest(user))
        return Ready::Send;
    RenderedRequest& mine = m_requests.copyOf(user, step, *o.request);
    if (!m_scripts->change(user, step, mine, why))
        return Ready::Refused;
    o.request = &mine; // the target it may have changed is the one its hooks see (StepHooks::beforeSend)
    return Ready::Send;
}

// Rendered now when the step uses extracted values; false when one is unset.
bool RequestPrep::render(std::uint32_t user, std::size_t step, Outgoing& o, std::string& why)
{
    const PlannedStep& st = m_plan.steps[step];
    if (st.extracted.empty())
        return true;
    if (const PlannedVariable* v = m_own.missing(user, st)) {
        if (v->shared) {
            why = "${" + v->name + "} has no value: the run's shared data has no text \"" + v->name.substr(7) +
                  "\" (a script's pm.shared.set writes it)";
            return false;
        }
        why = "${" + v->name + "} has no value: no earlier answer of this " +
              (m_plan.load->slotIsUser() ? "user" : "iteration") + " gave it";
        return false;
    }
    o.request = &m_requests.renderNow(user, step);
    return true;
}

} // namespace stampede
