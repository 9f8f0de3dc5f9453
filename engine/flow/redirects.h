#pragma once
// Redirects followed (a scenario's "followRedirects": N hops, a collection
// run's 10): a 301, 302, 303, 307 or 308 to the same server is sent again as
// a hop of the same step (301-303 as GET without the body), each hop's answer
// counted as a request of the step and as a redirect; past N hops, or to
// another server, the redirect is the step's answer.
#include "stephook.h"

#include <optional>
#include <vector>

namespace stampede {

class RedirectHook final : public StepHook
{
public:
    RedirectHook(std::uint32_t users, std::uint32_t maxHops, FlowHost& host)
        : m_hops(users), m_max(maxHops), m_host(host)
    {
    }
    void beforeSend(const StepCall& call, Outgoing& out) override;
    Next onAnswer(const StepCall& call, const Answer& answer) override;

    // Where a Location header sends a request for `current` on the call's server: a target there, or nothing
    // (another server's, which is not followed, or none).
    static std::optional<std::string> target(std::string_view location, const StepCall& call, std::string_view current);

private:
    std::vector<std::uint32_t> m_hops; // per user: hops of the step in flight
    std::uint32_t m_max;
    FlowHost& m_host;
};

} // namespace stampede
