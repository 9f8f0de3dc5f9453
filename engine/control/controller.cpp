#include "controller.h"

#include "protocolversion.h"
#include "snapshotcodec.h"
#include "stampede/v1/control.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

namespace stampede {

namespace {
using SteadyTime = std::chrono::steady_clock;

struct AgentLink
{
    std::string address;
    std::string name;
    std::unique_ptr<v1::EngineControl::Stub> stub;
    // run state, guarded by Impl::mutex
    std::uint64_t lastSequence = 0;
    std::uint32_t firstSecond = 0;
    std::uint32_t lastSecond = 0; // highest second delivered
    bool done = false;            // final snapshot seen
    bool lost = false;
    SteadyTime::time_point lastHeard;
    std::unique_ptr<grpc::ClientContext> watchContext;
};
} // namespace

class Controller::Impl
{
public:
    ControllerOptions options;
    std::vector<AgentLink> agents;
    std::vector<std::string> names;
    std::mutex mutex;
    std::condition_variable cv;
    std::deque<std::pair<std::size_t, v1::Snapshot>> inbox;
    std::string runId;

    // Whether the run still hears from this agent (neither finished nor lost).
    bool live(const AgentLink& a)
    {
        std::lock_guard lock(mutex);
        return !a.lost && !a.done;
    }

    void authorize(grpc::ClientContext& ctx, Nanos deadline) const
    {
        if (!options.token.empty())
            ctx.AddMetadata("authorization", "Bearer " + options.token);
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::nanoseconds(deadline));
    }
};

Controller::Controller(std::vector<std::string> agentAddresses, ControllerOptions options)
    : m_impl(std::make_unique<Impl>())
{
    m_impl->options = std::move(options);
    std::shared_ptr<grpc::ChannelCredentials> creds;
    if (!m_impl->options.caFile.empty()) {
        grpc::SslCredentialsOptions ssl;
        std::ifstream in(m_impl->options.caFile);
        std::ostringstream ss;
        ss << in.rdbuf();
        ssl.pem_root_certs = ss.str();
        creds = grpc::SslCredentials(ssl);
    } else {
        creds = grpc::InsecureChannelCredentials();
    }
    for (auto& a : agentAddresses) {
        AgentLink link;
        link.address = a;
        link.name = a;
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(256 * 1024 * 1024);
        link.stub = v1::EngineControl::NewStub(grpc::CreateCustomChannel(a, creds, args));
        m_impl->agents.push_back(std::move(link));
    }
}

Controller::~Controller() = default;

const std::vector<std::string>& Controller::agentNames() const
{
    return m_impl->names;
}

bool Controller::connect(std::string& error)
{
    m_impl->names.clear();
    for (auto& a : m_impl->agents) {
        grpc::ClientContext ctx;
        m_impl->authorize(ctx, m_impl->options.startTimeout);
        ctx.set_wait_for_ready(true);
        v1::HelloRequest rq;
        rq.set_protocol_version(kControlProtocolVersion);
        rq.set_controller(m_impl->options.name);
        v1::HelloReply reply;
        const grpc::Status s = a.stub->Hello(&ctx, rq, &reply);
        if (!s.ok()) {
            error = "agent " + a.address + ": " +
                    (s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ? "no answer within the start timeout"
                                                                           : s.error_message());
            return false;
        }
        if (reply.protocol_version() != kControlProtocolVersion) {
            error = "agent " + a.address + " speaks control protocol version " +
                    std::to_string(reply.protocol_version()) + ", this controller version " +
                    std::to_string(kControlProtocolVersion) + ": use the same stampede version on both";
            return false;
        }
        if (!reply.busy_with().empty()) {
            error = "agent " + reply.agent() + " (" + a.address + ") is busy with " + reply.busy_with();
            return false;
        }
        a.name = reply.agent().empty() ? a.address : reply.agent() + " (" + a.address + ")";
        m_impl->names.push_back(a.name);
    }
    return true;
}

