#include "controller.h"

#include "protocolversion.h"
#include "runtracker.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/control.pb.h"

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <deque>
#include <future>
#include <mutex>
#include <optional>
#include <thread>

namespace stampede {

namespace {

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

// What each agent carried and how it fared, second by second; an agent over
// 90 % CPU or whose send lag passes 10 ms is an event (once each): the
// generator, not the target, may have limited the run.
class AgentLedger
{
public:
    explicit AgentLedger(const std::vector<std::string>& names)
        : m_agents(names.size()), m_sendLag(names.size()), m_cpuSum(names.size())
    {
        for (std::size_t i = 0; i < names.size(); ++i) {
            m_agents[i].name = names[i];
            m_agents[i].shares = {std::uint32_t(i + 1)};
        }
    }
    // Returns the detail of an event to add (empty: none).
    std::string add(std::size_t agent, const IntervalMetrics& part)
    {
        AgentReport& a = m_agents[agent];
        LatencyHistogram lag;
        for (const StepMetrics& st : part.steps) {
            a.sent += st.counters.sent;
            a.requests += st.counters.requests;
            lag.merge(st.sendLag);
        }
        m_sendLag[agent].merge(lag);
        a.connectionsMax = std::max(a.connectionsMax, part.openConnections);
        if (!part.health.known())
            return {};
        ++a.seconds;
        m_cpuSum[agent] += part.health.cpu;
        a.cpuMax = std::max(a.cpuMax, part.health.cpu);
        a.rssMaxBytes = std::max(a.rssMaxBytes, part.health.rssBytes);
        a.loopLagMaxMs = std::max(a.loopLagMaxMs, double(part.health.loopLag) / 1e6);
        const double lagP99 = lag.percentile(99) / 1000.0;
        if (part.health.cpu <= kLimitedCpu && lagP99 <= kLimitedSendLagMs)
            return {};
        if (a.limitedSeconds++)
            return {};
        char detail[256];
        std::snprintf(detail, sizeof detail,
                      "in second %u: CPU %.0f %% of its cores, send lag p99 %.1f ms: the generator, not the target, "
                      "may have limited this run",
                      part.second, part.health.cpu * 100, lagP99);
        return detail;
    }
    void shareTaken(std::size_t agent, std::uint32_t share) { m_agents[agent].shares.push_back(share + 1); }
    void lost(std::size_t agent) { m_agents[agent].lost = true; }
    std::vector<AgentReport> reports()
    {
        for (std::size_t i = 0; i < m_agents.size(); ++i) {
            AgentReport& a = m_agents[i];
            a.cpuMean = a.seconds ? m_cpuSum[i] / a.seconds : 0;
            a.sendLagP99Ms = m_sendLag[i].percentile(99) / 1000.0;
        }
        return m_agents;
    }

    static constexpr double kLimitedCpu = 0.9;
    static constexpr double kLimitedSendLagMs = 10;

private:
    std::vector<AgentReport> m_agents;
    std::vector<LatencyHistogram> m_sendLag;
    std::vector<double> m_cpuSum; // per agent: the sum of its seconds' CPU shares
};

} // namespace

class Controller::Impl
{
public:
    ControllerOptions options;
    std::vector<AgentLinkPtr> links;
    std::vector<std::string> names;

    // One run's threads and what they share (under `mutex`: the inbox only).
    struct Round
    {
        std::string runId;
        std::mutex mutex;
        std::condition_variable cv;
        std::deque<Word> inbox;
        std::atomic<bool> finished{false};
        std::unique_ptr<std::atomic<bool>[]> quit; // per agent: lost, no more heartbeats (its dead-man runs)
        std::vector<std::thread> threads;
        std::vector<Nanos> stopDue;                     // per agent: when to (re)send Stop; 0: not due
        std::vector<std::vector<std::uint32_t>> shares; // per agent: the engines' shares it runs (its own first)
        AgentLedger* ledger = nullptr;                  // what each carried (run()'s)
        RendezvousRule rendezvous{{}, 1};               // the run's rendezvous points, decided over every engine
    };

