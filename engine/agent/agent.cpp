#include "agent.h"

#include "core/cpubudget.h"
#include "core/processusage.h"

#include <algorithm>

#include "bundle/bundlefile.h"
#include "deadman.h"
#include "metrics/runseries.h"
#include "net/metricsendpoint.h"
#include "plan/scenarioplan.h"
#include "resolve/scriptsyntax.h"
#include "resolve/targets.h"
#include "run/runengine.h"
#include "sharedchannel.h"
#include "stampede/v1/control.grpc.pb.h"
#include "wire/snapshotcodec.h"
#include "wire/wireutf8.h"

#include <grpcpp/grpcpp.h>
#include <grpcpp/security/server_credentials.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <fstream>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

namespace stampede {

namespace {

std::string readFile(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// One run on this agent, from StartRun to its final snapshot.
struct AgentRun
{
    std::string id;
    std::string controller;
    ScenarioPlan plan;
    std::unique_ptr<RunEngine> engine;
    std::thread thread;
    std::vector<v1::Snapshot> snapshots; // all of them, for replay after a broken stream
    bool finished = false;
    std::optional<DeadManTimer> deadMan;
    std::string deadManNote; // set when the dead-man stopped the load
    // this engine's arrivals at each rendezvous point, sent as they change (not kept for replay)
    std::map<std::uint32_t, std::uint64_t> rendezvous;
    std::uint64_t rendezvousVersion = 0;
    std::shared_ptr<SharedChannel> shared; // the run's shared data, asked of the controller (null: it uses none)

    // The controller spoke: the dead-man starts again, and the engine's lease
    // (checked by its workers on the agent's clock, as the dead-man) is renewed by as much.
    void heard()
    {
        deadMan->heard();
        if (engine)
            engine->renewLease(engine->clock().now() + deadMan->limit());
    }
};

class Service final : public v1::EngineControl::Service
{
public:
    explicit Service(const AgentOptions& o) : m_options(o), m_clock(o.clock ? o.clock : std::make_shared<SteadyClock>())
    {
        m_watchdog = std::thread([this] { watchdog(); });
    }
    ~Service() override
    {
        {
            std::lock_guard lock(m_mutex);
            m_closing = true;
            if (m_run && m_run->engine)
                m_run->engine->stop();
        }
        m_cv.notify_all();
        m_watchdog.join();
        if (m_run && m_run->thread.joinable())
            m_run->thread.join();
    }

    grpc::Status Hello(grpc::ServerContext* ctx, const v1::HelloRequest* rq, v1::HelloReply* reply) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        reply->set_protocol_version(kControlProtocolVersion);
        reply->set_agent(m_options.name);
        reply->set_cores(cpuBudget().cpus); // usable: its affinity within its cgroup's quota
        reply->set_version(m_options.version);
        reply->mutable_labels()->insert(m_options.labels.begin(), m_options.labels.end());
        std::lock_guard lock(m_mutex);
        if (m_run && !m_run->finished)
            reply->set_busy_with("run " + m_run->id + " for " + m_run->controller);
        return grpc::Status::OK;
    }

    // /readyz's line: "ready: idle" or "ready: busy with run st-… for HOST".
    std::string readiness()
    {
        std::lock_guard lock(m_mutex);
        return m_run && !m_run->finished ? "ready: busy with run " + m_run->id + " for " + m_run->controller
                                         : "ready: idle";
    }

    grpc::Status StartRun(grpc::ServerContext* ctx, const v1::StartRunRequest* rq, v1::StartRunReply* reply) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        if (rq->protocol_version() != kControlProtocolVersion) {
            reply->set_error("agent " + m_options.name + " speaks control protocol version " +
                             std::to_string(kControlProtocolVersion) + ", the controller speaks version " +
                             std::to_string(rq->protocol_version()) + ": use the same stampede version on both");
            return grpc::Status::OK;
        }
        if (std::string why = checkShares(*rq); !why.empty()) {
            reply->set_error(why);
            return grpc::Status::OK;
        }
        std::unique_lock lock(m_mutex);
        if (m_run && !m_run->finished) {
            reply->set_error("agent " + m_options.name + " is busy with run " + m_run->id + " for " +
                             m_run->controller);
            return grpc::Status::OK;
        }
        if (m_run && m_run->thread.joinable())
            m_run->thread.join();
        if (const std::string path = pathNamedIn(rq->bundle().scenario()); !path.empty()) {
            reply->set_error("agent " + m_options.name + " refuses the run: its scenario names a file to open, " +
                             path + "; an agent never opens a path it was given (bundles carry their data inline)");
            return grpc::Status::OK;
        }
        std::vector<PlanError> errors;
        PlanOptions po;
        po.runId = rq->run_id();
        po.reflection = serverReflection();
        auto plan = compileScenario(rq->bundle().scenario(), po, errors);
        if (!checkScriptSyntax(rq->bundle().scenario(), errors) || (plan && !resolveTargets(*plan, errors)))
            plan.reset();
        if (!plan) {
            std::string text;
            for (const auto& e : errors)
                text += (text.empty() ? "" : "; ") + e.text();
            reply->set_error(text);
            return grpc::Status::OK;
        }
        auto run = std::make_unique<AgentRun>();
        run->id = rq->run_id();
        run->controller = rq->controller().empty() ? "an unnamed controller" : rq->controller();
        run->plan = std::move(*plan);
        EngineSlice slice;
        slice.index = rq->engine_index();
        slice.count = rq->engine_count();
        slice.more.assign(rq->more_shares().begin(), rq->more_shares().end());
        slice.elapsed = Nanos(rq->elapsed_ns());
        slice.fromSecond = rq->from_second();
        run->engine = std::make_unique<RunEngine>(run->plan, slice, m_clock.get()); // one clock: the dead-man's
        if (run->plan.sharedData) { // held by the controller, which opens the Shared stream once it started us
            run->shared = std::make_shared<SharedChannel>();
            run->engine->setShared(run->shared.get());
        }
        if (rq->level_factor() > 0 || rq->from_second()) // a joiner: the run's level now (0: paused)
            run->engine->adjust(rq->level_factor());
        // the controller may ask for a shorter dead-man time, never a longer one than the agent allows
        const unsigned deadMan = rq->dead_man_seconds()
                                     ? std::min(rq->dead_man_seconds(), m_options.defaultDeadManSeconds)
                                     : m_options.defaultDeadManSeconds;
        run->deadMan.emplace(*m_clock, Nanos(deadMan) * kNanosPerSecond);
        run->heard();
        AgentRun* r = run.get();
        if (RendezvousBoard* board = r->engine->rendezvous(); board && rq->engine_count() > 1)
            board->setObserver([this, r](std::size_t point, std::uint64_t arrived) { // for the controller's decision
                std::lock_guard lock(m_mutex);
                r->rendezvous[std::uint32_t(point)] = arrived;
                ++r->rendezvousVersion;
                m_cv.notify_all();
            });
        m_run = std::move(run);
        r->thread = std::thread([this, r] { execute(*r); });
        reply->set_accepted(true);
        if (m_options.log)
            std::fprintf(stderr, "agent %s: run %s for %s (engine %u of %u)\n", m_options.name.c_str(), r->id.c_str(),
                         r->controller.c_str(), rq->engine_index() + 1, rq->engine_count());
        return grpc::Status::OK;
    }

