#pragma once
// The controller's insides (controller.h), shared by controller.cpp (a run:
// starting, reading, merging, losing agents) and controllerjoin.cpp (agents
// found mid-run that join it, --elastic).
#include "agentledger.h"
#include "controller.h"
#include "stampede/v1/control.pb.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace stampede {

class RunTracker;

namespace controllerdetail {

// What a reader or the heartbeat thread heard, stamped when it arrived.
struct Word
{
    std::size_t agent = 0;
    std::optional<v1::Snapshot> snapshot; // none: a heartbeat answered (or, `gone`, the agent's port refused)
    Nanos at = 0;
    bool gone = false;
};

// Sleeps `total` in short slices while `keepGoing` holds (I/O pacing only:
// no decision depends on how long this took).
template <typename F> void pause(Nanos total, F keepGoing)
{
    for (Nanos slept = 0; slept < total && keepGoing(); slept += 50 * kNanosPerMilli)
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
}

} // namespace controllerdetail

class Controller::Impl
{
public:
    ControllerOptions options;
    std::vector<AgentLinkPtr> links;
    std::vector<std::string> names;
    std::vector<unsigned> cores; // by agent: the usable cores its Hello said (0: not said)

    // An agent found mid-run that answered (--elastic).
    struct Found
    {
        AgentLinkPtr link;
        std::string name;
        unsigned cores = 0;
        std::string refused; // why it does not join now (it did not answer, another protocol, busy): "" it may
    };

    // One run's threads and what they share (under `mutex`: the inbox, and
    // the growth of `links`, `names` and `quit` when an agent joins).
    struct Round
    {
        std::string runId;
        std::mutex mutex;
        std::condition_variable cv;     // a word for the inbox that should not wait
        std::condition_variable ending; // `finished` was set
        std::deque<controllerdetail::Word> inbox;
        std::atomic<bool> finished{false};
        std::vector<std::unique_ptr<std::atomic<bool>>> quit; // per agent: lost, no more heartbeats (its dead-man runs)
        std::vector<std::thread> threads;
        std::vector<Nanos> stopDue;                     // per agent: when to (re)send Stop; 0: not due
        std::vector<std::vector<std::uint32_t>> shares; // per agent: the engines' shares it runs (its own first)
        AgentLedger* ledger = nullptr;                  // what each carried (run()'s)
        RendezvousRule rendezvous{{}, 1};               // the run's rendezvous points, decided over every engine
        std::uint32_t shareCount = 1;                   // the run's shares (the plan split so many ways)
        Nanos startedAt = 0;                            // on the clock, just before the first agent started
        double level = 1;                               // the level the run was last scaled to
        std::future<std::vector<Found>> finding;        // --elastic: a look-up and its hellos, under way
        Nanos nextFind = 0;
        std::set<std::string> idleNoted;    // agents found with no share to take, said once each
        std::set<std::string> refusedNoted; // agents found that did not answer or cannot join, said once each
    };

    const Clock& clock() const { return *options.clock; }
    void post(Round& r, controllerdetail::Word w);
    void readAgent(Round& r, std::size_t i);
    void serveShared(Round& r, std::size_t i);
    void heartbeats(Round& r);
    bool startAll(Round& r, const v1::Bundle& bundle, const std::vector<RendezvousRule::Point>& points,
                  std::string& error);
    void lose(Round& r, RunTracker& tracker, const std::vector<std::size_t>& lost, bool rebalancing);
    void openRound(Round& r, std::vector<RendezvousRule::Point> points);
    std::vector<Found> findJoiners(std::vector<std::string> inRun);
    void discover(Round& r, RunTracker& tracker, const v1::Bundle& bundle);
    void admit(Round& r, RunTracker& tracker, const v1::Bundle& bundle, Found f);
    void seat(Round& r, AgentLinkPtr link, std::string name, unsigned cores);
    void stopAgent(Round& r, std::size_t i);
    void rebalance(Round& r, RunTracker& tracker, std::size_t lost);
    void carryOut(Round& r, RunControl& control, RunTracker& tracker);
    void takeInbox(Round& r, RunTracker& tracker);
    void releaseRendezvous(Round& r, RunTracker& tracker);
    void settleLost(Round& r, RunTracker& tracker);
    void endRound(Round& r);
};

} // namespace stampede
