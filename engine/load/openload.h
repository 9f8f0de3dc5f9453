#pragma once
// The open model: arrivals at the intended times of the ArrivalSchedule,
// whatever the server does. An arrival that finds every slot busy waits in a
// bounded backlog (counted late) and is measured from its intended time; one
// that finds the backlog full is dropped (counted).
#include "arrivalschedule.h"
#include "executor.h"

#include <optional>

namespace stampede {

struct OpenLoad
{
    StageProfile profile;               // the rate over time
    std::uint32_t backlogLimit = 10000; // arrivals waiting for a slot, over the whole run
};

class OpenExecutor final : public LoadExecutor
{
public:
    explicit OpenExecutor(OpenLoad load) : m_load(std::move(load)) {}
    const OpenLoad& load() const { return m_load; }
    LoadModel model() const override { return LoadModel::Open; }
    PacerPtr pacer(PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts,
                   Nanos duration) const override;
    std::uint32_t slotsOf(std::uint32_t pool, std::uint32_t part, std::uint32_t parts) const override;
    std::uint32_t pool(std::uint32_t connections) const override { return connections ? connections : 50; }
    bool paced() const override { return true; }
    bool slotIsUser() const override { return false; }
    std::uint32_t slotsPerConnection(std::uint32_t streams) const override { return std::max(1u, streams); }
    double plannedBy(Nanos until) const override { return m_load.profile.cumulative(until); }
    const StageProfile* profile() const override { return &m_load.profile; }

private:
    OpenLoad m_load;
};

class OpenPacer final : public Pacer
{
public:
    OpenPacer(const OpenLoad& load, Nanos duration, PacerHost& host, std::uint32_t slots, std::uint32_t part,
              std::uint32_t parts);
    void begin(Nanos start) override;
    std::uint64_t beginFrom(Nanos start, Nanos from) override;
    void onTime(Nanos now) override;
    void iterationDone(std::uint32_t slot, Nanos now, bool failed) override;
    void setLevel(double factor, Nanos now) override;
    std::uint64_t abandon() override;
    Nanos wakeBy(Nanos limit) const override;
    bool drained() const override { return m_backlog.empty(); }
    std::uint32_t activeUsers() const override { return m_slots - m_idle.count(); }

private:
    void planNext();
    bool startOn(std::uint32_t slot, Nanos intended, Nanos now);

    Nanos m_duration;
    PacerHost& m_host;
    std::uint32_t m_slots;
    ArrivalSchedule m_schedule;
    Nanos m_start = 0;
    std::optional<Nanos> m_next; // the next arrival, relative to the start
    IdleSlots m_idle;
    Backlog<Nanos> m_backlog; // intended times (absolute)
};

} // namespace stampede
