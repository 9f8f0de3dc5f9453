#pragma once
// Compiling a scenario's gRPC steps: the schema a step names (descriptors,
// .proto files, or the server's reflection; shared by the steps naming the
// same), the method, the HTTP/2 headers gRPC wants, and the request JSON
// checked or converted. The scenario's compiler lends it what every step
// needs through StepContext.
#include "core/url.h"
#include "scenarioplan.h"

#include <google/protobuf/duration.pb.h>

#include <map>
#include <memory>
#include <optional>
#include <string>

namespace stampede {

namespace v1 {
class GrpcRequest;
class Step;
} // namespace v1

class TlsContext;

inline Nanos toNanos(const google::protobuf::Duration& d)
{
    // saturated: proto3 allows 10,000 years, nanoseconds hold 292 (the bounds are checked on the result)
    constexpr std::int64_t kLimit = 9'000'000'000;
    if (d.seconds() > kLimit || d.seconds() < -kLimit)
        return d.seconds() > 0 ? kLimit * kNanosPerSecond : -kLimit * kNanosPerSecond;
    return Nanos(d.seconds()) * kNanosPerSecond + d.nanos();
}

// What compiling one step needs from the scenario's compiler.
class StepContext
{
public:
    virtual ~StepContext() = default;
    virtual const v1::Scenario& scenario() const = 0;
    virtual const PlanOptions& options() const = 0;
    virtual const ScenarioPlan& plan() const = 0; // the run id and stress header are known before the steps
    // A fault, by the field it concerns.
    virtual void error(std::string field, std::string message) = 0;
    // `text` with ${var} resolved against the scenario's variables; false after reporting a fault.
    virtual bool compileText(const std::string& text, const std::string& field, Template& out) = 0;
    // The same for text that goes into a request's target or a header value
    // (Template::setField): a literal that field cannot carry is a fault.
    bool compileField(const std::string& text, const std::string& field, WireField kind, Template& out)
    {
        if (!compileText(text, field, out))
            return false;
        std::string err;
        if (out.setField(kind, err))
            return true;
        error(field, (kind == WireField::Target ? "the path " : "the value ") + err + ": it would end the line");
        return false;
    }
    // A traceparent header's value for one more request (plan().trace): the
    // iteration's trace id and a span id of the request's own.
    virtual Template traceparent() = 0;
    // A file the run reads (an output must never be one of them).
    virtual void readsFile(const std::string& path) { (void)path; }
    // The run's TLS context for this verification choice (null after a fault).
    virtual std::shared_ptr<TlsContext> tlsContext(bool verify) = 0;
    // The file's content relative to the scenario, or the inline text.
    virtual bool fileOrInline(const std::string& file, const std::string& inlined, const std::string& field,
                              std::string& out) = 0;
};

class GrpcStepCompiler
{
public:
    static constexpr int kMaxMessages = 1000;             // messages out of a streaming step
    static constexpr std::uint32_t kMaxAwaited = 1000000; // messages a streaming step waits for
    explicit GrpcStepCompiler(StepContext& context) : m_ctx(context) {}
    // Compiles step `st` (which has a gRPC call) into `ps`; false after reporting its faults.
    bool compile(const v1::Step& st, const std::string& field, PlannedStep& ps);

private:
    ProtoSchemaPtr schema(const v1::GrpcRequest& g, const std::string& field, const std::string& target, bool verify);
    std::optional<Url> target(const v1::GrpcRequest& g, const std::string& gf, PlannedStep& ps, std::string& target);
    bool verifies(const v1::GrpcRequest& g) const;
    bool method(const v1::GrpcRequest& g, const std::string& gf, const std::string& target, GrpcMethodPlan& plan,
                std::string& path);
    void headers(const v1::GrpcRequest& g, const std::string& gf, const Url& server, const std::string& path,
                 PlannedStep& ps);
    bool body(const v1::GrpcRequest& g, const std::string& gf, const GrpcMethodPlan& plan, PlannedStep& ps);
    // A streaming method's messages out, pacing and what it awaits; a unary method refuses them.
    bool streaming(const v1::GrpcRequest& g, const std::string& gf, const GrpcMethodPlan& plan, PlannedStep& ps);
    bool streamMessages(const v1::GrpcRequest& g, const std::string& gf, const GrpcMethodPlan& plan, CallStreamPlan& sp,
                        PlannedStep& ps);

    StepContext& m_ctx;
    std::map<std::string, ProtoSchemaPtr> m_schemas;
};

} // namespace stampede
