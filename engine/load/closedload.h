#pragma once
// The closed model: virtual users, each running its iteration, thinking, and
// running again; the number taking part follows the planned level. With
// per-user iterations (IterationsExecutor) each user makes its N iterations
// and the run ends when every user has.
#include "executor.h"

#include <queue>
#include <vector>

namespace stampede {

struct ClosedLoad
{
    StageProfile profile;         // users over time
    Nanos thinkTime = 0;          // pause after each iteration
    Nanos pacing = 0;             // an iteration starts at least this long after the previous one began
    std::uint32_t iterations = 0; // per virtual user (0: until the duration ends)
};

class ClosedExecutor : public LoadExecutor
{
public:
    explicit ClosedExecutor(ClosedLoad load) : m_load(std::move(load)) {}
    const ClosedLoad& load() const { return m_load; }
    LoadModel model() const override { return LoadModel::Closed; }
    PacerPtr pacer(PacerHost& host, std::uint32_t slots, std::uint32_t part, std::uint32_t parts,
                   Nanos duration) const override;
    std::uint32_t slotsOf(std::uint32_t pool, std::uint32_t part, std::uint32_t parts) const override
    {
        return pool > part ? (pool - part + parts - 1) / parts : 0;
    }
    std::uint32_t pool(std::uint32_t /*connections*/) const override;
    bool paced() const override { return false; }
    bool slotIsUser() const override { return true; }
    double plannedBy(Nanos /*until*/) const override { return 0; }
    const StageProfile* profile() const override { return &m_load.profile; }

protected:
    ClosedLoad m_load;
};

// Each virtual user makes `iterations` iterations; the run ends when all have
// (or at its duration, a bound).
class IterationsExecutor final : public ClosedExecutor
{
public:
    explicit IterationsExecutor(ClosedLoad load) : ClosedExecutor(std::move(load)) {}
    LoadModel model() const override { return LoadModel::Iterations; }
    std::uint32_t iterations() const { return m_load.iterations; }
};

class ClosedPacer final : public Pacer
{
public:
    ClosedPacer(const ClosedLoad& load, Nanos duration, PacerHost& host, std::uint32_t slots, std::uint32_t part,
                std::uint32_t parts);
    void begin(Nanos start) override { m_start = start; }
    void onTime(Nanos now) override;
    void onTick(Nanos now) override;
    void iterationDone(std::uint32_t slot, Nanos now, bool failed) override;
    void setLevel(double factor, Nanos now) override;
    void retire(std::uint32_t slot) override { m_users[slot].retired = true; }
    std::uint64_t abandon() override
    {
        m_stopping = true;
        return 0;
    }
    Nanos wakeBy(Nanos limit) const override;
    bool drained() const override { return true; }
    std::uint32_t activeUsers() const override { return m_activeUsers; }
    bool finished() const override { return m_load.iterations && m_usersDone == m_users.size(); }

private:
    struct User
    {
        bool active = false;          // part of the current level
        bool waiting = false;         // thinking
        bool busy = false;            // an iteration in flight
        Nanos started = 0;            // when its current (or last) iteration began
        std::uint32_t iterations = 0; // begun
        bool retired = false;         // stopped by a step's error (onError: stopUser)
    };
    void start(std::uint32_t u, Nanos now);

    const ClosedLoad& m_load;
    Nanos m_duration;
    PacerHost& m_host;
    std::uint32_t m_part, m_parts;
    Nanos m_start = 0;
    double m_factor = 1;
    bool m_stopping = false;
    std::vector<User> m_users;
    std::uint32_t m_activeUsers = 0;
    std::size_t m_usersDone = 0; // users that made all their iterations
    using Wake = std::pair<Nanos, std::uint32_t>;
    std::priority_queue<Wake, std::vector<Wake>, std::greater<Wake>> m_thinkers;
};

} // namespace stampede
