#include "agentlink.h"

#include "core/textfile.h"
#include "net/tlsprobe.h"
#include "stampede/v1/control.grpc.pb.h"
#include "wire/protocolversion.h"
#include "wire/sharedwire.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

namespace stampede {

namespace {

// A call under way on the hub's queue; done() runs on the hub's thread.
class HubOp
{
public:
    virtual ~HubOp() = default;
    virtual void done(bool ok) = 0;
};

// One completion queue and one thread for every link of the process: the
// agents' snapshots and heartbeat answers are handled on the thread that
// polls for them. A blocking gRPC call per agent had a thread each, and every
// message was handed from the thread that polled to the one that waited (at
// 16 agents, some 300 context switches a second: most of the controller's
// own cost). Lives while a link holds it; never destroyed on its own thread
// (links, which hold it, wait for their calls before they go).
class LinkHub
{
public:
    static std::shared_ptr<LinkHub> get()
    {
        static std::mutex mutex;
        static std::weak_ptr<LinkHub> current;
        std::lock_guard lock(mutex);
        auto hub = current.lock();
        if (!hub) {
            hub = std::make_shared<LinkHub>();
            current = hub;
        }
        return hub;
    }

    LinkHub()
        : m_thread([this] {
              void* tag = nullptr;
              bool ok = false;
              while (m_queue.Next(&tag, &ok))
                  static_cast<HubOp*>(tag)->done(ok);
          })
    {
    }
    ~LinkHub()
    {
        m_queue.Shutdown();
        m_thread.join();
    }
    LinkHub(const LinkHub&) = delete;
    LinkHub& operator=(const LinkHub&) = delete;

