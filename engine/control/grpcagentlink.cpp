#include "agentlink.h"

#include "core/textfile.h"
#include "net/tlsprobe.h"
#include "protocolversion.h"
#include "stampede/v1/control.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <thread>

namespace stampede {

namespace {

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

    bool heartbeat(const std::string& runId) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::HeartbeatRequest rq;
        rq.set_run_id(runId);
        v1::HeartbeatReply reply;
        return m_stub->Heartbeat(&ctx, rq, &reply).ok();
    }

    bool reachable() override { return tcpAnswers(m_address, 500 * kNanosPerMilli); }

    void watch(const std::string& runId, std::uint64_t afterSequence, const SnapshotCallback& onSnapshot) override
    {
        grpc::ClientContext ctx;
        if (!m_token.empty())
            ctx.AddMetadata("authorization", "Bearer " + m_token);
        {
            std::lock_guard lock(m_mutex);
            if (m_cancelled)
                return;
            m_watching = &ctx;
        }
        v1::WatchRequest rq;
        rq.set_run_id(runId);
        rq.set_after_sequence(afterSequence);
        auto reader = m_stub->Watch(&ctx, rq);
        v1::Snapshot s;
        while (reader->Read(&s))
            onSnapshot(s);
        reader->Finish();
        std::lock_guard lock(m_mutex);
        m_watching = nullptr;
    }

    void cancelWatch() override
    {
        std::lock_guard lock(m_mutex);
        m_cancelled = true;
        if (m_watching)
            m_watching->TryCancel();
    }

private:
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
    std::unique_ptr<v1::EngineControl::Stub> m_stub;
    std::mutex m_mutex;
    grpc::ClientContext* m_watching = nullptr;
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
