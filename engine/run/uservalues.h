#pragma once
// Each user's own values, out of the worker: what its answers' extractors
// took (set or not; a script's pm.*.set writes the same), and the values of
// the iteration that a step rendered when sent reads (plan.savedRefs: a data
// set's row or a generated value as the iteration began, not as the cursor
// has moved since). A step rendered when sent looks its names up here first.
#include "check/checks.h"
#include "core/parametersource.h"
#include "core/template.h"
#include "plan/scenarioplan.h"

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class UserValues
{
public:
    explicit UserValues(const ScenarioPlan& plan) : m_plan(plan) {}
    // Room for `users` users (none until then: a plan without flows keeps no values).
    void reset(std::uint32_t users);
    // A new iteration of `user`: in the open model (`fresh`: a slot is an iteration's place) it has extracted
    // nothing yet; the values a late-rendered step reads are taken from the cursors now.
    void newIteration(std::uint32_t user, bool fresh, const std::vector<SourceCursorPtr>& cursors);
    // What the step's extractors take from `answer` (a value not found is unset).
    void extract(std::uint32_t user, const PlannedStep& step, const AnswerView& answer, AnswerJson& json);
    // The first of the step's extracted variables that the user has no value for and nothing to fall back on
    // (null: it has them all).
    const PlannedVariable* missing(std::uint32_t user, const PlannedStep& step) const;
    // `ref`'s value when it is the user's own (extracted, or kept as the iteration began): true with `out`;
    // else false, with `ref` the variable to read now (an extracted one not yet set reads what it shadows).
    bool own(std::uint32_t user, VarRef& ref, std::string_view& out) const;
    // The value of `variable` (`column`) kept as the iteration began (null: not one a late step reads).
    const std::string* saved(std::uint32_t user, std::uint16_t variable, int column) const;
    // A value the user reads now that it did not extract (a script's pm.variables): a constant, the value kept
    // as the iteration began, or its cursor's (`cursors`, by variable index); false when it has none.
    bool current(std::uint32_t user, std::uint16_t variable, int column, const std::vector<SourceCursorPtr>& cursors,
                 std::string& out) const;
    // A script's view: the extracted values and whether each is set, by variable index.
    std::vector<std::string>& values(std::uint32_t user) { return m_users[user].values; }
    std::vector<bool>& isSet(std::uint32_t user) { return m_users[user].isSet; }
    // The values `user` extracted, by name (a plan's setup hands them on).
    std::map<std::string, std::string> extracted(std::uint32_t user) const;

private:
    struct Own
    {
        std::vector<std::string> values; // by variable index
        std::vector<bool> isSet;
        std::vector<std::string> saved; // by plan.savedRefs
    };
    const ScenarioPlan& m_plan;
    std::vector<Own> m_users;
};

} // namespace stampede