    grpc::CompletionQueue* queue() { return &m_queue; }

private:
    grpc::CompletionQueue m_queue;
    std::thread m_thread;
};

class GrpcAgentLink final : public AgentLink
{
public:
    GrpcAgentLink(std::string address, std::string token, std::string caPem,
                  std::shared_ptr<grpc::ChannelCredentials> creds, const std::string& tlsName)
        : m_address(std::move(address)), m_token(std::move(token)), m_caPem(std::move(caPem))
    {
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(256 * 1024 * 1024);
        // an agent that starts or restarts is found within a fraction of a second
        args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 100);
        args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 100);
        args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 1000);
        // No bandwidth probe: it sent a PING for every snapshot read, a third
        // of the controller's writes at 16 agents; a fixed window of 1 MiB
        // per stream holds a second's snapshot instead.
        args.SetInt(GRPC_ARG_HTTP2_BDP_PROBE, 0);
        args.SetInt(GRPC_ARG_HTTP2_STREAM_LOOKAHEAD_BYTES, 1024 * 1024);
        if (!tlsName.empty() && !m_caPem.empty()) // the certificate names a Service, the address is a pod's
            args.SetSslTargetNameOverride(tlsName);
        m_stub = v1::EngineControl::NewStub(grpc::CreateCustomChannel(m_address, creds, args));
    }

    const std::string& address() const override { return m_address; }

    // Asked in attempts of at most a second until the deadline while nothing
    // answers (an agent may be starting); between attempts a look of our own
    // at the port tells a TLS or plaintext mismatch at once, in words, where
    // gRPC would only wait and say "failed to connect".
    bool hello(const std::string& controller, Nanos timeout, v1::HelloReply& reply, std::string& error) override
    {
        using std::chrono::steady_clock;
        const auto deadline = steady_clock::now() + std::chrono::nanoseconds(timeout);
        std::string last;
        for (;;) {
            const Nanos left = std::chrono::nanoseconds(deadline - steady_clock::now()).count();
            grpc::ClientContext ctx;
            authorize(ctx, std::clamp<Nanos>(left, kNanosPerMilli, kNanosPerSecond));
            ctx.set_wait_for_ready(true);
            v1::HelloRequest rq;
            rq.set_protocol_version(kControlProtocolVersion);
            rq.set_controller(controller);
            const grpc::Status s = m_stub->Hello(&ctx, rq, &reply);
            if (s.ok())
                return true;
            const auto code = s.error_code();
            if (code != grpc::StatusCode::UNAVAILABLE && code != grpc::StatusCode::DEADLINE_EXCEEDED) {
                error = s.error_message();
                return false;
            }
            bool definite = false;
            last = diagnose(definite);
            if (definite) {
                error = last;
                return false;
            }
            if (steady_clock::now() >= deadline) {
                error = "no answer within the start timeout" + (last.empty() ? "" : ": " + last);
                return false;
            }
        }
    }

    bool startRun(const v1::StartRunRequest& request, Nanos timeout, std::string& error) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, timeout);
        v1::StartRunReply reply;
        const grpc::Status s = m_stub->StartRun(&ctx, request, &reply);
        if (s.ok() && reply.accepted())
            return true;
        error = s.ok() ? reply.error() : s.error_message();
        return false;
    }

    bool stop(const std::string& runId, std::string& error) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::StopRequest rq;
        rq.set_run_id(runId);
        v1::StopReply reply;
        const grpc::Status s = m_stub->Stop(&ctx, rq, &reply);
        if (!s.ok())
            error = s.error_message();
        return s.ok();
    }

    bool adjust(const std::string& runId, double factor, std::string& error) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::AdjustRequest rq;
        rq.set_run_id(runId);
        rq.set_level_factor(factor);
        v1::AdjustReply reply;
        const grpc::Status s = m_stub->Adjust(&ctx, rq, &reply);
        if (s.ok() && reply.applied())
            return true;
        error = s.ok() ? reply.error() : s.error_message();
        return false;
    }

    bool adopt(const std::string& runId, std::uint32_t share, std::string& error) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::AdoptRequest rq;
        rq.set_run_id(runId);
        rq.set_engine_index(share);
        v1::AdoptReply reply;
        const grpc::Status s = m_stub->Adopt(&ctx, rq, &reply);
        if (s.ok() && reply.applied())
            return true;
        error = s.ok() ? reply.error() : s.error_message();
        return false;
    }

    bool handOver(const std::string& runId, std::uint32_t share, std::uint32_t fromSecond, std::uint32_t& applied,
                  std::string& error) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::HandOverRequest rq;
        rq.set_run_id(runId);
        rq.set_engine_index(share);
        rq.set_from_second(fromSecond);
        v1::HandOverReply reply;
        const grpc::Status s = m_stub->HandOver(&ctx, rq, &reply);
        if (s.ok() && reply.applied()) {
            applied = reply.from_second();
            return true;
        }
        error = s.ok() ? reply.error() : s.error_message();
        return false;
    }

    bool release(const std::string& runId, std::uint32_t point, bool byTimeout, std::string& error) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::ReleaseRequest rq;
        rq.set_run_id(runId);
        rq.set_point(point);
        rq.set_by_timeout(byTimeout);
        v1::ReleaseReply reply;
        const grpc::Status s = m_stub->Release(&ctx, rq, &reply);
        if (!s.ok())
            error = s.error_message();
        return s.ok();
    }

    ~GrpcAgentLink() override
    {
        std::unique_lock lock(m_mutex);
        for (grpc::ClientContext* c : m_inFlight)
            c->TryCancel();
        m_idle.wait(lock, [&] { return m_inFlight.empty(); });
    }

    bool heartbeat(const std::string& runId) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::HeartbeatRequest rq;
        rq.set_run_id(runId);
        v1::HeartbeatReply reply;
        return m_stub->Heartbeat(&ctx, rq, &reply).ok();
    }

    // On the hub's queue: the answer is handled where it lands, and the
    // caller asks every agent at once instead of one after another.
    void heartbeatAsync(const std::string& runId, std::function<void(bool)> done) override
    {
        auto* call = new HeartbeatCall(*this, std::move(done));
        authorize(call->ctx, kNanosPerSecond);
        v1::HeartbeatRequest rq;
        rq.set_run_id(runId);
        begin(call->ctx);
        call->rpc = m_stub->PrepareAsyncHeartbeat(&call->ctx, rq, m_hub->queue());
        call->rpc->StartCall();
        call->rpc->Finish(&call->reply, &call->status, call);
    }

    bool reachable() override { return tcpAnswers(m_address, 500 * kNanosPerMilli); }

    // The stream is read on the hub's thread, which calls onSnapshot; the
    // caller's thread only waits for its end (no hand-over per snapshot).
    void watch(const std::string& runId, std::uint64_t afterSequence, const SnapshotCallback& onSnapshot) override
    {
        WatchCall call(onSnapshot);
        if (!m_token.empty())
            call.ctx.AddMetadata("authorization", "Bearer " + m_token);
        {
            std::lock_guard lock(m_mutex);
            if (m_cancelled)
                return;
            m_watching = &call.ctx;
        }
        v1::WatchRequest rq;
        rq.set_run_id(runId);
        rq.set_after_sequence(afterSequence);
        call.rpc = m_stub->PrepareAsyncWatch(&call.ctx, rq, m_hub->queue());
        call.rpc->StartCall(&call);
        call.waitForEnd();
        std::lock_guard lock(m_mutex);
        m_watching = nullptr;
    }

    void cancelWatch() override
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        if (m_watching)
            m_watching->TryCancel();
        if (m_sharing)
            m_sharing->TryCancel();
    }

    // One ask at a time, answered as read: the agent's order is the store's.
    bool serveShared(const std::string& runId, SharedStore& store) override
    {
        grpc::ClientContext ctx;
        if (!m_token.empty())
            ctx.AddMetadata("authorization", "Bearer " + m_token);
        {
            std::lock_guard lock(m_mutex);
            if (m_cancelled)
                return false;
            m_sharing = &ctx;
        }
        auto stream = m_stub->Shared(&ctx);
        v1::SharedAnswer first;
        first.set_run_id(runId);
        if (stream->Write(first)) {
            v1::SharedAsk ask;
            while (stream->Read(&ask))
                if (!stream->Write(answerAsk(store, ask)))
                    break;
        }
        stream->WritesDone(); // the agent's side has ended (Read is done) or the stream broke: Finish returns
        const grpc::Status status = stream->Finish();
        std::lock_guard lock(m_mutex);
        m_sharing = nullptr;
        return status.error_code() != grpc::StatusCode::FAILED_PRECONDITION &&
               status.error_code() != grpc::StatusCode::NOT_FOUND;
    }

