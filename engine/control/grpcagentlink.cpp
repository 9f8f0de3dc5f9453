#include "agentlink.h"

#include "core/textfile.h"
#include "protocolversion.h"
#include "stampede/v1/control.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <chrono>
#include <mutex>

namespace stampede {

namespace {

class GrpcAgentLink final : public AgentLink
{
public:
    GrpcAgentLink(std::string address, std::string token, std::shared_ptr<grpc::ChannelCredentials> creds)
        : m_address(std::move(address)), m_token(std::move(token))
    {
        grpc::ChannelArguments args;
        args.SetMaxReceiveMessageSize(256 * 1024 * 1024);
        m_stub = v1::EngineControl::NewStub(grpc::CreateCustomChannel(m_address, creds, args));
    }

    const std::string& address() const override { return m_address; }

    bool hello(const std::string& controller, Nanos timeout, v1::HelloReply& reply, std::string& error) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, timeout);
        ctx.set_wait_for_ready(true);
        v1::HelloRequest rq;
        rq.set_protocol_version(kControlProtocolVersion);
        rq.set_controller(controller);
        const grpc::Status s = m_stub->Hello(&ctx, rq, &reply);
        if (s.ok())
            return true;
        error = s.error_code() == grpc::StatusCode::DEADLINE_EXCEEDED ? "no answer within the start timeout"
                                                                      : s.error_message();
        return false;
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

    bool heartbeat(const std::string& runId) override
    {
        grpc::ClientContext ctx;
        authorize(ctx, kNanosPerSecond);
        v1::HeartbeatRequest rq;
        rq.set_run_id(runId);
        v1::HeartbeatReply reply;
        return m_stub->Heartbeat(&ctx, rq, &reply).ok();
    }

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
    void authorize(grpc::ClientContext& ctx, Nanos deadline) const
    {
        if (!m_token.empty())
            ctx.AddMetadata("authorization", "Bearer " + m_token);
        ctx.set_deadline(std::chrono::system_clock::now() + std::chrono::nanoseconds(deadline));
    }

    std::string m_address;
    std::string m_token;
    std::unique_ptr<v1::EngineControl::Stub> m_stub;
    std::mutex m_mutex;
    grpc::ClientContext* m_watching = nullptr;
    bool m_cancelled = false;
};

} // namespace

AgentLinkPtr makeGrpcAgentLink(const std::string& address, const std::string& token, const std::string& caFile)
{
    std::shared_ptr<grpc::ChannelCredentials> creds;
    if (!caFile.empty()) {
        grpc::SslCredentialsOptions ssl;
        std::string why; // an unreadable CA fails every call, and the call says so
        (void)readWholeFile(caFile, ssl.pem_root_certs, why);
        creds = grpc::SslCredentials(ssl);
    } else {
        creds = grpc::InsecureChannelCredentials();
    }
    return std::make_unique<GrpcAgentLink>(address, token, std::move(creds));
}

} // namespace stampede
