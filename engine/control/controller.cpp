#include "controllerimpl.h"

#include "agentdiscovery.h"
#include "runtracker.h"
#include "sharesplit.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/control.pb.h"
#include "wire/protocolversion.h"

#include <algorithm>
#include <cstdio>

namespace stampede {

using controllerdetail::pause;
using controllerdetail::Word;

namespace {
std::vector<AgentLinkPtr> grpcLinks(const std::vector<std::string>& addresses, const ControllerOptions& options)
{
    std::vector<AgentLinkPtr> links;
    for (const auto& a : addresses)
        links.push_back(makeGrpcAgentLink(a, options.token, options.caFile, options.tlsName));
    return links;
}
} // namespace

Controller::Controller(std::vector<std::string> agentAddresses, ControllerOptions options)
    : Controller(grpcLinks(agentAddresses, options), options)
{
}

Controller::Controller(std::vector<AgentLinkPtr> links, ControllerOptions options) : m_impl(std::make_unique<Impl>())
{
    m_impl->links = std::move(links);
    m_impl->options = std::move(options);
    if (!m_impl->options.clock)
        m_impl->options.clock = std::make_shared<SteadyClock>();
    m_control = m_impl->options.control ? m_impl->options.control : std::make_shared<RunControl>();
}

Controller::~Controller() = default;

const std::vector<std::string>& Controller::agentNames() const
{
    return m_impl->names;
}

bool Controller::connect(std::string& error)
{
    m_impl->names.clear();
    m_impl->cores.clear();
    for (auto& link : m_impl->links) {
        const std::string& address = link->address();
        v1::HelloReply reply;
        std::string why;
        if (!link->hello(m_impl->options.name, m_impl->options.startTimeout, reply, why)) {
            error = "agent " + address + ": " + why;
            return false;
        }
        if (reply.protocol_version() != kControlProtocolVersion) {
            error = "agent " + address + " speaks control protocol version " +
                    std::to_string(reply.protocol_version()) + ", this controller version " +
                    std::to_string(kControlProtocolVersion) + ": use the same stampede version on both";
            return false;
        }
        if (!reply.busy_with().empty()) {
            error = "agent " + reply.agent() + " (" + address + ") is busy with " + reply.busy_with();
            return false;
        }
        m_impl->names.push_back(reply.agent().empty() ? address : reply.agent() + " (" + address + ")");
        m_impl->cores.push_back(reply.cores());
    }
    return true;
}

bool Controller::adjust(double factor, std::string& error)
{
    std::promise<std::string> answer;
    auto result = answer.get_future();
    m_control->scale(factor, [&answer](bool ok, const std::string& why) {
        answer.set_value(ok ? std::string() : why.empty() ? std::string("not applied") : why);
    });
    error = result.get();
    return error.empty();
}

// A heartbeat's answer waits for the run's thread to come by (within 100 ms:
// it only says the agent lives); a snapshot or a gone agent wakes it.
void Controller::Impl::post(Round& r, Word w)
{
    const bool wake = w.snapshot || w.gone;
    std::lock_guard lock(r.mutex);
    r.inbox.push_back(std::move(w));
    if (wake)
        r.cv.notify_one();
}

// Watch, and on a broken stream watch again from the last sequence seen, so
// that nothing is counted twice or missed. A lost agent is read on: what it
// sends when it thaws tells what it did after the loss.
void Controller::Impl::readAgent(Round& r, std::size_t i)
{
    AgentLink* link = nullptr;
    {
        std::lock_guard lock(r.mutex);
        link = links[i].get();
    }
    std::uint64_t last = 0;
    bool sawFinal = false;
    auto going = [&] { return !r.finished.load(); };
    while (going()) {
        link->watch(r.runId, last, [&](const v1::Snapshot& s) {
            if (s.sequence() == 0 && s.rendezvous_size()) { // arrivals at a rendezvous: the latest, now
                post(r, {i, s, clock().now()});
                return;
            }
            if (s.sequence() <= last)
                return; // replayed: already counted
            last = s.sequence();
            sawFinal |= s.final();
            post(r, {i, s, clock().now()});
        });
        if (sawFinal)
            return;
        if (going() && !link->reachable()) // the stream broke and nothing listens: the process is gone
            post(r, {i, std::nullopt, clock().now(), true});
        pause(200 * kNanosPerMilli, going);
    }
}

// The run's shared data, served to agent i on its Shared stream; opened again after a break while the run goes.
void Controller::Impl::serveShared(Round& r, std::size_t i)
{
    AgentLink* link = nullptr;
    {
        std::lock_guard lock(r.mutex);
        link = links[i].get();
    }
    auto going = [&] { return !r.finished.load(); };
    while (going() && link->serveShared(r.runId, *options.shared)) // not again for a run that uses none
        pause(200 * kNanosPerMilli, going);
}

// Heartbeats keep the agents' dead-man timers from firing and tell us they
// live. Every agent is asked at once, without waiting for the answers; one
// whose last answer is still due (a frozen agent, until its call's deadline)
// is skipped, so it holds back no other's. No answer outlives the thread.
void Controller::Impl::heartbeats(Round& r)
{
    struct Asks
    {
        std::mutex mutex;
        std::condition_variable none; // count fell to 0
        std::vector<char> due;        // per agent: an answer is due
        std::size_t count = 0;
    } asks;
    for (;;) {
        std::vector<std::pair<AgentLink*, std::size_t>> seats;
        {
            std::lock_guard lock(r.mutex);
            if (r.finished.load())
                break;
            for (std::size_t i = 0; i < r.quit.size(); ++i)
                if (!r.quit[i]->load())
                    seats.emplace_back(links[i].get(), i);
        }
        for (const auto& [link, i] : seats) {
            {
                std::lock_guard lock(asks.mutex);
                asks.due.resize(std::max(asks.due.size(), i + 1));
                if (asks.due[i])
                    continue;
                asks.due[i] = 1;
                ++asks.count;
            }
            link->heartbeatAsync(r.runId, [this, &r, &asks, i = i](bool answered) {
                if (answered)
                    post(r, {i, std::nullopt, clock().now()});
                std::lock_guard lock(asks.mutex);
                asks.due[i] = 0;
                if (--asks.count == 0)
                    asks.none.notify_all(); // under the lock: `asks` outlives this
            });
        }
        std::unique_lock lock(r.mutex); // asleep until the next round or the run's end
        r.ending.wait_for(lock, std::chrono::nanoseconds(options.heartbeatInterval), [&] { return r.finished.load(); });
    }
    std::unique_lock lock(asks.mutex);
    asks.none.wait(lock, [&] { return asks.count == 0; });
}

// The run's shares dealt by the agents' usable cores (sharesplit.h): agents
// alike run shares i, i + n, i + 2n ...
bool Controller::Impl::startAll(Round& r, const v1::Bundle& bundle, const std::vector<RendezvousRule::Point>& points,
                                std::string& error)
{
    if (options.discover && std::any_of(points.begin(), points.end(), [](const auto& p) { return p.users; })) {
        error = "a plan with rendezvous points cannot take agents that join mid-run (--elastic): a rendezvous "
                "counts its users over the agents that started";
        return false;
    }
    const auto n = std::uint32_t(links.size());
    cores.resize(n, 0);
    r.shareCount = options.shares ? std::max(n, options.shares) : defaultShareCount(cores, kMaxShares);
    if (r.shareCount > kMaxShares) {
        error = std::to_string(r.shareCount) + " shares: at most " + std::to_string(kMaxShares);
        return false;
    }
    r.shares = splitShares(cores, r.shareCount);
    v1::StartRunRequest base;
    base.set_protocol_version(kControlProtocolVersion);
    base.set_run_id(r.runId);
    base.set_controller(options.name);
    *base.mutable_bundle() = bundle;
    base.set_engine_count(r.shareCount);
    base.set_dead_man_seconds(options.deadManSeconds);
    // Every agent is started at once (up to 32 calls in flight): their seconds
    // begin within one call's time of each other, however many there are.
    std::vector<std::string> refused(n);
    std::vector<char> started(n, 0);
    std::atomic<std::uint32_t> next{0};
    const auto startSome = [&] {
        for (std::uint32_t i; (i = next++) < n;) {
            v1::StartRunRequest rq = base;
            rq.set_engine_index(r.shares[i][0]);
            for (std::size_t k = 1; k < r.shares[i].size(); ++k)
                rq.add_more_shares(r.shares[i][k]);
            started[i] = links[i]->startRun(rq, options.startTimeout, refused[i]);
        }
    };
    r.startedAt = clock().now();
    std::vector<std::thread> callers;
    for (std::uint32_t t = 1; t < std::min<std::uint32_t>(n, 32); ++t)
        callers.emplace_back(startSome);
    startSome();
    for (auto& t : callers)
        t.join();
    const auto first = std::find(started.begin(), started.end(), 0);
    if (first == started.end())
        return true;
    const auto i = std::size_t(first - started.begin());
    error = "agent " + (i < names.size() ? names[i] : links[i]->address()) + ": " + refused[i];
    for (std::size_t k = 0; k < n; ++k) // any refusal stops those that started
        if (started[k])
            links[k]->stop(r.runId, refused[i]);
    return false;
}

// The round's per-agent state for the agents that started, and their threads.
void Controller::Impl::openRound(Round& r, std::vector<RendezvousRule::Point> points)
{
    r.rendezvous = RendezvousRule(std::move(points), links.size());
    for (std::size_t i = 0; i < links.size(); ++i) {
        r.quit.push_back(std::make_unique<std::atomic<bool>>(false));
        r.stopDue.push_back(0);
    }
    for (std::size_t i = 0; i < links.size(); ++i) {
        r.threads.emplace_back([this, &r, i] { readAgent(r, i); });
        if (options.shared)
            r.threads.emplace_back([this, &r, i] { serveShared(r, i); });
    }
    r.threads.emplace_back([this, &r] { heartbeats(r); });
    r.nextFind = clock().now() + options.discoverEvery;
}

// Stop, retried once a second until the agent acknowledges it: a frozen agent
// that thaws must not go on loading the target.
void Controller::Impl::stopAgent(Round& r, std::size_t i)
{
    std::string why;
    r.stopDue[i] = links[i]->stop(r.runId, why) ? 0 : clock().now() + kNanosPerSecond;
}

// A lost agent's shares (its own, and those it had taken over) each go to the
// survivor that runs the fewest for its cores, from now on: the run's delivered
// load stays as planned, and the events say who carries what.
void Controller::Impl::rebalance(Round& r, RunTracker& tracker, std::size_t lost)
{
    const std::string n = std::to_string(r.shareCount);
    for (const std::uint32_t share : r.shares[lost]) {
        std::size_t best = links.size();
        for (std::size_t j = 0; j < links.size(); ++j)
            if (!tracker.lost(j) && !tracker.finished(j) &&
                (best == links.size() ||
                 r.shares[j].size() * std::max(1u, cores[best]) < r.shares[best].size() * std::max(1u, cores[j])))
                best = j;
        const std::string what = "share " + std::to_string(share + 1) + " of " + n;
        if (best == links.size()) { // the plan's load cannot be kept: the run is not the one planned
            tracker.abort(names[lost], "an agent was lost and no agent is left to take its " + what);
            break;
        }
        std::string why;
        if (!links[best]->adopt(r.runId, share, why)) {
            tracker.addEvent("rebalance_failed", names[best], what + " was not taken: " + why);
            continue;
        }
        r.shares[best].push_back(share);
        if (r.ledger)
            r.ledger->shareTaken(best, share);
        tracker.addEvent("rebalanced", names[best],
                         "takes over " + what + " (its rate, data slice, increment stride and users) from " +
                             names[lost] + " from now on");
    }
    r.shares[lost].clear();
}

// Agents the tracker declared lost: no more heartbeats, stopped (their load
// is no longer counted), and, rebalancing, their shares to the survivors.
void Controller::Impl::lose(Round& r, RunTracker& tracker, const std::vector<std::size_t>& lost, bool rebalancing)
{
    for (const std::size_t i : lost) {
        *r.quit[i] = true;
        stopAgent(r, i);
        if (r.ledger)
            r.ledger->lost(i);
        if (rebalancing && !tracker.aborted())
            rebalance(r, tracker, i);
    }
}

void Controller::Impl::carryOut(Round& r, RunControl& control, RunTracker& tracker)
{
    for (auto& c : control.take()) {
        const std::string by = c.source.empty() ? std::string() : " (asked by " + c.source + ")";
        if (std::string(c.kind) == "stop_requested") { // the stop itself is carried out by run()'s loop
            tracker.addEvent(c.kind, "", "every engine is told to stop" + by);
            continue;
        }
        r.level = c.factor; // an agent that joins starts at it
        bool ok = true;
        std::string error;
        for (std::size_t i = 0; i < links.size(); ++i) {
            std::string why;
            if (tracker.lost(i) || tracker.finished(i) || links[i]->adjust(r.runId, c.factor, why))
                continue;
            ok = false;
            error = "agent " + names[i] + ": " + why;
        }
        // saved with the run and drawn on its charts, like any event
        char level[64];
        std::snprintf(level, sizeof level, "level x%g of the plan", c.factor);
        tracker.addEvent(c.kind, "", (ok ? std::string(level) : std::string(level) + "; " + error) + by);
        if (c.done)
            c.done(ok, error);
    }
    const Nanos now = clock().now();
    for (std::size_t i = 0; i < links.size(); ++i)
        if (r.stopDue[i] && r.stopDue[i] <= now)
            stopAgent(r, i);
}

// What the readers and heartbeats heard, to the tracker (waits up to 100 ms).
void Controller::Impl::takeInbox(Round& r, RunTracker& tracker)
{
    std::deque<Word> batch;
    {
        std::unique_lock lock(r.mutex);
        r.cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return !r.inbox.empty(); });
        batch.swap(r.inbox);
    }
    for (auto& w : batch) {
        if (w.snapshot && w.snapshot->sequence() == 0) {
            for (const auto& c : w.snapshot->rendezvous())
                r.rendezvous.arrived(w.agent, c.point(), c.arrived(), w.at);
            tracker.heard(w.agent, w.at);
        } else if (w.snapshot) {
            tracker.snapshot(w.agent, *w.snapshot, w.at);
        } else if (w.gone) {
            tracker.gone(w.agent);
        } else {
            tracker.heard(w.agent, w.at);
        }
    }
    releaseRendezvous(r, tracker);
}