bool Controller::adjust(double factor, std::string& error)
{
    Impl& d = *m_impl;
    std::string runId;
    {
        std::lock_guard lock(d.mutex);
        runId = d.runId;
    }
    bool ok = true;
    for (auto& a : d.agents) {
        if (!d.live(a))
            continue;
        grpc::ClientContext ctx;
        d.authorize(ctx, kNanosPerSecond);
        v1::AdjustRequest rq;
        rq.set_run_id(runId);
        rq.set_level_factor(factor);
        v1::AdjustReply reply;
        const grpc::Status s = a.stub->Adjust(&ctx, rq, &reply);
        if (!s.ok() || !reply.applied()) {
            error = "agent " + a.name + ": " + (s.ok() ? reply.error() : s.error_message());
            ok = false;
        }
    }
    return ok;
}

RunResult Controller::run(const v1::Bundle& bundle, const std::string& runId, std::size_t stepCount,
                          const RunEngine::SecondCallback& onSecond)
{
    Impl& d = *m_impl;
    RunResult result;
    std::vector<RunEvent>& events = result.events;
    {
        std::lock_guard lock(d.mutex);
        d.runId = runId;
    }
    result.total.steps.resize(stepCount);
    const auto n = std::uint32_t(d.agents.size());
    const auto start = SteadyTime::now();
    auto secondsSinceStart = [&] { return std::chrono::duration<double>(SteadyTime::now() - start).count(); };

    auto stopAll = [&] {
        for (auto& a : d.agents) {
            grpc::ClientContext ctx;
            d.authorize(ctx, kNanosPerSecond);
            v1::StopRequest rq;
            rq.set_run_id(runId);
            v1::StopReply reply;
            a.stub->Stop(&ctx, rq, &reply);
        }
    };

    // Start every engine; any refusal stops those already started.
    for (std::uint32_t i = 0; i < n; ++i) {
        auto& a = d.agents[i];
        grpc::ClientContext ctx;
        d.authorize(ctx, d.options.startTimeout);
        v1::StartRunRequest rq;
        rq.set_protocol_version(kControlProtocolVersion);
        rq.set_run_id(runId);
        rq.set_controller(d.options.name);
        *rq.mutable_bundle() = bundle;
        rq.set_engine_index(i);
        rq.set_engine_count(n);
        rq.set_dead_man_seconds(d.options.deadManSeconds);
        v1::StartRunReply reply;
        const grpc::Status s = a.stub->StartRun(&ctx, rq, &reply);
        if (!s.ok() || !reply.accepted()) {
            result.error = "agent " + a.name + ": " + (s.ok() ? reply.error() : s.error_message());
            stopAll();
            return result;
        }
        a.lastHeard = SteadyTime::now();
    }

    std::atomic<bool> finished{false};
    // One reader per agent: Watch, and on a broken stream watch again from the
    // last sequence seen, so that nothing is counted twice or missed.
    std::vector<std::thread> readers;
    for (std::size_t i = 0; i < n; ++i) {
        readers.emplace_back([&, i] {
            auto& a = d.agents[i];
            while (!finished.load()) {
                auto ctx = std::make_unique<grpc::ClientContext>();
                if (!d.options.token.empty())
                    ctx->AddMetadata("authorization", "Bearer " + d.options.token);
                v1::WatchRequest rq;
                rq.set_run_id(runId);
                grpc::ClientContext* raw = ctx.get();
                {
                    std::lock_guard lock(d.mutex);
                    if (a.lost || a.done)
                        return;
                    rq.set_after_sequence(a.lastSequence);
                    a.watchContext = std::move(ctx);
                }
                auto reader = a.stub->Watch(raw, rq);
                v1::Snapshot s;
                bool sawFinal = false;
                while (reader->Read(&s)) {
                    std::lock_guard lock(d.mutex);
                    a.lastHeard = SteadyTime::now();
                    if (s.sequence() <= a.lastSequence)
                        continue; // replayed: already counted
                    a.lastSequence = s.sequence();
                    sawFinal |= s.final();
                    d.inbox.emplace_back(i, s);
                    d.cv.notify_one();
                }
                reader->Finish();
                if (sawFinal)
                    return;
                std::this_thread::sleep_for(std::chrono::milliseconds(200));
            }
        });
    }
    // Heartbeats keep the agents' dead-man timers from firing and tell us they live.
    std::thread heart([&] {
        while (!finished.load()) {
            for (auto& a : d.agents) {
                if (!d.live(a))
                    continue;
                grpc::ClientContext ctx;
                d.authorize(ctx, kNanosPerSecond);
                v1::HeartbeatRequest rq;
                rq.set_run_id(runId);
                v1::HeartbeatReply reply;
                if (a.stub->Heartbeat(&ctx, rq, &reply).ok()) {
                    std::lock_guard lock(d.mutex);
                    a.lastHeard = SteadyTime::now();
                }
            }
            for (int i = 0; i < 10 && !finished.load(); ++i)
                std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
    });

    // Per second, each agent's part as it arrived; merged once complete.
    std::map<std::uint32_t, std::vector<std::pair<std::size_t, IntervalMetricsPtr>>> pending;
    bool aborted = false;
    bool stopSent = false;
    auto emitReady = [&](bool flushAll) {
        while (!pending.empty()) {
            const std::uint32_t s = pending.begin()->first;
            bool complete = true;
            for (const auto& a : d.agents)
                complete &= a.done || a.lost || a.lastSecond >= s;
            if (!complete && !flushAll)
                break;
            auto parts = std::move(pending.begin()->second);
            pending.erase(pending.begin());
            auto m = std::make_unique<IntervalMetrics>();
            m->second = s;
            m->steps.resize(stepCount);
            for (auto& [agent, part] : parts) {
                m->merge(*part);
                if (m_onAgentSecond)
                    m_onAgentSecond(agent, *part);
            }
            const SecondSummary summary = summarizeSecond(*m);
            result.timeline.push_back(summary);
            if (onSecond)
                onSecond(*m, summary);
            result.total.accumulate(*m);
        }
    };

    for (;;) {
        std::deque<std::pair<std::size_t, v1::Snapshot>> batch;
        {
            std::unique_lock lock(d.mutex);
            d.cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return !d.inbox.empty(); });
            batch.swap(d.inbox);
            for (auto& [i, s] : batch) {
                auto& a = d.agents[i];
                if (a.lost)
                    continue; // a lost agent's late data is not counted
                if (s.final()) {
                    a.done = true;
                    if (!s.error().empty())
                        events.push_back({secondsSinceStart(), "agent_error", a.name, s.error(), 0, 0});
                }
                if (s.steps_size() == 0)
                    continue;
                auto m = std::make_unique<IntervalMetrics>();
                std::string error;
                if (!decodeSnapshot(s, *m, error)) {
                    events.push_back({secondsSinceStart(), "agent_error", a.name, error, 0, 0});
                    continue;
                }
                if (!a.firstSecond)
                    a.firstSecond = m->second;
                a.lastSecond = std::max(a.lastSecond, m->second);
                auto& parts = pending[m->second];
                parts.emplace_back(i, std::move(m));
            }
            // Health: an agent silent past the loss timeout is lost.
            const auto now = SteadyTime::now();
            for (auto& a : d.agents) {
                if (a.done || a.lost || now - a.lastHeard < std::chrono::nanoseconds(d.options.lossTimeout))
                    continue;
                a.lost = true;
                if (a.watchContext)
                    a.watchContext->TryCancel();
                RunEvent e{secondsSinceStart(),
                           "agent_lost",
                           a.name,
                           "no word for " + std::to_string(d.options.lossTimeout / kNanosPerMilli) + " ms",
                           a.firstSecond,
                           a.lastSecond};
                events.push_back(e);
                if (d.options.abortOnAgentLoss && !aborted) {
                    aborted = true;
                    events.push_back({secondsSinceStart(), "run_aborted", a.name,
                                      "an agent was lost and the policy is abort", 0, 0});
                }
            }
        }
        if ((aborted || m_stopRequested.load()) && !stopSent) {
            stopAll();
            stopSent = true;
        }
        {
            std::lock_guard lock(d.mutex);
            emitReady(false);
            bool all = true;
            for (const auto& a : d.agents)
                all &= a.done || a.lost;
            if (all)
                break;
        }
    }
    emitReady(true);
    finished = true;
    {
        std::lock_guard lock(d.mutex);
        for (auto& a : d.agents)
            if (a.watchContext)
                a.watchContext->TryCancel();
    }
    for (auto& t : readers)
        t.join();
    heart.join();
    result.elapsed = Nanos(secondsSinceStart() * 1e9);
    result.ok = true;
    result.aborted = aborted;
    return result;
}

} // namespace stampede