    grpc::Status Watch(grpc::ServerContext* ctx, const v1::WatchRequest* rq,
                       grpc::ServerWriter<v1::Snapshot>* writer) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        std::uint64_t next = rq->after_sequence(); // index of the next snapshot to send
        std::unique_lock lock(m_mutex);
        if (!m_run || m_run->id != rq->run_id())
            return {grpc::StatusCode::NOT_FOUND, "agent " + m_options.name + " has no run " + rq->run_id()};
        AgentRun* run = m_run.get();
        std::uint64_t rendezvousSent = 0;
        for (;;) {
            if (run->rendezvousVersion != rendezvousSent) { // arrivals first: a release waits on them
                rendezvousSent = run->rendezvousVersion;
                v1::Snapshot s;
                s.set_run_id(run->id);
                for (const auto& [point, arrived] : run->rendezvous) {
                    auto* c = s.add_rendezvous();
                    c->set_point(point);
                    c->set_arrived(arrived);
                }
                lock.unlock();
                if (!writer->Write(s))
                    return {grpc::StatusCode::CANCELLED, "the controller went away"};
                lock.lock();
                if (m_run.get() != run)
                    return {grpc::StatusCode::ABORTED, "the run was replaced"};
                continue;
            }
            while (next < run->snapshots.size()) {
                const v1::Snapshot s = run->snapshots[next++];
                lock.unlock();
                if (!writer->Write(s))
                    return {grpc::StatusCode::CANCELLED, "the controller went away"};
                lock.lock();
                if (m_run.get() != run)
                    return {grpc::StatusCode::ABORTED, "the run was replaced"};
                if (s.final())
                    return grpc::Status::OK;
            }
            if (ctx->IsCancelled() || m_closing)
                return {grpc::StatusCode::CANCELLED, "cancelled"};
            if (run->rendezvousVersion != rendezvousSent)
                continue;
            m_cv.wait_for(lock, std::chrono::milliseconds(200));
            if (m_run.get() != run)
                return {grpc::StatusCode::ABORTED, "the run was replaced"};
        }
    }

