#pragma once
// A step's rendezvous (a synchronizing timer, rendezvous.h): a user that
// begins the step arrives at the engine's board and is held there; when the
// point releases (enough users across the run, or its timeout), every user it
// holds goes on at once, measured from the release, and the step counts the
// meeting (and whether the timeout released it). When the run stops, a user
// still held goes no further.
#include "rendezvous.h"
#include "stephook.h"

#include <vector>

namespace stampede {

class RendezvousWait final : public StepHook
{
public:
    // Its users wait at `board`'s points: the run's step (`stepOffset` + the plan's).
    RendezvousWait(std::uint32_t users, RendezvousBoard& board, std::uint32_t stepOffset, FlowHost& host);
    Begin begin(const StepCall& call, Nanos intended) override;
    void onTurn(Nanos now) override;
    bool holds() const override { return !m_held.empty(); }
    void letGo(std::vector<std::uint32_t>& users) override;

private:
    static constexpr Nanos kTimeoutScan = 10 * kNanosPerMilli; // how often the board's timeouts are looked at
    struct Wait
    {
        std::uint64_t ticket = 0; // its arrival at the point it waits at
        std::size_t step = 0;
        bool met = false; // released: its step's next begin goes on
    };
    std::vector<Wait> m_users;
    std::vector<std::uint32_t> m_held, m_released; // users waiting; released in this turn
    RendezvousBoard& m_board;
    std::uint32_t m_stepOffset;
    FlowHost& m_host;
    std::uint64_t m_seen = 0; // the board's generation last looked at
    Nanos m_nextScan = 0;
};

} // namespace stampede