private:
    // A heartbeat under way; deletes itself once its answer is handed on.
    struct HeartbeatCall final : HubOp
    {
        HeartbeatCall(GrpcAgentLink& l, std::function<void(bool)> d) : link(l), onDone(std::move(d)) {}
        void done(bool) override
        {
            onDone(status.ok());
            link.end(ctx);
            delete this;
        }
        GrpcAgentLink& link;
        std::function<void(bool)> onDone;
        grpc::ClientContext ctx;
        v1::HeartbeatReply reply;
        grpc::Status status;
        std::unique_ptr<grpc::ClientAsyncResponseReader<v1::HeartbeatReply>> rpc;
    };

    // A Watch stream: started, read one snapshot at a time, finished.
    struct WatchCall final : HubOp
    {
        explicit WatchCall(const SnapshotCallback& cb) : onSnapshot(cb) {}
        void done(bool ok) override
        {
            if (stage == Stage::Finishing) {
                std::lock_guard lock(mutex);
                ended = true;
                cv.notify_one(); // under the lock: the waiter cannot leave (and destroy this) before
                return;
            }
            if (ok && stage == Stage::Reading)
                onSnapshot(snapshot);
            if (ok) {
                stage = Stage::Reading;
                rpc->Read(&snapshot, this);
                return;
            }
            stage = Stage::Finishing;
            rpc->Finish(&status, this);
        }
        void waitForEnd()
        {
            std::unique_lock lock(mutex);
            cv.wait(lock, [&] { return ended; });
        }
        enum class Stage
        {
            Starting,
            Reading,
            Finishing
        } stage = Stage::Starting;
        const SnapshotCallback& onSnapshot;
        grpc::ClientContext ctx;
        v1::Snapshot snapshot;
        grpc::Status status;
        std::unique_ptr<grpc::ClientAsyncReader<v1::Snapshot>> rpc;
        std::mutex mutex;
        std::condition_variable cv;
        bool ended = false;
    };

    void begin(grpc::ClientContext& ctx)
    {
        std::lock_guard lock(m_mutex);
        m_inFlight.push_back(&ctx);
    }
    void end(grpc::ClientContext& ctx)
    {
        std::lock_guard lock(m_mutex);
        m_inFlight.erase(std::find(m_inFlight.begin(), m_inFlight.end(), &ctx));
        if (m_inFlight.empty())
            m_idle.notify_all();
    }

    // Why the agent cannot be reached, from a look of our own at its port.
    // `definite`: a mismatch that waiting will not mend.
    std::string diagnose(bool& definite) const
    {
        const TlsProbe p = probeTls(m_address, m_caPem, 2 * kNanosPerSecond);
        definite = true;
        switch (p.kind) {
        case TlsProbe::Kind::Unreachable:
            definite = false;
            return p.detail;
        case TlsProbe::Kind::Plaintext:
            if (m_caPem.empty()) {
                definite = false; // as expected: the trouble is elsewhere
                return {};
            }
            return "the agent speaks plaintext, not TLS: connect without --ca, or start the agent with "
                   "--tls-cert and --tls-key";
        case TlsProbe::Kind::Tls:
            if (m_caPem.empty())
                return "the agent speaks TLS: give --ca with the CA that signed its certificate";
            definite = false;
            return {};
        case TlsProbe::Kind::CertificateRejected:
            return "the agent's TLS certificate is not accepted: " + p.detail;
        case TlsProbe::Kind::HandshakeFailed:
            return "the TLS handshake with the agent failed: " + p.detail;
        }
        return {};
    }

    void authorize(grpc::ClientContext& ctx, Nanos deadline) const
    {
        if (!m_token.empty())
            ctx.AddMetadata("authorization", "Bearer " + m_token);
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::nanoseconds(deadline));
    }

    std::string m_address;
    std::string m_token;
    std::string m_caPem; // empty: plaintext
    std::shared_ptr<LinkHub> m_hub = LinkHub::get();
    std::unique_ptr<v1::EngineControl::Stub> m_stub;
    std::mutex m_mutex;
    std::condition_variable m_idle;               // m_inFlight became empty
    std::vector<grpc::ClientContext*> m_inFlight; // heartbeats under way on the hub
    grpc::ClientContext* m_watching = nullptr;
    grpc::ClientContext* m_sharing = nullptr;
    bool m_cancelled = false;
};

} // namespace

AgentLinkPtr makeGrpcAgentLink(const std::string& address, const std::string& token, const std::string& caFile,
                               const std::string& tlsName)
{
    std::shared_ptr<grpc::ChannelCredentials> creds;
    std::string caPem;
    if (!caFile.empty()) {
        grpc::SslCredentialsOptions ssl;
        std::string why; // the command line refuses an unreadable CA before this
        (void)readWholeFile(caFile, caPem, why);
        ssl.pem_root_certs = caPem;
        creds = grpc::SslCredentials(ssl);
    } else {
        creds = grpc::InsecureChannelCredentials();
    }
    return std::make_unique<GrpcAgentLink>(address, token, std::move(caPem), std::move(creds), tlsName);
}

} // namespace stampede
