#pragma once
// Groups (a scenario step's "group", JMeter's transaction controller): the
// consecutive steps of a group, timed and counted as one transaction per
// iteration, from its first step's intended start to the end of its last
// step's answer, failed when any of its steps failed (a retried try is not a
// failure; the try that is counted is). The transaction is counted when the
// user moves to a step of another group or none, or its iteration ends (the
// second it is counted in is that one's).
#include "stephook.h"

#include <vector>

namespace stampede {

class GroupHook final : public StepHook
{
public:
    GroupHook(std::uint32_t users, FlowHost& host) : m_users(users), m_host(host) {}
    Begin begin(const StepCall& call, Nanos intended) override;
    void settled(const StepCall& call, bool failed) override;
    void iterationEnds(std::uint32_t user, Nanos now) override;

private:
    struct Visit
    {
        int group = -1; // the group the user is in (-1: none)
        Nanos start = 0;
        Nanos end = 0; // the end of its last step so far
        bool failed = false;
    };
    void leave(Visit& v, Nanos now);

    std::vector<Visit> m_users;
    FlowHost& m_host;
};

} // namespace stampede
