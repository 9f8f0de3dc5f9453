#pragma once
// Each user's requests, out of the worker: the plan's data cursors (this part's
// stride of each variable's values) and each step's request as a user sends
// it: the fixed one (rendered once), one rendered for the iteration from the
// cursors' values as it begins, one rendered when sent from the user's own
// values (what its answers extracted: uservalues.h), the user's own copy that
// a pre-request script changed, or a recorded request as it was. Strings keep
// their capacity between iterations: nothing is allocated in steady state.
#include "core/parametersource.h"
#include "net/outgoing.h"
#include "plan/scenarioplan.h"
#include "requestrenderer.h"
#include "traffic/trafficrecord.h"
#include "uservalues.h"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

namespace stampede {

class StepRequests final : private ValueLookup
{
public:
    // The requests of `plan` and the cursors of its variables for `part` of `parts` (throws PartitionError,
    // naming the variable, when this part has no values); a step rendered when sent reads `own` first.
    StepRequests(const ScenarioPlan& plan, UserValues& own, std::uint32_t part, std::uint32_t parts,
                 std::uint64_t seed);
    ~StepRequests() override;
    // Room for `users` users; `copies`: each keeps a copy of every step of its own (a script may change it).
    void reset(std::uint32_t users, bool copies);
    // The cursors, by variable index (null for a variable no step reads).
    const std::vector<SourceCursorPtr>& cursors() const { return m_cursors; }

    // A new iteration of `user`: every cursor takes its next value, and the steps templated on them are rendered
    // with it; false when one ran out, `exhausted` its variable's index.
    bool beginIteration(std::uint32_t user, std::size_t& exhausted)
    {
        return m_usedVariables.empty() || nextValues(user, exhausted);
    }
    // Iterations passed over unsent: a share taken over mid-run goes on where the plan had its data.
    void skip(std::uint64_t iterations);
    // After beginIteration failed on `variable`: whether it is an account pool with no row free now (wait).
    bool busy(std::size_t variable) const { return m_cursors[variable] && m_cursors[variable]->busy(); }
    // `user`'s iteration ended: the rows of account pools it held are free.
    void endIteration(std::uint32_t user);
    bool checksOut() const { return !m_checkouts.empty(); }
    // The whole value of `variable` in the iteration just begun.
    std::string_view current(std::size_t variable) const { return m_cursors[variable]->value(-1); }
    // A recorded request as `user`'s one request of its iteration, to `step`'s server (RequestRenderer's).
    void record(std::uint32_t user, std::size_t step, const TrafficRecord& r, std::string_view traceparent);

    // How `step`'s request goes to the sessions (its protocol, server, method, target), with the request `user`'s
    // iteration began with.
    Outgoing outgoing(std::uint32_t user, std::size_t step) const
    {
        Outgoing o = m_outgoing[step];
        o.request = &request(user, step);
        return o;
    }
    // The request `step` sends for `user` as its iteration began: its own rendering, or the fixed one.
    const RenderedRequest& request(std::uint32_t user, std::size_t step) const
    {
        return m_renderer.templated(step) ? m_users[user][step] : m_renderer.fixed(step);
    }
    // `step` rendered for `user` now, with its own values (a step that uses extracted ones): the one to send.
    const RenderedRequest& renderNow(std::uint32_t user, std::size_t step);
    // Before a pre-request script runs: a copy of a fixed step that an earlier one changed is forgotten (its
    // capacity kept), so the fixed request goes unless this one changes it.
    void forgetCopy(std::uint32_t user, std::size_t step);
    // The user's own copy of `step` to change, made from `going` (the request as it would go).
    RenderedRequest& copyOf(std::uint32_t user, std::size_t step, const RenderedRequest& going);
    // The request as it went for `user`: its own (rendered, or a changed copy), else the fixed one.
    const RenderedRequest& sent(std::uint32_t user, std::size_t step) const;

private:
    bool nextValues(std::uint32_t user, std::size_t& exhausted);
    std::string_view value(VarRef ref) const override;

    const ScenarioPlan& m_plan;
    UserValues& m_own;
    RequestRenderer m_renderer;
    std::vector<SourceCursorPtr> m_cursors;            // by variable index; null for unused variables
    std::vector<std::uint16_t> m_usedVariables;        // those a step reads (account pools first)
    std::vector<std::uint16_t> m_checkouts;            // the account pools among them
    std::vector<std::vector<RenderedRequest>> m_users; // by user, per step (none: no step is ever its own)
    std::vector<Outgoing> m_outgoing;                  // per step: where and how its request goes
    int m_lookup = -1;                                 // value(): this user's own values first
};

} // namespace stampede
