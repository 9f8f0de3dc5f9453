#pragma once
// The replay pacer: recorded requests started at their own (compressed)
// times, each copy of an amplified request in turn. This worker's share is a
// cursor over its requests' due times in order (ReplaySchedule): one sorted
// list, no timer per request, and the loop wakes for the next due time.
// A request that finds every connection busy waits in a bounded backlog
// (counted late, measured from its intended time) as in the open model.
// The breaker's degrade sends that share of the requests (evenly spread);
// 0 pauses, and what falls due during a pause is not sent.
#include "pacer.h"
#include "plan/replaystep.h"

namespace stampede {

class ReplayPacer final : public Pacer
{
public:
    ReplayPacer(const ScenarioPlan& plan, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                std::uint32_t parts);
    void begin(Nanos start) override { m_start = start; }
    void onTime(Nanos now) override;
    void iterationDone(std::uint32_t slot, Nanos now, bool failed) override;
    void setLevel(double factor, Nanos now) override;
    std::uint64_t abandon() override;
    Nanos wakeBy(Nanos limit) const override;
    bool drained() const override { return m_backlog.empty(); }
    std::uint32_t activeUsers() const override { return std::uint32_t(m_slots - m_idle.size()); }

private:
    struct Waiting
    {
        ReplaySchedule::Due due;
        Nanos intended = 0;
    };
    bool startOn(std::uint32_t slot, const Waiting& w, Nanos now);
    bool shed(); // the breaker's degrade: whether this request is left out

    const ScenarioPlan& m_plan;
    PacerHost& m_host;
    std::uint32_t m_slots;
    ReplaySchedule m_schedule;
    Nanos m_start = 0;
    bool m_stopped = false;
    double m_factor = 1;
    double m_credit = 0;
    std::vector<std::uint32_t> m_idle;
    Backlog<Waiting> m_backlog;
};

} // namespace stampede
