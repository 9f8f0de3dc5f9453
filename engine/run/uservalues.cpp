#include "uservalues.h"

#include <algorithm>

namespace stampede {

void UserValues::reset(std::uint32_t users)
{
    m_users.assign(users, {});
    for (Own& u : m_users) {
        u.values.resize(m_plan.variables.size());
        u.isSet.resize(m_plan.variables.size());
        u.saved.resize(m_plan.savedRefs.size());
    }
}

void UserValues::newIteration(std::uint32_t user, bool fresh, const std::vector<SourceCursorPtr>& cursors)
{
    Own& u = m_users[user];
    if (fresh)
        std::fill(u.isSet.begin(), u.isSet.end(), false);
    for (std::size_t k = 0; k < m_plan.savedRefs.size(); ++k) {
        const VarRef ref = m_plan.savedRefs[k];
        u.saved[k].assign(cursors[ref.variable]->value(ref.column));
    }
}

void UserValues::extract(std::uint32_t user, const PlannedStep& st, const AnswerView& a, AnswerJson& json)
{
    Own& u = m_users[user];
    for (const Extractor& x : st.extractors) {
        const bool found = x.extract(a, json, u.values[x.variable]);
        u.isSet[x.variable] = found;
        if (!found)
            u.values[x.variable].clear();
    }
}

const PlannedVariable* UserValues::missing(std::uint32_t user, const PlannedStep& st) const
{
    const Own& u = m_users[user];
    for (const std::uint16_t v : st.extracted)
        if (!u.isSet[v] && m_plan.variables[v].fallback < 0)
            return &m_plan.variables[v];
    return nullptr;
}

bool UserValues::own(std::uint32_t user, VarRef& ref, std::string_view& out) const
{
    const Own& u = m_users[user];
    if (const PlannedVariable& v = m_plan.variables[ref.variable]; v.extracted) {
        if (u.isSet[ref.variable] || v.fallback < 0) {
            out = u.values[ref.variable];
            return true;
        }
        ref = v.fallbackRef(); // not extracted yet: the value it shadows
    }
    if (const std::string* kept = saved(user, ref.variable, ref.column)) {
        out = *kept;
        return true;
    }
    return false;
}

const std::string* UserValues::saved(std::uint32_t user, std::uint16_t variable, int column) const
{
    for (std::size_t k = 0; k < m_plan.savedRefs.size(); ++k)
        if (m_plan.savedRefs[k].variable == variable && m_plan.savedRefs[k].column == column)
            return &m_users[user].saved[k];
    return nullptr;
}

std::map<std::string, std::string> UserValues::extracted(std::uint32_t user) const
{
    std::map<std::string, std::string> out;
    if (user >= m_users.size())
        return out;
    const Own& u = m_users[user];
    for (std::size_t v = 0; v < m_plan.variables.size(); ++v)
        if (m_plan.variables[v].extracted && u.isSet[v])
            out[m_plan.variables[v].name] = u.values[v];
    return out;
}

bool UserValues::current(std::uint32_t user, std::uint16_t variable, int column,
                         const std::vector<SourceCursorPtr>& cursors, std::string& out) const
{
    const PlannedVariable& pv = m_plan.variables[variable];
    if (const std::string* constant = pv.source ? pv.source->constantValue() : nullptr) {
        out = *constant;
        return true;
    }
    if (const std::string* kept = saved(user, variable, column)) {
        out = *kept;
        return true;
    }
    if (variable >= cursors.size() || !cursors[variable])
        return false;
    out.assign(cursors[variable]->value(column));
    return true;
}

} // namespace stampede