    // The controller's stream of the run's shared data: its first message names the run.
    grpc::Status Shared(grpc::ServerContext* ctx,
                        grpc::ServerReaderWriter<v1::SharedAsk, v1::SharedAnswer>* stream) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        v1::SharedAnswer first;
        if (!stream->Read(&first))
            return {grpc::StatusCode::CANCELLED, "the stream named no run"};
        std::shared_ptr<SharedChannel> channel;
        {
            std::lock_guard lock(m_mutex);
            if (!m_run || m_run->id != first.run_id())
                return {grpc::StatusCode::NOT_FOUND, "agent " + m_options.name + " has no run " + first.run_id()};
            channel = m_run->shared;
        }
        if (!channel)
            return {grpc::StatusCode::FAILED_PRECONDITION, "run " + first.run_id() + " uses no shared data"};
        return channel->serve(*ctx, *stream);
    }

    grpc::Status Heartbeat(grpc::ServerContext* ctx, const v1::HeartbeatRequest* rq, v1::HeartbeatReply* reply) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        std::lock_guard lock(m_mutex);
        if (m_run && m_run->id == rq->run_id()) {
            m_run->heard();
            reply->set_running(!m_run->finished);
        }
        return grpc::Status::OK;
    }

    grpc::Status Adjust(grpc::ServerContext* ctx, const v1::AdjustRequest* rq, v1::AdjustReply* reply) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        if (!(rq->level_factor() >= 0) || rq->level_factor() > kMaxLevelFactor) {
            reply->set_error("level factor must be between 0 and " + std::to_string(std::int64_t(kMaxLevelFactor)));
            return grpc::Status::OK;
        }
        std::lock_guard lock(m_mutex);
        if (!runningLocked(rq->run_id(), *reply))
            return grpc::Status::OK;
        m_run->engine->adjust(rq->level_factor());
        reply->set_applied(true);
        return grpc::Status::OK;
    }

    grpc::Status Adopt(grpc::ServerContext* ctx, const v1::AdoptRequest* rq, v1::AdoptReply* reply) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        std::lock_guard lock(m_mutex);
        if (!runningLocked(rq->run_id(), *reply))
            return grpc::Status::OK;
        if (!m_run->engine->adopt(rq->engine_index())) {
            reply->set_error("engine " + std::to_string(rq->engine_index()) + " is not another share of run " +
                             rq->run_id());
            return grpc::Status::OK;
        }
        if (m_options.log)
            std::fprintf(stderr, "agent %s: run %s: takes over engine %u's share from the next second\n",
                         m_options.name.c_str(), m_run->id.c_str(), rq->engine_index() + 1);
        reply->set_applied(true);
        return grpc::Status::OK;
    }

    grpc::Status HandOver(grpc::ServerContext* ctx, const v1::HandOverRequest* rq, v1::HandOverReply* reply) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        std::lock_guard lock(m_mutex);
        if (!runningLocked(rq->run_id(), *reply))
            return grpc::Status::OK;
        const std::uint32_t second = m_run->engine->handOver(rq->engine_index(), rq->from_second());
        if (!second) {
            reply->set_error("engine " + std::to_string(rq->engine_index() + 1) + "'s share is not this agent's");
            return grpc::Status::OK;
        }
        if (m_options.log)
            std::fprintf(stderr, "agent %s: run %s: hands engine %u's share over from second %u\n",
                         m_options.name.c_str(), m_run->id.c_str(), rq->engine_index() + 1, second);
        reply->set_applied(true);
        reply->set_from_second(second);
        return grpc::Status::OK;
    }

    grpc::Status Stop(grpc::ServerContext* ctx, const v1::StopRequest* rq, v1::StopReply*) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        std::lock_guard lock(m_mutex);
        if (!m_run || m_run->id != rq->run_id()) // only the run's own id stops it
            return {grpc::StatusCode::NOT_FOUND, "no run " + rq->run_id() + " on this agent"};
        if (m_run->engine)
            m_run->engine->stop();
        if (m_options.log)
            std::fprintf(stderr, "agent %s: run %s stopped by its controller\n", m_options.name.c_str(),
                         m_run->id.c_str());
        return grpc::Status::OK;
    }

    grpc::Status Release(grpc::ServerContext* ctx, const v1::ReleaseRequest* rq, v1::ReleaseReply*) override
    {
        if (auto s = checkToken(ctx); !s.ok())
            return s;
        std::lock_guard lock(m_mutex);
        if (!m_run || m_run->id != rq->run_id() || !m_run->engine)
            return {grpc::StatusCode::NOT_FOUND, "no run " + rq->run_id() + " on this agent"};
        if (RendezvousBoard* board = m_run->engine->rendezvous())
            board->release(rq->point(), rq->by_timeout());
        return grpc::Status::OK;
    }

