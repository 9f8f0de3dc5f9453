#pragma once
// Replay: recorded requests started at their own (compressed) times, each
// copy of an amplified request in turn. A worker's share is a cursor over its
// requests' due times in order (ReplaySchedule): one sorted list, no timer per
// request, and the loop wakes for the next due time. A request that finds
// every connection busy waits in a bounded backlog (counted late, measured
// from its intended time) as in the open model. The breaker's degrade sends
// that share of the requests (evenly spread); 0 pauses, and what falls due
// during a pause is not sent.
#include "executor.h"
#include "traffic/replayplan.h"

#include <memory>
#include <vector>

namespace stampede {

struct ReplayPlan
{
    std::vector<TrafficRecord> records; // in time order; targets in origin form ("/a?b")
    ReplayOptions options;
    std::vector<std::uint16_t> stepOf;  // by record: the planned step of its server
    std::vector<std::uint64_t> planned; // [s - 1]: requests planned in second s, by every engine together
    std::uint64_t plannedIn(std::uint32_t second) const
    {
        return second && second <= planned.size() ? planned[second - 1] : 0;
    }
};

class ReplayExecutor final : public LoadExecutor
{
public:
    ReplayExecutor(std::shared_ptr<const ReplayPlan> replay, std::uint32_t backlogLimit)
        : m_replay(std::move(replay)), m_backlogLimit(backlogLimit)
    {
    }
    const ReplayPlan& replay() const { return *m_replay; }
    LoadModel model() const override { return LoadModel::Replay; }
    PacerPtr pacer(PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts,
                   Nanos duration) const override;
    std::uint32_t slotsOf(std::uint32_t pool, std::uint32_t part, std::uint32_t parts) const override
    {
        return std::max(1u, pool / parts + (part < pool % parts ? 1 : 0));
    }
    std::uint32_t pool(std::uint32_t connections) const override { return connections ? connections : 50; }
    bool paced() const override { return true; }
    bool slotIsUser() const override { return false; }
    double plannedBy(Nanos until) const override;

private:
    std::shared_ptr<const ReplayPlan> m_replay;
    std::uint32_t m_backlogLimit;
};

class ReplayPacer final : public Pacer
{
public:
    ReplayPacer(const ReplayPlan& replay, std::uint32_t backlogLimit, Nanos duration, PacerHost& host,
                std::uint32_t slots, std::uint32_t part, std::uint32_t parts);
    void begin(Nanos start) override { m_start = start; }
    std::uint64_t beginFrom(Nanos start, Nanos from) override;
    void onTime(Nanos now) override;
    void iterationDone(std::uint32_t slot, Nanos now, bool failed) override;
    void setLevel(double factor, Nanos now) override;
    std::uint64_t abandon() override;
    Nanos wakeBy(Nanos limit) const override;
    bool drained() const override { return m_backlog.empty(); }
    std::uint32_t activeUsers() const override { return m_slots - m_idle.count(); }

private:
    struct Waiting
    {
        ReplaySchedule::Due due;
        Nanos intended = 0;
    };
    bool startOn(std::uint32_t slot, const Waiting& w, Nanos now);
    bool startIteration(std::uint32_t slot, const Waiting& w, Nanos now);
    bool shed(); // the breaker's degrade: whether this request is left out

    const ReplayPlan& m_replay;
    Nanos m_duration;
    PacerHost& m_host;
    std::uint32_t m_slots;
    ReplaySchedule m_schedule;
    Nanos m_start = 0;
    bool m_stopped = false;
    double m_factor = 1;
    double m_credit = 0;
    IdleSlots m_idle;
    Backlog<Waiting> m_backlog;
    TrafficRecord m_copy; // an amplified copy, while it is started
};

} // namespace stampede
