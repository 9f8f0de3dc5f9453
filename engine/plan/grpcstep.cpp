#include "grpcstep.h"

#include "core/text.h"
#include "core/textfile.h"
#include "core/url.h"
#include "grpc/messagecodec.h"
#include "grpc/reflection.h"
#include "stampede/v1/scenario.pb.h"

#include <google/protobuf/descriptor.h>

#include <algorithm>

namespace stampede {

// The schema a gRPC step names: its descriptors, its .proto files, or the
// server's reflection. Steps naming the same ones share it.
ProtoSchemaPtr GrpcStepCompiler::schema(const v1::GrpcRequest& g, const std::string& field, const std::string& target,
                                        bool verify)
{
    std::string key;
    std::string err;
    std::shared_ptr<ProtoSchema> made;
    if (!g.descriptors().empty()) {
        key = "d:" + g.descriptors();
        if (auto it = m_schemas.find(key); it != m_schemas.end())
            return it->second;
        made = ProtoSchema::fromDescriptorSet(g.descriptors(), err);
        if (!made)
            m_ctx.error(field + ".descriptors", err);
    } else if (g.protos_size()) {
        key = "p:";
        for (const auto& f : g.protos()) {
            key += f + "\n";
            m_ctx.readsFile(pathUnder(m_ctx.options().baseDir, f));
        }
        key += "i:";
        for (const auto& d : g.import_paths())
            key += d + "\n";
        if (auto it = m_schemas.find(key); it != m_schemas.end())
            return it->second;
        made = ProtoSchema::importUnder(m_ctx.options().baseDir, g.protos(), g.import_paths(), err);
        if (!made)
            m_ctx.error(field + ".protos", err);
    } else if (g.reflection()) {
        if (!m_ctx.options().reflection)
            return nullptr; // validation only: the server is not asked
        key = "r:" + target;
        if (auto it = m_schemas.find(key); it != m_schemas.end())
            return it->second;
        ReflectionOptions ro;
        ro.target = target;
        ro.verify = verify;
        m_ctx.fileOrInline(m_ctx.scenario().tls().ca_file(), m_ctx.scenario().tls().ca_pem(), "tls.ca_file", ro.caPem);
        made = m_ctx.options().reflection(ro, err); // the caller's I/O, not the compile's
        if (!made)
            m_ctx.error(field + ".reflection", err);
    } else {
        m_ctx.error(field + ".protos", "name the .proto files (protos), give descriptors, or ask for reflection");
        return nullptr;
    }
    if (made)
        m_schemas[key] = made;
    return made;
}

// The target: written out or from constants, scheme://host:port only;
// named (the resolve step looks it up) and with TLS for https.
std::optional<Url> GrpcStepCompiler::target(const v1::GrpcRequest& g, const std::string& gf, PlannedStep& ps,
                                            std::string& target)
{
    if (g.target().empty()) {
        m_ctx.error(gf + ".target", "a gRPC call needs a target: http://host:port (h2c) or https://host:port");
        return std::nullopt;
    }
    // constants may stand for the target (${mock_url}); per-iteration values may not
    Template targetTemplate;
    if (!m_ctx.compileText(g.target(), gf + ".target", targetTemplate))
        return std::nullopt;
    if (!targetTemplate.isConstant()) {
        m_ctx.error(gf + ".target", "the target must be written out or come from constants: \"" + g.target() + "\"");
        return std::nullopt;
    }
    target = targetTemplate.constantText();
    if (target.find("://") == std::string::npos)
        target = "http://" + target;
    while (target.size() > 1 && target.back() == '/')
        target.pop_back();
    std::string err;
    auto parsed = Url::parse(target + "/", err);
    if (!parsed) {
        m_ctx.error(gf + ".target", err);
        return std::nullopt;
    }
    if (parsed->target != "/") {
        m_ctx.error(gf + ".target",
                    "write the server only, scheme://host:port, without a path: \"" + g.target() + "\"");
        return std::nullopt;
    }
    ps.endpoint = Endpoint::named(parsed->host, parsed->port); // looked up by the resolve step
    ps.targetField = gf + ".target";
    if (parsed->scheme == "https") {
        ps.endpoint.tls = m_ctx.tlsContext(verifies(g));
        if (!ps.endpoint.tls)
            return std::nullopt;
        ps.endpoint.serverName =
            m_ctx.scenario().tls().server_name().empty() ? parsed->host : m_ctx.scenario().tls().server_name();
    }
    return parsed;
}

bool GrpcStepCompiler::verifies(const v1::GrpcRequest& g) const
{
    return !(m_ctx.scenario().tls().insecure() || g.insecure());
}

// The method in its schema; `path` becomes package.Service/Method.
bool GrpcStepCompiler::method(const v1::GrpcRequest& g, const std::string& gf, const std::string& target,
                              GrpcMethodPlan& plan, std::string& path)
{
    if (g.method().empty()) {
        m_ctx.error(gf + ".method", "name the method: package.Service/Method");
        return false;
    }
    plan.schema = schema(g, gf, target, verifies(g));
    path = g.method();
    if (!path.empty() && path.front() == '/')
        path.erase(0, 1);
    if (!plan.schema)
        return !m_ctx.options().reflection; // the schema's fault is reported
    std::string err;
    const auto* md = plan.schema->method(path, err);
    if (!md) {
        m_ctx.error(gf + ".method", err);
        return false;
    }
    plan.clientStreams = md->client_streaming();
    plan.serverStreams = md->server_streaming();
    plan.input = md->input_type();
    plan.output = md->output_type();
    path = md->service()->full_name() + "/" + md->name();
    return true;
}

// The HTTP/2 headers gRPC wants, then the step's metadata and the stress tag.
void GrpcStepCompiler::headers(const v1::GrpcRequest& g, const std::string& gf, const Url& server,
                               const std::string& path, PlannedStep& ps)
{
    ps.h2Headers.emplace_back(":method", Template::literal("POST"));
    ps.h2Headers.emplace_back(":scheme", Template::literal(server.scheme));
    ps.h2Headers.emplace_back(":authority", Template::literal(server.hostHeader()));
    ps.h2Headers.emplace_back(":path", Template::literal("/" + path));
    ps.h2Headers.emplace_back("content-type", Template::literal("application/grpc"));
    ps.h2Headers.emplace_back("te", Template::literal("trailers"));
    // grpc-timeout: at most 8 digits, in the coarsest unit that keeps the value whole enough
    const Nanos ms = std::max<Nanos>(1, ps.timeout / kNanosPerMilli);
    ps.h2Headers.emplace_back(
        "grpc-timeout", Template::literal(ms < 100000000 ? std::to_string(ms) + "m" : std::to_string(ms / 1000) + "S"));
    ps.h2Headers.emplace_back("user-agent", Template::literal("stampede/" STAMPEDE_VERSION));
    bool userTrace = false, tagged = false;
    const bool baggageTag = asciiLower(m_ctx.plan().stressHeader) == "baggage";
    for (int h = 0; h < g.metadata_size(); ++h) {
        const auto& md = g.metadata(h);
        const std::string hf = gf + ".metadata[" + std::to_string(h) + "]";
        const std::string lower = asciiLower(md.name());
        if (!isHttpToken(lower)) {
            m_ctx.error(hf + ".name", "\"" + md.name() + "\" is not a metadata key");
            continue;
        }
        if (lower == "content-type" || lower == "te" || lower == "grpc-timeout" || lower == "connection" ||
            lower.rfind("grpc-", 0) == 0) {
            m_ctx.error(hf + ".name", "\"" + md.name() + "\" is set by the engine (or reserved by gRPC)");
            continue;
        }
        Template value;
        if (!m_ctx.compileField(md.value(), hf + ".value", WireField::HeaderValue, value))
            continue;
        userTrace |= lower == "traceparent";
        if (lower == "baggage" && baggageTag && !tagged) {
            value.appendLiteral("," + m_ctx.plan().stressValue); // one baggage: the call's members and the tag
            tagged = true;
        }
        ps.h2Headers.emplace_back(lower, value);
    }
    if (!m_ctx.plan().stressHeader.empty() && !tagged)
        ps.h2Headers.emplace_back(asciiLower(m_ctx.plan().stressHeader), Template::literal(m_ctx.plan().stressValue));
    if (m_ctx.plan().trace && !userTrace)
        ps.h2Headers.emplace_back("traceparent", m_ctx.traceparent());
}

// The request JSON: converted once, here, when constant (a JSON that does not
// fit is reported before the run), else per distinct text by the workers.
bool GrpcStepCompiler::body(const v1::GrpcRequest& g, const std::string& gf, const GrpcMethodPlan& plan,
                            PlannedStep& ps)
{
    Template body;
    if (!m_ctx.compileText(g.data().empty() ? "{}" : g.data(), gf + ".data", body))
        return false;
    ps.hasBody = true;
    ps.h2Fixed =
        std::all_of(ps.h2Headers.begin(), ps.h2Headers.end(), [](const auto& h) { return h.second.isConstant(); }) &&
        body.isConstant();
    if (body.isConstant() && plan.input) {
        std::string binary, err;
        if (!jsonToBinary(*plan.schema, plan.input, body.constantText(), binary, err)) {
            m_ctx.error(gf + ".data", err);
            return false;
        }
        if (ps.h2Fixed)
            body = Template::literal(grpcFrame(binary));
    }
    ps.body = std::move(body);
    return true;
}

bool GrpcStepCompiler::streaming(const v1::GrpcRequest& g, const std::string& gf, const GrpcMethodPlan& plan,
                                 PlannedStep& ps)
{
    const bool both = plan.clientStreams && plan.serverStreams;
    if (!plan.clientStreams && !plan.serverStreams) {
        const char* set = g.messages_size()    ? ".messages"
                          : g.has_interval()   ? ".interval"
                          : g.has_receive()    ? ".receive"
                          : !g.match().empty() ? ".match"
                          : g.request_reply()  ? ".requestReply"
                                               : nullptr;
        if (set && plan.schema) // a method of a schema that reflection has not fetched yet is judged at the run
            m_ctx.error(gf + set, plan.method + " is unary: messages, interval, receive, match and requestReply "
                                                "are for streaming methods");
        return !set || !plan.schema;
    }
    bool ok = true;
    const auto fault = [&](const std::string& field, const std::string& why) {
        m_ctx.error(gf + field, why);
        ok = false;
    };
    if (!plan.clientStreams && g.messages_size())
        fault(".messages", plan.method + " streams from the server only: it sends one message (data)");
    if (g.messages_size() && !g.data().empty())
        fault(".data", "give the messages in messages, or one in data, not both");
    if (g.messages_size() > kMaxMessages)
        fault(".messages", "at most " + std::to_string(kMaxMessages) + " messages");
    if (!plan.serverStreams && (g.has_receive() || !g.match().empty()))
        fault(g.has_receive() ? ".receive" : ".match", plan.method + " answers one message: receive and match are for "
                                                                     "methods whose server streams");
    if (g.request_reply() && !both)
        fault(".requestReply", "a reply to each message is for bidirectional methods");
    if (g.has_receive() && (g.receive() == 0 || g.receive() > kMaxAwaited))
        fault(".receive", "must be between 1 and " + std::to_string(kMaxAwaited) + " (leave it out: the end)");
    auto sp = std::make_shared<CallStreamPlan>();
    sp->clientStreams = plan.clientStreams;
    sp->serverStreams = plan.serverStreams;
    if (g.has_interval()) {
        sp->interval = toNanos(g.interval());
        if (sp->interval < 0 || sp->interval > 3600 * kNanosPerSecond)
            fault(".interval", "must be between 0 and 1h");
        if (!plan.clientStreams && sp->interval)
            fault(".interval", plan.method + " sends one message: an interval is for methods whose client streams");
    }
    sp->requestReply = g.request_reply();
    sp->receive = g.receive();
    sp->match = g.match();
    sp->codec = ps.codec; // `match` reads the messages in as JSON
    if (!ok || !streamMessages(g, gf, plan, *sp, ps))
        return false;
    ps.callStream = std::move(sp);
    return true;
}

// The messages out: each a template of JSON (checked against the method's input when constant); all constant,
// the body is their frames, made here.
bool GrpcStepCompiler::streamMessages(const v1::GrpcRequest& g, const std::string& gf, const GrpcMethodPlan& plan,
                                      CallStreamPlan& sp, PlannedStep& ps)
{
    std::vector<std::pair<std::string, std::string>> texts; // field, JSON
    for (int m = 0; m < g.messages_size(); ++m)
        texts.emplace_back(gf + ".messages[" + std::to_string(m) + "]", g.messages(m));
    if (texts.empty())
        texts.emplace_back(gf + ".data", g.data().empty() ? "{}" : g.data());
    bool constant = true;
    std::string frames;
    for (const auto& [field, text] : texts) {
        Template t;
        if (!m_ctx.compileText(text, field, t))
            return false;
        if (t.isConstant() && plan.input) {
            std::string binary, err;
            if (!jsonToBinary(*plan.schema, plan.input, t.constantText(), binary, err)) {
                m_ctx.error(field, err);
                return false;
            }
            frames += grpcFrame(binary);
        }
        constant &= t.isConstant();
        sp.messages.push_back(std::move(t));
    }
    ps.hasBody = true;
    ps.h2Fixed = constant && plan.input && std::all_of(ps.h2Headers.begin(), ps.h2Headers.end(), [](const auto& h) {
                     return h.second.isConstant();
                 });
    ps.body = ps.h2Fixed ? Template::literal(frames) : Template();
    return true;
}

bool GrpcStepCompiler::compile(const v1::Step& st, const std::string& field, PlannedStep& ps)
{
    const auto& g = st.grpc();
    const std::string gf = field + ".grpc";
    if (st.has_request() && !st.request().url().empty()) {
        m_ctx.error(field, "a step is an HTTP request or a gRPC call, not both");
        return false;
    }
    std::string server;
    const auto parsed = target(g, gf, ps, server);
    if (!parsed)
        return false;
    auto plan = std::make_shared<GrpcMethodPlan>();
    std::string path;
    if (!method(g, gf, server, *plan, path))
        return false;
    plan->method = path;
    ps.method = "POST";
    ps.url = server + "/" + path;
    ps.name = st.name().empty() ? path : st.name();
    if (g.has_deadline()) {
        ps.timeout = toNanos(g.deadline());
        if (ps.timeout <= 0) {
            m_ctx.error(gf + ".deadline", "must be positive");
            return false;
        }
    }
    headers(g, gf, *parsed, path, ps);
    ps.codec = std::make_shared<GrpcMessageCodec>(plan->schema, plan->input, plan->output);
    if (!streaming(g, gf, *plan, ps))
        return false;
    if (!ps.callStream && !body(g, gf, *plan, ps))
        return false;
    ps.fixed = false; // no HTTP/1.1 form
    ps.protocol = Protocol::Grpc;
    ps.grpc = std::move(plan);
    return true;
}

} // namespace stampede