private:
    // The shares a StartRun names: each a share of the run, at most kMaxShares;
    // a joiner's age and first second within a day. Empty when they are.
    static std::string checkShares(const v1::StartRunRequest& rq)
    {
        const std::uint32_t n = rq.engine_count();
        if (n == 0 || n > kMaxShares || rq.engine_index() >= n)
            return "engine index " + std::to_string(rq.engine_index()) + " of " + std::to_string(n) +
                   " is not a share (at most " + std::to_string(kMaxShares) + " shares)";
        if (std::size_t(rq.more_shares_size()) >= n)
            return std::to_string(rq.more_shares_size() + 1) + " shares of " + std::to_string(n) + " for one agent";
        for (const std::uint32_t s : rq.more_shares())
            if (s >= n)
                return "share " + std::to_string(s) + " is not one of " + std::to_string(n);
        constexpr std::uint64_t kDay = 86400;
        if (rq.elapsed_ns() > kDay * std::uint64_t(kNanosPerSecond) || rq.from_second() > kDay)
            return "a run joined after more than a day";
        if (!(rq.level_factor() >= 0) || rq.level_factor() > kMaxLevelFactor)
            return "level factor must be between 0 and " + std::to_string(std::int64_t(kMaxLevelFactor));
        return {};
    }

    // Under m_mutex: whether run `id` is running here; if not, `reply` says so.
    template <typename Reply> bool runningLocked(const std::string& id, Reply& reply) const
    {
        if (m_run && m_run->id == id && !m_run->finished && m_run->engine)
            return true;
        reply.set_error("agent " + m_options.name + " is not running run " + id);
        return false;
    }

    grpc::Status checkToken(grpc::ServerContext* ctx) const
    {
        if (m_options.token.empty())
            return grpc::Status::OK;
        const auto& md = ctx->client_metadata();
        const auto it = md.find("authorization");
        if (it == md.end() || std::string(it->second.data(), it->second.size()) != "Bearer " + m_options.token)
            return {grpc::StatusCode::UNAUTHENTICATED, "a valid token is required"};
        return grpc::Status::OK;
    }

    void execute(AgentRun& run)
    {
        std::uint64_t sequence = 0;
        auto publish = [&](v1::Snapshot s) {
            makeStringsUtf8(s); // a server's bytes in a sample's detail must not make the snapshot unsendable
            std::lock_guard lock(m_mutex);
            s.set_run_id(run.id);
            s.set_sequence(++sequence);
            // the run ends as its final snapshot is given out, not after: a controller that starts its next
            // run (a plan's main run after its setup) as soon as it reads it finds this agent free
            run.finished |= s.final();
            run.snapshots.push_back(std::move(s));
            m_cv.notify_all();
        };
        {
            std::lock_guard lock(m_mutex);
            std::vector<RunSeries::Step> steps;
            for (const auto& st : run.plan.steps) {
                RunSeries::Step one{st.name, {}};
                for (const auto& c : st.checks)
                    one.checks.push_back(c.name);
                steps.push_back(std::move(one));
            }
            m_series.setRun(run.id, run.plan.name, std::move(steps));
            m_series.setActive(true);
        }
        ProcessUsage usage;
        const RunResult result = run.engine->run([&](const IntervalMetrics& second, const SecondSummary& summary) {
            v1::Snapshot s;
            encodeSnapshot(second, s);
            // this generator's own health, as the second ends (not over the few
            // milliseconds of a run's last, partial second: too short to tell)
            if (const ProcessUsage::Sample u = usage.sample(); u.interval >= 0.5) {
                s.set_cpu(std::min(1.0, u.cpu));
                s.set_rss_bytes(u.rssBytes);
            }
            {
                std::lock_guard lock(m_mutex); // this agent's part of the run, as the controller's series say it
                m_series.setGauges(summary.second, second.openConnections, second.activeUsers);
                for (std::size_t i = 0; i < second.steps.size(); ++i) {
                    m_series.addCounters(i, second.steps[i].counters, second.steps[i].checks);
                    m_series.addLatency(i, second.steps[i].latency);
                }
            }
            publish(std::move(s));
        });
        v1::Snapshot last;
        last.set_final(true);
        for (const auto& [name, value] : result.values)
            (*last.mutable_values())[name] = value;
        if (!result.ok)
            last.set_error(result.error);
        if (run.shared)
            run.shared->close(); // a script still waiting is told the run is over
        bool leaseSaid = false;
        for (const auto& e : result.events) {
            auto* n = last.add_notes();
            n->set_kind(e.kind);
            n->set_detail(e.detail);
            n->set_at_s(e.atS);
            leaseSaid |= e.kind == "lease_expired";
        }
        {
            std::lock_guard lock(m_mutex);
            if (!run.deadManNote.empty() && !leaseSaid) {
                auto* n = last.add_notes();
                n->set_kind("dead_man");
                n->set_detail(run.deadManNote);
            }
        }
        publish(std::move(last)); // nothing of this agent's state is touched past here: StartRun joins this thread
        if (m_options.log)
            std::fprintf(stderr, "agent %s: run %s ended\n", m_options.name.c_str(), run.id.c_str());
    }

    void watchdog()
    {
        std::unique_lock lock(m_mutex);
        while (!m_closing) {
            m_cv.wait_for(lock, std::chrono::milliseconds(250));
            if (m_run && !m_run->finished && m_run->engine && m_run->deadMan->expired()) {
                const auto limit = static_cast<long long>(m_run->deadMan->limit() / kNanosPerSecond);
                std::fprintf(stderr, "agent %s: controller silent for %lld s, stopping run %s\n",
                             m_options.name.c_str(), limit, m_run->id.c_str());
                m_run->deadManNote = "the controller was silent for " + std::to_string(limit) + " s: the load stopped";
                m_run->engine->stop();
            }
        }
    }

