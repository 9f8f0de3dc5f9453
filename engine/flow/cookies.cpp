#include "cookies.h"

#include "core/text.h"

namespace stampede {

void CookieHook::newIteration(std::uint32_t user, bool fresh)
{
    if (fresh)
        m_jars[user].clear();
}

std::string_view CookieHook::header(const StepCall& call)
{
    m_header = m_jars[call.user].header(call.host(), pathOf(call.target), call.secure(), m_host.unixSeconds());
    return m_header;
}

void CookieHook::beforeSend(const StepCall& call, Outgoing& out)
{
    out.cookie = header(call);
}

StepHook::Next CookieHook::onAnswer(const StepCall& call, const Answer& answer)
{
    if (!answer.headers)
        return Next::Judge;
    const std::int64_t now = m_host.unixSeconds();
    for (const auto& [name, value] : *answer.headers)
        if (equalsNoCase(name, "set-cookie"))
            if (auto c = parseSetCookie(value, now))
                m_jars[call.user].receive(*c, call.host(), pathOf(call.target), now);
    return Next::Judge; // a redirect's Set-Cookie counts as any answer's
}

} // namespace stampede
