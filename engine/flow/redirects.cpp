#include "redirects.h"

#include "check/checks.h"
#include "core/text.h"
#include "core/url.h"
#include "core/wiretext.h"

namespace stampede {

std::optional<std::string> RedirectHook::target(std::string_view location, const StepCall& st, std::string_view current)
{
    if (location.empty())
        return std::nullopt;
    if (location.find("://") != std::string_view::npos) {
        std::string why;
        const auto u = Url::parse(location, why);
        if (!u || u->port != st.port() || (u->scheme == "https") != st.secure())
            return std::nullopt;
        if (!equalsNoCase(u->host, st.host()))
            return std::nullopt;
        return u->target;
    }
    if (location.substr(0, 2) == "//")
        return std::nullopt; // scheme-relative: another server
    location = location.substr(0, location.find('#'));
    std::string out;
    if (location.empty() || location.front() != '/') {
        const std::string_view dir = pathOf(current).substr(0, pathOf(current).rfind('/') + 1);
        out = dir.empty() ? "/" : std::string(dir);
    }
    if (!appendTarget(out, location)) // as any request's target (wiretext.h)
        return std::nullopt;
    return out;
}

void RedirectHook::beforeSend(const StepCall& call, Outgoing&)
{
    if (!call.hop)
        m_hops[call.user] = 0; // the step's own send: its hops start again
}

StepHook::Next RedirectHook::onAnswer(const StepCall& call, const Answer& answer)
{
    const int status = answer.status;
    if (!(status == 301 || status == 302 || status == 303 || status == 307 || status == 308))
        return Next::Judge;
    if (m_hops[call.user] >= m_max || !answer.headers)
        return Next::Judge; // past the hops allowed: the redirect is the answer
    AnswerView headers;
    headers.headers = answer.headers;
    const std::string* location = findHeader(headers, "location");
    const auto to = location ? target(*location, call, call.target) : std::nullopt;
    if (!to)
        return Next::Judge;           // none, or to another server: the redirect is the answer
    m_host.countAnswer(call, answer); // the hop's answer is a request of the step
    ++m_host.stepMetrics(call.step, call.now).counters.redirects;
    ++m_hops[call.user];
    m_host.sendAgain(call, *to, status <= 303);
    return Next::Taken;
}

} // namespace stampede