public:
    // Prometheus text: this agent's part of its current (or last) run, in the controller's series
    // (metrics/runseries.h: the same names and labels; the agents' parts add up to the controller's).
    std::string metricsText()
    {
        std::lock_guard lock(m_mutex);
        m_series.setActive(m_run && !m_run->finished);
        return m_series.exposition();
    }

private:
    RunSeries m_series;
    const AgentOptions& m_options;
    ClockPtr m_clock;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::unique_ptr<AgentRun> m_run;
    bool m_closing = false;
    std::thread m_watchdog;
};

// The token is checked by gRPC's auth hook, before the call's payload is
// read, so an unauthenticated caller cannot make the agent buffer a message:
// with TLS, and without TLS on loopback (gRPC's local credentials, which only
// accept loopback peers). An agent told to listen elsewhere without TLS
// (--insecure) has no such hook: each handler checks the token first.
class TokenProcessor final : public grpc::AuthMetadataProcessor
{
public:
    explicit TokenProcessor(const std::string& token) : m_expected("Bearer " + token) {}
    bool IsBlocking() const override { return false; }
    grpc::Status Process(const InputMetadata& metadata, grpc::AuthContext*, OutputMetadata*, OutputMetadata*) override
    {
        const auto it = metadata.find("authorization");
        if (it == metadata.end() || std::string(it->second.data(), it->second.size()) != m_expected)
            return {grpc::StatusCode::UNAUTHENTICATED, "a valid token is required"};
        return grpc::Status::OK;
    }

private:
    std::string m_expected;
};

} // namespace