// Rendezvous points the engines' arrivals (or a timeout) release: every engine
// releases its waiting users at once, the same moment for all.
void Controller::Impl::releaseRendezvous(Round& r, RunTracker& tracker)
{
    for (const RendezvousRule::Release& rel : r.rendezvous.due(clock().now()))
        for (std::size_t i = 0; i < links.size(); ++i) {
            std::string why;
            if (!tracker.lost(i) && !tracker.finished(i) &&
                !links[i]->release(r.runId, std::uint32_t(rel.point), rel.byTimeout, why))
                tracker.addEvent("agent_error", names[i], "a rendezvous was not released: " + why);
        }
}

// After the run, a lost agent is still asked to stop, once a second, until it
// says its run ended, its port refuses (the process is gone), or its own
// dead-man must have stopped it (it has heard nothing from us since before
// the loss); what it sent meanwhile is counted.
void Controller::Impl::settleLost(Round& r, RunTracker& tracker)
{
    const Nanos grace = Nanos(options.deadManSeconds + 1) * kNanosPerSecond;
    std::vector<bool> gone(links.size(), false);
    for (;;) {
        const Nanos now = clock().now();
        bool waiting = false;
        for (std::size_t i = 0; i < links.size(); ++i) {
            if (!tracker.lost(i) || tracker.settled(i) || gone[i] || now >= tracker.lostAt(i) + grace)
                continue;
            waiting = true;
            if (r.stopDue[i] && r.stopDue[i] <= now) {
                stopAgent(r, i);
                gone[i] = r.stopDue[i] && !links[i]->reachable();
            }
        }
        if (!waiting)
            break;
        takeInbox(r, tracker);
    }
    tracker.reportLateLoad();
}