    const Clock& clock() const { return *options.clock; }
    void post(Round& r, Word w);
    void readAgent(Round& r, std::size_t i);
    void heartbeats(Round& r);
    bool startAll(const v1::Bundle& bundle, const std::string& runId, std::string& error);
    void stopAgent(Round& r, std::size_t i);
    void rebalance(Round& r, RunTracker& tracker, std::size_t lost);
    void carryOut(Round& r, RunControl& control, RunTracker& tracker);
    void takeInbox(Round& r, RunTracker& tracker);
    void releaseRendezvous(Round& r, RunTracker& tracker);
    void settleLost(Round& r, RunTracker& tracker);
    void endRound(Round& r);
};

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

void Controller::Impl::post(Round& r, Word w)
{
    std::lock_guard lock(r.mutex);
    r.inbox.push_back(std::move(w));
    r.cv.notify_one();
}

// Watch, and on a broken stream watch again from the last sequence seen, so
// that nothing is counted twice or missed. A lost agent is read on: what it
// sends when it thaws tells what it did after the loss.
void Controller::Impl::readAgent(Round& r, std::size_t i)
{
    std::uint64_t last = 0;
    bool sawFinal = false;
    auto going = [&] { return !r.finished.load(); };
    while (going()) {
        links[i]->watch(r.runId, last, [&](const v1::Snapshot& s) {
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
        if (going() && !links[i]->reachable()) // the stream broke and nothing listens: the process is gone
            post(r, {i, std::nullopt, clock().now(), true});
        pause(200 * kNanosPerMilli, going);
    }
}

// Heartbeats keep the agents' dead-man timers from firing and tell us they live.
void Controller::Impl::heartbeats(Round& r)
{
    while (!r.finished.load()) {
        for (std::size_t i = 0; i < links.size() && !r.finished.load(); ++i)
            if (!r.quit[i].load() && links[i]->heartbeat(r.runId))
                post(r, {i, std::nullopt, clock().now()});
        pause(options.heartbeatInterval, [&] { return !r.finished.load(); });
    }
}

bool Controller::Impl::startAll(const v1::Bundle& bundle, const std::string& runId, std::string& error)
{
    const auto n = std::uint32_t(links.size());
    for (std::uint32_t i = 0; i < n; ++i) {
        v1::StartRunRequest rq;
        rq.set_protocol_version(kControlProtocolVersion);
        rq.set_run_id(runId);
        rq.set_controller(options.name);
        *rq.mutable_bundle() = bundle;
        rq.set_engine_index(i);
        rq.set_engine_count(n);
        rq.set_dead_man_seconds(options.deadManSeconds);
        std::string why;
        if (!links[i]->startRun(rq, options.startTimeout, why)) {
            error = "agent " + (i < names.size() ? names[i] : links[i]->address()) + ": " + why;
            for (std::uint32_t k = 0; k < i; ++k) // any refusal stops those already started
                links[k]->stop(runId, why);
            return false;
        }
    }
    return true;
}

// Stop, retried once a second until the agent acknowledges it: a frozen agent
// that thaws must not go on loading the target.
void Controller::Impl::stopAgent(Round& r, std::size_t i)
{
    std::string why;
    r.stopDue[i] = links[i]->stop(r.runId, why) ? 0 : clock().now() + kNanosPerSecond;
}

// A lost agent's shares (its own, and those it had taken over) each go to the
// survivor that runs the fewest, from now on: the run's delivered
// load stays as planned, and the events say who carries what.
void Controller::Impl::rebalance(Round& r, RunTracker& tracker, std::size_t lost)
{
    const std::string n = std::to_string(links.size());
    for (const std::uint32_t share : r.shares[lost]) {
        std::size_t best = links.size();
        for (std::size_t j = 0; j < links.size(); ++j)
            if (!tracker.lost(j) && !tracker.finished(j) &&
                (best == links.size() || r.shares[j].size() < r.shares[best].size()))
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

void Controller::Impl::carryOut(Round& r, RunControl& control, RunTracker& tracker)
{
    for (auto& c : control.take()) {
        const std::string by = c.source.empty() ? std::string() : " (asked by " + c.source + ")";
        if (std::string(c.kind) == "stop_requested") { // the stop itself is carried out by run()'s loop
            tracker.addEvent(c.kind, "", "every engine is told to stop" + by);
            continue;
        }
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
    r.finished = true;
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
    if (!d.startAll(bundle, runId, result.error)) {
        m_control->close();
        return result;
    }
    const AgentLossPolicy policy = d.options.onAgentLoss;
    RunTracker tracker(d.names, stepCount, d.clock(),
                       {d.options.lossTimeout, policy == AgentLossPolicy::Abort || policy == AgentLossPolicy::Default});
    Impl::Round r;
    r.runId = runId;
    r.rendezvous = RendezvousRule(m_rendezvous, d.links.size());
    r.quit = std::make_unique<std::atomic<bool>[]>(d.links.size());
    r.stopDue.assign(d.links.size(), 0);
    for (std::uint32_t i = 0; i < d.links.size(); ++i)
        r.shares.push_back({i});
    for (std::size_t i = 0; i < d.links.size(); ++i)
        r.threads.emplace_back([&d, &r, i] { d.readAgent(r, i); });
    r.threads.emplace_back([&d, &r] { d.heartbeats(r); });

    AgentLedger ledger(d.names);
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
        for (const std::size_t i : tracker.checkHealth()) {
            r.quit[i] = true;
            d.stopAgent(r, i); // its load is no longer counted: it must end
            ledger.lost(i);
            if (policy == AgentLossPolicy::Rebalance && !tracker.aborted() && !m_control->stopRequested())
                d.rebalance(r, tracker, i);
        }
        if ((tracker.aborted() || m_control->stopRequested() || tracker.stepStopped()) && !stopSent) {
            stopSent = true;
            result.stopped = !tracker.aborted(); // asked to (or by a step), before every engine ended
            for (std::size_t i = 0; i < d.links.size(); ++i)
                d.stopAgent(r, i);
        }
        d.carryOut(r, *m_control, tracker);
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