bool isLoopbackAddress(const std::string& address)
{
    const std::string host = address.substr(0, address.rfind(':'));
    return host.rfind("127.", 0) == 0 || host == "localhost" || host == "[::1]";
}

class Agent::Impl
{
public:
    explicit Impl(AgentOptions o) : options(std::move(o)), service(options) {}
    AgentOptions options;
    Service service;
    std::unique_ptr<grpc::Server> server;
    std::unique_ptr<MetricsEndpoint> metrics;
    int port = 0;
};

Agent::Agent(AgentOptions options) : m_impl(std::make_unique<Impl>(std::move(options))) {}

Agent::~Agent()
{
    shutdown();
}

bool Agent::start(const std::string& address, std::string& error)
{
    std::shared_ptr<grpc::ServerCredentials> creds;
    if (!m_impl->options.tlsCertFile.empty()) {
        grpc::SslServerCredentialsOptions ssl;
        const std::string cert = readFile(m_impl->options.tlsCertFile);
        const std::string key = readFile(m_impl->options.tlsKeyFile);
        if (cert.empty() || key.empty()) {
            error = "cannot read the TLS certificate or key";
            return false;
        }
        ssl.pem_key_cert_pairs.push_back({key, cert});
        creds = grpc::SslServerCredentials(ssl);
        if (!m_impl->options.token.empty())
            creds->SetAuthMetadataProcessor(std::make_shared<TokenProcessor>(m_impl->options.token));
    } else if (const std::string host = address.substr(0, address.rfind(':'));
               host == "127.0.0.1" || host == "localhost" || host == "[::1]") {
        // gRPC's local credentials take a peer of 127.0.0.1 or ::1 only; on
        // another loopback address (127.0.0.2, a pool's agents side by side)
        // the channel is plain and each handler checks the token, as below
        creds = grpc::experimental::LocalServerCredentials(LOCAL_TCP);
        if (!m_impl->options.token.empty())
            creds->SetAuthMetadataProcessor(std::make_shared<TokenProcessor>(m_impl->options.token));
    } else {
        creds = grpc::InsecureServerCredentials();
    }
    grpc::ServerBuilder builder;
    builder.AddListeningPort(address, creds, &m_impl->port);
    builder.RegisterService(&m_impl->service);
    builder.SetMaxReceiveMessageSize(256 * 1024 * 1024);
    m_impl->server = builder.BuildAndStart();
    if (!m_impl->server || m_impl->port == 0) {
        error = "cannot listen on " + address;
        return false;
    }
    if (!m_impl->options.metricsAddress.empty()) {
        m_impl->metrics = std::make_unique<MetricsEndpoint>([this] { return m_impl->service.metricsText(); });
        m_impl->metrics->setReadiness([this](std::string& said) { // serving: it takes a run, or names its own
            said = m_impl->service.readiness();
            return true;
        });
        if (!m_impl->metrics->start(m_impl->options.metricsAddress, error))
            return false;
    }
    return true;
}

int Agent::metricsPort() const
{
    return m_impl->metrics ? m_impl->metrics->port() : 0;
}

int Agent::port() const
{
    return m_impl->port;
}

void Agent::wait()
{
    if (m_impl->server)
        m_impl->server->Wait();
}

void Agent::shutdown()
{
    if (m_impl->metrics)
        m_impl->metrics->stop();
    if (m_impl->server)
        m_impl->server->Shutdown(std::chrono::system_clock::now() + std::chrono::milliseconds(200));
}

} // namespace stampede