void Controller::Impl::endRound(Round& r)
{
    {
        std::lock_guard lock(r.mutex);
        r.finished = true;
    }
    r.ending.notify_all();
    if (r.finding.valid())
        r.finding.wait();
    for (auto& link : links)
        link->cancelWatch();
    for (auto& t : r.threads)
        t.join();
}

namespace {

// An engine's second of scripts' console lines as the run's events ("console": the step and the line;
// "console_dropped": how many more it did not keep).
void consoleEvents(const IntervalMetrics& part, const std::string& agent,
                   const std::function<void(const RunEvent&)>& onEvent)
{
    const double at = part.second ? double(part.second - 1) : 0;
    for (const ConsoleLine& line : part.console)
        onEvent({at, "console", agent, "steps[" + std::to_string(line.step) + "]: " + line.text, 0, 0});
    if (part.consoleDropped)
        onEvent({at, "console_dropped", agent,
                 std::to_string(part.consoleDropped) + " more console line" + (part.consoleDropped == 1 ? "" : "s") +
                     " in the second (an engine keeps " + std::to_string(kConsoleLinesPerSecond) + ")",
                 0, 0});
}

} // namespace

RunResult Controller::run(const v1::Bundle& bundle, const std::string& runId, std::size_t stepCount,
                          const Callbacks& callbacks)
{
    Impl& d = *m_impl;
    RunResult result;
    result.total.steps.resize(stepCount);
    if (d.names.size() != d.links.size())
        d.names.clear();
    for (std::size_t i = d.names.size(); i < d.links.size(); ++i)
        d.names.push_back(d.links[i]->address());
    Impl::Round r;
    r.runId = runId;
    if (!d.startAll(r, bundle, m_rendezvous, result.error)) {
        m_control->close();
        return result;
    }
    const AgentLossPolicy policy = d.options.onAgentLoss;
    RunTracker tracker(d.names, stepCount, d.clock(),
                       {d.options.lossTimeout, policy == AgentLossPolicy::Abort || policy == AgentLossPolicy::Default,
                        d.options.snapshotStall});
    d.openRound(r, m_rendezvous);
    AgentLedger ledger(d.names, r.shares);
    r.ledger = &ledger;
    auto deliver = [&](std::vector<MergedSecond> ready) {
        for (auto& s : ready) {
            for (const auto& [agent, part] : s.parts) {
                if (const std::string limited = ledger.add(agent, *part); !limited.empty())
                    tracker.addEvent("generator_limited", d.names[agent], limited);
                if (callbacks.onAgentSecond)
                    callbacks.onAgentSecond(agent, *part);
                if (callbacks.onEvent)
                    consoleEvents(*part, d.names[agent], callbacks.onEvent);
            }
            if (m_secondHook)
                m_secondHook(*s.merged);
            const SecondSummary summary = summarizeSecond(*s.merged);
            result.timeline.push_back(summary);
            if (callbacks.onSecond)
                callbacks.onSecond(*s.merged, summary);
            result.total.accumulate(*s.merged);
        }
    };
    bool stopSent = false;
    std::size_t told = 0; // events given to onEvent
    auto tell = [&] {
        for (; told < tracker.events().size(); ++told)
            if (callbacks.onEvent)
                callbacks.onEvent(tracker.events()[told]);
    };
    while (!tracker.ended()) {
        d.takeInbox(r, tracker);
        d.lose(r, tracker, tracker.checkHealth(), policy == AgentLossPolicy::Rebalance && !m_control->stopRequested());
        if ((tracker.aborted() || m_control->stopRequested() || tracker.stepStopped()) && !stopSent) {
            stopSent = true;
            result.stopped = !tracker.aborted(); // asked to (or by a step), before every engine ended
            for (std::size_t i = 0; i < d.links.size(); ++i)
                d.stopAgent(r, i);
        }
        d.carryOut(r, *m_control, tracker);
        if (!stopSent)
            d.discover(r, tracker, bundle);
        tell();
        deliver(tracker.takeReady(false));
    }
    deliver(tracker.takeReady(true));
    m_control->close();
    d.settleLost(r, tracker);
    tell();
    d.endRound(r);
    result.sentAfterLoss = tracker.sentAfterLoss();
    result.events = tracker.events();
    result.values = tracker.values();
    result.agents = ledger.reports();
    result.elapsed = tracker.elapsed();
    result.ok = true;
    result.aborted = tracker.aborted();
    return result;
}

} // namespace stampede
