#pragma once
// The user's cookie jar (a scenario's "cookies": true, a collection run): the
// cookies its answers set go back on its later requests to the same server,
// judged by the run's clock; the open model's every iteration starts without.
#include "check/cookies.h"
#include "stephook.h"

#include <vector>

namespace stampede {

class CookieHook final : public StepHook
{
public:
    CookieHook(std::uint32_t users, FlowHost& host) : m_jars(users), m_host(host) {}
    void newIteration(std::uint32_t user, bool fresh) override;
    void beforeSend(const StepCall& call, Outgoing& out) override;
    Next onAnswer(const StepCall& call, const Answer& answer) override;
    // The user's Cookie header for the call's target on its server ("" when none; pm.cookies reads it). It stays
    // valid until the next call.
    std::string_view header(const StepCall& call);

private:
    std::vector<CookieJar> m_jars;
    std::string m_header; // the request's being sent
    FlowHost& m_host;
};

} // namespace stampede
