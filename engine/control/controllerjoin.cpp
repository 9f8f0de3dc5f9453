// Agents found mid-run that join it (--elastic): looked up again, said hello
// to, started as old as the run, and given shares by those that run the most.
#include "controllerimpl.h"

#include "agentdiscovery.h"
#include "runtracker.h"
#include "stampede/v1/bundle.pb.h"
#include "wire/protocolversion.h"

namespace stampede {

// One more agent in the run (it started): its place, its reader.
void Controller::Impl::seat(Round& r, AgentLinkPtr link, std::string name, unsigned agentCores)
{
    std::size_t i = 0;
    {
        std::lock_guard lock(r.mutex);
        i = links.size();
        links.push_back(std::move(link));
        names.push_back(std::move(name));
        cores.resize(i, 0);
        cores.push_back(agentCores);
        r.quit.push_back(std::make_unique<std::atomic<bool>>(false));
    }
    r.stopDue.push_back(0);
    r.threads.emplace_back([this, &r, i] { readAgent(r, i); });
    if (options.shared)
        r.threads.emplace_back([this, &r, i] { serveShared(r, i); });
}

// On a thread of its own: the agents found now that are not in the run, each
// said hello to; those that answer, speak this protocol and are free.
std::vector<Controller::Impl::Found> Controller::Impl::findJoiners(std::vector<std::string> inRun)
{
    std::vector<Found> out;
    std::size_t joining = 0;
    for (const std::string& address : options.discover()) {
        if (std::find(inRun.begin(), inRun.end(), address) != inRun.end())
            continue;
        Found f;
        f.link = options.linkFor ? options.linkFor(address)
                                 : makeGrpcAgentLink(address, options.token, options.caFile, options.tlsName);
        v1::HelloReply reply;
        std::string why;
        f.name = address;
        if (!f.link || !f.link->hello(options.name, 2 * kNanosPerSecond, reply, why))
            f.refused = "found, but did not answer its hello in 2 s (" + (f.link ? why : "no link") +
                        "): looked up again in " + std::to_string(options.discoverEvery / kNanosPerSecond) + " s";
        else if (reply.protocol_version() != kControlProtocolVersion)
            f.refused = "found, but speaks control protocol " + std::to_string(reply.protocol_version()) + ", not " +
                        std::to_string(kControlProtocolVersion) + ": it does not join";
        else if (!reply.busy_with().empty())
            f.refused = "found, but busy with run " + reply.busy_with() + ": looked up again in " +
                        std::to_string(options.discoverEvery / kNanosPerSecond) + " s";
        else if (!reply.agent().empty())
            f.name = reply.agent() + " (" + address + ")";
        f.cores = reply.cores();
        const bool joins = f.refused.empty();
        out.push_back(std::move(f)); // one refused is said in the run's events (once an agent)
        if (joins && ++joining + inRun.size() >= kMaxAgents)
            break;
    }
    return out;
}

// --elastic: every `discoverEvery` the agents are looked up again (on a
// thread: a look-up may block); those that answered join.
void Controller::Impl::discover(Round& r, RunTracker& tracker, const v1::Bundle& bundle)
{
    if (!options.discover)
        return;
    if (r.finding.valid()) {
        if (r.finding.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
            return;
        for (Found& f : r.finding.get())
            admit(r, tracker, bundle, std::move(f));
        return;
    }
    const Nanos now = clock().now();
    if (now < r.nextFind)
        return;
    r.nextFind = now + options.discoverEvery;
    std::vector<std::string> inRun;
    for (std::size_t i = 0; i < links.size(); ++i)
        if (!tracker.lost(i) && !tracker.finished(i))
            inRun.push_back(links[i]->address());
    r.finding = std::async(std::launch::async, [this, inRun] { return findJoiners(inRun); });
}

// An agent found mid-run takes shares, one at a time from the agent that runs
// the most, while that one would still run more than it; it starts first
// (from the start of a second at least a second away), and only then do the
// others hand those shares over from that second: no arrival is lost.
void Controller::Impl::admit(Round& r, RunTracker& tracker, const v1::Bundle& bundle, Found f)
{
    if (!f.refused.empty()) {
        if (r.refusedNoted.insert(f.name).second)
            tracker.addEvent("agent_not_joined", f.name, f.refused);
        return;
    }
    std::vector<std::uint32_t> mine;
    std::vector<std::size_t> from; // the agent each share comes from
    std::vector<std::size_t> runs(links.size());
    for (std::size_t i = 0; i < links.size(); ++i)
        runs[i] = tracker.lost(i) || tracker.finished(i) ? 0 : r.shares[i].size();
    for (;;) {
        const auto most = std::size_t(std::max_element(runs.begin(), runs.end()) - runs.begin());
        if (runs.empty() || runs[most] < mine.size() + 2)
            break;
        mine.push_back(r.shares[most][--runs[most]]); // its last taken first
        from.push_back(most);
    }
    if (mine.empty()) {
        if (r.idleNoted.insert(f.link->address()).second)
            tracker.addEvent("agent_idle", f.name,
                             "answers, but no agent runs more than one share: it does not join (--shares above "
                             "the agent count lets agents join)");
        return;
    }
    const auto second = std::uint32_t(tracker.elapsed() / kNanosPerSecond) + 2;
    v1::StartRunRequest rq;
    rq.set_protocol_version(kControlProtocolVersion);
    rq.set_run_id(r.runId);
    rq.set_controller(options.name);
    *rq.mutable_bundle() = bundle;
    rq.set_engine_index(mine[0]);
    for (std::size_t k = 1; k < mine.size(); ++k)
        rq.add_more_shares(mine[k]);
    rq.set_engine_count(r.shareCount);
    rq.set_dead_man_seconds(options.deadManSeconds);
    rq.set_elapsed_ns(std::uint64_t(clock().now() - r.startedAt));
    rq.set_from_second(second);
    rq.set_level_factor(r.level);
    std::string why;
    if (!f.link->startRun(rq, options.startTimeout, why)) {
        tracker.addEvent("agent_error", f.name, "found, but did not start its part: " + why);
        return;
    }
    const std::size_t joiner = links.size();
    seat(r, std::move(f.link), f.name, f.cores);
    r.shares.push_back(mine);
    if (r.ledger)
        r.ledger->join(f.name, mine, second);
    tracker.addAgent(f.name, second);
    tracker.addEvent("agent_joined", f.name, "joins the run from second " + std::to_string(second));
    const std::string of = " of " + std::to_string(r.shareCount);
    for (std::size_t k = 0; k < mine.size(); ++k) {
        const std::size_t donor = from[k];
        const std::string what = "share " + std::to_string(mine[k] + 1) + of;
        std::uint32_t applied = 0;
        if (!links[donor]->handOver(r.runId, mine[k], second, applied, why)) {
            // the giver keeps it: the joiner gives it up from its start (never run twice)
            std::string undo;
            const bool dropped = links[joiner]->handOver(r.runId, mine[k], second, applied, undo);
            auto& j = r.shares[joiner];
            j.erase(std::remove(j.begin(), j.end(), mine[k]), j.end());
            tracker.addEvent(
                "rebalance_failed", names[donor],
                what + " was not handed over: " + why + "; it stays with " + names[donor] +
                    (dropped ? std::string() : " (and " + names[joiner] + " did not give it up: " + undo + ")"));
            continue;
        }
        auto& d = r.shares[donor];
        d.erase(std::remove(d.begin(), d.end(), mine[k]), d.end());
        tracker.addEvent("rebalanced", names[joiner],
                         "takes over " + what + " from " + names[donor] + " from second " + std::to_string(second) +
                             (applied == second ? std::string()
                                                : " (" + names[donor] + " ran it until second " +
                                                      std::to_string(applied - 1) + ": the hand-over came late)"));
    }
}

} // namespace stampede
