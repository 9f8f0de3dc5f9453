#pragma once
// A step's request made ready to go, out of the worker, when the plan has
// flows: its pre-request script run first (scriptstep.h), the request rendered
// now when it uses extracted values (refused when one is unset: no earlier
// answer of the user gave it), and what the script changed applied to the
// user's own copy (the user's alone; the fixed request goes unless this run
// changes it).
#include "metrics/runmetrics.h"
#include "net/outgoing.h"
#include "plan/scenarioplan.h"
#include "scriptstep.h"
#include "steprequests.h"
#include "uservalues.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace stampede {

class RequestPrep
{
public:
    RequestPrep(const ScenarioPlan& plan, StepRequests& requests, const UserValues& own)
        : m_plan(plan), m_requests(requests), m_own(own)
    {
    }
    // The steps' scripts (null: none), made on the worker's thread when it runs.
    void setScripts(ScriptStep* scripts) { m_scripts = scripts; }

    enum class Ready
    {
        Send,   // `o.request` is the one to send
        Skip,   // a pre-request script said pm.execution.skipRequest(): the step is done unsent
        Refused // not sent: `error` and `why` say why (counted as the step's error)
    };
    // `step`'s request for `user` into `o` (whose request is the one its iteration began with); a pre-request
    // script's pm.tests and console lines go into `second`.
    Ready ready(std::uint32_t user, std::size_t step, Outgoing& o, IntervalMetrics& second, ErrorClass& error,
                std::string& why);

private:
    bool render(std::uint32_t user, std::size_t step, Outgoing& o, std::string& why);

    const ScenarioPlan& m_plan;
    StepRequests& m_requests;
    const UserValues& m_own;
    ScriptStep* m_scripts = nullptr;
};

} // namespace stampede
