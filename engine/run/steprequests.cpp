#include "steprequests.h"

#include "workerio.h"

#include <algorithm>

namespace stampede {

StepRequests::StepRequests(const ScenarioPlan& plan, UserValues& own, std::uint32_t part, std::uint32_t parts,
                           std::uint64_t seed)
    : m_plan(plan), m_own(own), m_renderer(plan, plan.http == HttpVersion::Http2)
{
    m_cursors.resize(plan.variables.size());
    for (std::size_t i = 0; i < plan.variables.size(); ++i) {
        const auto& v = plan.variables[i];
        if (!v.used || v.extracted)
            continue;
        try {
            m_cursors[i] = v.source->cursor(part, parts, seed + i * 7919);
        } catch (const PartitionError& e) {
            throw PartitionError("variable \"" + v.name + "\": " + e.what());
        }
        m_usedVariables.push_back(std::uint16_t(i));
        if (v.source->checksOut())
            m_checkouts.push_back(std::uint16_t(i));
    }
    // account pools are drawn first: a user that waits for one has drawn nothing else
    std::stable_partition(m_usedVariables.begin(), m_usedVariables.end(),
                          [this](std::uint16_t v) { return m_plan.variables[v].source->checksOut(); });
    for (const PlannedStep& st : plan.steps)
        m_outgoing.push_back(outgoingOf(st));
}

StepRequests::~StepRequests() = default;

void StepRequests::reset(std::uint32_t users, bool copies)
{
    m_users.assign(users, {});
    if (m_renderer.anyTemplated() || copies)
        for (auto& steps : m_users)
            steps.resize(m_plan.steps.size());
}

bool StepRequests::nextValues(std::uint32_t user, std::size_t& exhausted)
{
    for (const std::uint16_t v : m_usedVariables)
        if (!m_cursors[v]->next(user)) {
            exhausted = v;
            return false;
        }
    // every templated step now, while the cursors hold this iteration's values (one that reads extracted values
    // waits until it is sent)
    for (std::size_t i = 0; i < m_plan.steps.size(); ++i)
        if (m_renderer.templated(i) && m_plan.steps[i].extracted.empty())
            m_renderer.render(i, *this, m_users[user][i]);
    return true;
}

void StepRequests::skip(std::uint64_t iterations)
{
    for (std::uint64_t k = 0; k < iterations; ++k)
        for (const std::uint16_t v : m_usedVariables)
            if (!m_plan.variables[v].source->checksOut()) // an account pool holds nothing for iterations not run
                m_cursors[v]->next(0);
}

void StepRequests::endIteration(std::uint32_t user)
{
    for (const std::uint16_t v : m_checkouts)
        m_cursors[v]->release(user);
}

void StepRequests::record(std::uint32_t user, std::size_t step, const TrafficRecord& r, std::string_view traceparent)
{
    m_renderer.renderRecord(step, r, m_users[user][step], traceparent);
}

const RenderedRequest& StepRequests::renderNow(std::uint32_t user, std::size_t step)
{
    m_lookup = int(user);
    m_renderer.render(step, *this, m_users[user][step]);
    m_lookup = -1;
    return m_users[user][step];
}

void StepRequests::forgetCopy(std::uint32_t user, std::size_t step)
{
    if (!m_renderer.templated(step) && step < m_users[user].size()) {
        m_users[user][step].wire.clear(); // capacity kept: no allocation
        m_users[user][step].values.clear();
    }
}

RenderedRequest& StepRequests::copyOf(std::uint32_t user, std::size_t step, const RenderedRequest& going)
{
    RenderedRequest& mine = m_users[user][step];
    if (&going != &mine)
        mine = going; // the fixed request: this user's copy takes the changes
    return mine;
}

const RenderedRequest& StepRequests::sent(std::uint32_t user, std::size_t step) const
{
    const auto& steps = m_users[user];
    const bool own =
        step < steps.size() && (m_renderer.templated(step) || !steps[step].wire.empty() || !steps[step].values.empty());
    return own ? steps[step] : m_renderer.fixed(step);
}

std::string_view StepRequests::value(VarRef ref) const
{
    std::string_view own;
    if (m_lookup >= 0 && m_own.own(std::uint32_t(m_lookup), ref, own)) // a step rendered when sent
        return own;
    return m_cursors[ref.variable]->value(ref.column);
}

} // namespace stampede
