#include "sharedread.h"

namespace stampede {

SharedRead::SharedRead(std::uint32_t users, const ScenarioPlan& plan, SharedAccess& access, FlowHost& host)
    : m_plan(plan), m_access(access), m_host(host), m_users(users)
{
    m_bell->ring = host.doorbell();
}

SharedRead::~SharedRead()
{
    std::lock_guard lock(m_bell->mutex);
    m_bell->ring = nullptr;
}

StepHook::Begin SharedRead::begin(const StepCall& call, Nanos)
{
    User& u = m_users[call.user];
    if (std::exchange(u.answered, false))
        return Begin::Go;
    std::vector<SharedOp> ops;
    u.variables.clear();
    for (const std::uint16_t v : call.plan.extracted)
        if (const PlannedVariable& pv = m_plan.variables[v]; pv.shared) {
            ops.push_back({SharedOp::Kind::Get, pv.name.substr(7), {}, 1});
            u.variables.push_back(v);
        }
    if (ops.empty())
        return Begin::Go;
    u.ticket = m_access.ask(std::move(ops), [bell = m_bell] {
        std::lock_guard lock(bell->mutex);
        if (bell->ring)
            bell->ring();
    });
    u.since = call.now;
    m_held.push_back(call.user);
    return Begin::Held;
}

void SharedRead::onTurn(Nanos now)
{
    for (std::size_t k = 0; k < m_held.size();) {
        const std::uint32_t user = m_held[k];
        User& u = m_users[user];
        const bool ready = u.ticket->ready();
        if (!ready && now - u.since < kSharedReadWait) {
            ++k;
            continue;
        }
        if (!ready)
            u.ticket->abandon();
        const bool answered = ready && u.ticket->error().empty() && u.ticket->results().size() == u.variables.size();
        for (std::size_t j = 0; j < u.variables.size(); ++j) {
            const SharedResult* r = answered ? &u.ticket->results()[j] : nullptr;
            m_host.setOwnValue(user, u.variables[j], r && r->ok && r->found ? &r->value : nullptr);
        }
        u.ticket.reset();
        u.answered = true;
        m_held[k] = m_held.back();
        m_held.pop_back();
        m_host.resume(user, now); // its step begins again, and this hook lets it go
    }
}

void SharedRead::letGo(std::vector<std::uint32_t>& users)
{
    for (const std::uint32_t user : m_held) {
        if (m_users[user].ticket)
            m_users[user].ticket->abandon();
        m_users[user] = {};
        users.push_back(user);
    }
    m_held.clear();
}

} // namespace stampede
