#include "mockh2.h"

#include "core/clock.h"
#include "core/grpcprefix.h"
#include "core/text.h"
#include "grpc/reflection.h"
#include "stampede/v1/reflection.pb.h"

#include <nghttp2/nghttp2.h>

#include <algorithm>
#include <cstring>
#include <vector>

namespace stampede {

struct MockH2::Stream
{
    std::string method, path, contentType;
    std::vector<std::pair<std::string, std::string>> headers; // kept only when some rule requires headers
    std::string in;                                           // request body (gRPC and reflection requests)
    std::string out;                                          // answer body not yet sent
    std::size_t outPos = 0;
    const std::string* fixedBody = nullptr; // a rule's body, sent without copying
    bool finished = false;                  // no more body will be added
    bool trailers = false;                  // gRPC: grpc-status goes in trailers after the body
    unsigned grpcStatus = 0;
    bool responded = false; // headers submitted
    bool reflection = false;
    // A gRPC streaming rule's call, taken at the request's headers: messages pushed, the client's last message
    // (a client-streaming echo answers it).
    const MockRule* streamRule = nullptr;
    std::uint32_t pushed = 0;
    std::string lastIn;
};

namespace {

nghttp2_nv nv(const std::string& name, const std::string& value)
{
    return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
            reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
            NGHTTP2_NV_FLAG_NONE};
}

// gRPC's grpc-message is percent-encoded outside printable ASCII.
std::string percentEncode(const std::string& v)
{
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (unsigned char c : v) {
        if (c >= 0x20 && c < 0x7f && c != '%') {
            out += char(c);
        } else {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    return out;
}

} // namespace

struct MockH2Callbacks
{
    static MockH2::Stream* stream(nghttp2_session* s, std::int32_t id)
    {
        return static_cast<MockH2::Stream*>(nghttp2_session_get_stream_user_data(s, id));
    }

    static int beginHeaders(nghttp2_session* s, const nghttp2_frame* frame, void* self)
    {
        auto* h = static_cast<MockH2*>(self);
        if (frame->hd.type != NGHTTP2_HEADERS || frame->headers.cat != NGHTTP2_HCAT_REQUEST)
            return 0;
        auto st = std::make_unique<MockH2::Stream>();
        nghttp2_session_set_stream_user_data(s, frame->hd.stream_id, st.get());
        h->m_streams[frame->hd.stream_id] = std::move(st);
        return 0;
    }

    static int header(nghttp2_session* s, const nghttp2_frame* frame, const std::uint8_t* name, std::size_t namelen,
                      const std::uint8_t* value, std::size_t valuelen, std::uint8_t, void* self)
    {
        MockH2::Stream* st = stream(s, frame->hd.stream_id);
        if (!st)
            return 0;
        const std::string_view n(reinterpret_cast<const char*>(name), namelen);
        const std::string_view v(reinterpret_cast<const char*>(value), valuelen);
        if (n == ":method")
            st->method = v;
        else if (n == ":path")
            st->path = v.substr(0, v.find('?'));
        else if (n == "content-type")
            st->contentType = asciiLower(v);
        if (auto* h = static_cast<MockH2*>(self); h->m_rules.anyRequire() && !n.empty() && n[0] != ':')
            st->headers.emplace_back(n, v);
        return 0;
    }

    static int data(nghttp2_session* s, std::uint8_t, std::int32_t id, const std::uint8_t* data, std::size_t len,
                    void* self)
    {
        auto* h = static_cast<MockH2*>(self);
        MockH2::Stream* st = stream(s, id);
        if (st && st->streamRule) {
            if (st->in.size() + len > (16u << 20))
                return NGHTTP2_ERR_CALLBACK_FAILURE;
            st->in.append(reinterpret_cast<const char*>(data), len);
            h->streamIn(id, *st);
            return 0;
        }
        if (!st || !st->reflection)
            return 0; // the body of other requests is not needed
        if (st->in.size() + len > (16u << 20))
            return NGHTTP2_ERR_CALLBACK_FAILURE;
        st->in.append(reinterpret_cast<const char*>(data), len);
        h->reflect(*st); // answered message by message, as a streaming client expects
        nghttp2_session_resume_data(s, id);
        return 0;
    }

    static int frame(nghttp2_session* s, const nghttp2_frame* frame, void* self)
    {
        auto* h = static_cast<MockH2*>(self);
        if (frame->hd.type != NGHTTP2_HEADERS && frame->hd.type != NGHTTP2_DATA)
            return 0;
        MockH2::Stream* st = stream(s, frame->hd.stream_id);
        if (!st)
            return 0;
        if (frame->hd.type == NGHTTP2_HEADERS && st->path == kReflectionPath && h->m_rules.schema()) {
            // a stream: the answer starts now, and each request is answered as it comes
            st->reflection = true;
            h->respond(frame->hd.stream_id, *st, nullptr, false);
        } else if (frame->hd.type == NGHTTP2_HEADERS && !st->streamRule) {
            h->streamStart(frame->hd.stream_id, *st);
        }
        if (frame->hd.flags & NGHTTP2_FLAG_END_STREAM)
            h->requestComplete(frame->hd.stream_id, *st);
        return 0;
    }

    static int closed(nghttp2_session* s, std::int32_t id, std::uint32_t, void* self)
    {
        auto* h = static_cast<MockH2*>(self);
        nghttp2_session_set_stream_user_data(s, id, nullptr);
        h->m_streams.erase(id);
        return 0;
    }

    static ssize_t readBody(nghttp2_session* s, std::int32_t id, std::uint8_t* buf, std::size_t length,
                            std::uint32_t* flags, nghttp2_data_source*, void* self)
    {
        MockH2::Stream* st = stream(s, id);
        if (!st) {
            *flags |= NGHTTP2_DATA_FLAG_EOF;
            return 0;
        }
        if (st->streamRule && st->outPos == st->out.size())
            static_cast<MockH2*>(self)->streamRefill(*st);
        const std::string& body = st->fixedBody ? *st->fixedBody : st->out;
        const std::size_t n = std::min(length, body.size() - st->outPos);
        std::memcpy(buf, body.data() + st->outPos, n);
        st->outPos += n;
        if (st->outPos < body.size())
            return ssize_t(n);
        if (!st->finished) {
            if (n)
                return ssize_t(n);
            return NGHTTP2_ERR_DEFERRED; // more comes when the client sends more
        }
        *flags |= NGHTTP2_DATA_FLAG_EOF;
        if (st->trailers) {
            *flags |= NGHTTP2_DATA_FLAG_NO_END_STREAM;
            static const std::string name = "grpc-status";
            const std::string value = std::to_string(st->grpcStatus);
            const nghttp2_nv t[] = {nv(name, value)};
            nghttp2_submit_trailer(s, id, t, 1);
        }
        return ssize_t(n);
    }
};

MockH2::MockH2(const MockRuleSet& rules, FastRandom& rng, Scheduler& scheduler)
    : m_rules(rules), m_rng(rng), m_scheduler(scheduler)
{
    nghttp2_session_callbacks* cb = nullptr;
    nghttp2_session_callbacks_new(&cb);
    nghttp2_session_callbacks_set_on_begin_headers_callback(cb, &MockH2Callbacks::beginHeaders);
    nghttp2_session_callbacks_set_on_header_callback(cb, &MockH2Callbacks::header);
    nghttp2_session_callbacks_set_on_data_chunk_recv_callback(cb, &MockH2Callbacks::data);
    nghttp2_session_callbacks_set_on_frame_recv_callback(cb, &MockH2Callbacks::frame);
    nghttp2_session_callbacks_set_on_stream_close_callback(cb, &MockH2Callbacks::closed);
    // A load test's streaming calls end by CANCEL once their awaited messages are in: nghttp2's guard against
    // rapid resets (33 a second after a burst of 1000, then GOAWAY) would end the mock's connections under load.
    nghttp2_option* opt = nullptr;
    nghttp2_option_new(&opt);
    nghttp2_option_set_stream_reset_rate_limit(opt, 1u << 30, 1u << 30);
    nghttp2_session_server_new2(&m_session, cb, this, opt);
    nghttp2_option_del(opt);
    nghttp2_session_callbacks_del(cb);
    const nghttp2_settings_entry settings[] = {{NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS, 1000},
                                               {NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE, 1 << 24}};
    nghttp2_submit_settings(m_session, NGHTTP2_FLAG_NONE, settings, std::size(settings));
    nghttp2_session_set_local_window_size(m_session, NGHTTP2_FLAG_NONE, 0, 1 << 30);
}

MockH2::~MockH2()
{
    nghttp2_session_del(m_session);
}

bool MockH2::drain(std::string& out)
{
    for (;;) {
        const std::uint8_t* data = nullptr;
        const ssize_t n = nghttp2_session_mem_send(m_session, &data);
        if (n < 0)
            return false;
        if (n == 0)
            break;
        out.append(reinterpret_cast<const char*>(data), std::size_t(n));
    }
    return nghttp2_session_want_read(m_session) || nghttp2_session_want_write(m_session);
}

bool MockH2::receive(const char* data, std::size_t size, std::string& out)
{
    const ssize_t rv = nghttp2_session_mem_recv(m_session, reinterpret_cast<const std::uint8_t*>(data), size);
    if (rv < 0) {
        drain(out); // a GOAWAY saying why
        return false;
    }
    return drain(out);
}

void MockH2::answer(std::int32_t id, const MockRule* rule, bool fault, std::string& out)
{
    auto it = m_streams.find(id);
    if (it != m_streams.end() && it->second->streamRule)
        streamPush(id, *it->second);
    else if (it != m_streams.end())
        respond(id, *it->second, rule, fault);
    drain(out);
}

// A gRPC call to a streaming rule's method: taken at its headers (a bidirectional call is answered as its messages
// come, before the client's stream ends). Required headers and injected errors as for any rule.
void MockH2::streamStart(std::int32_t id, Stream& s)
{
    if (s.contentType.rfind("application/grpc", 0) != 0)
        return;
    const MockRule* rule = m_rules.match(s.method, s.path);
    if (!rule || !rule->grpcStream)
        return; // answered at the request's end, as any
    if (!rule->require.empty()) {
        std::uint32_t met = 0;
        for (const auto& [n, v] : s.headers)
            met |= rule->meets(n, v);
        if (met != rule->allMet())
            return; // refused at the request's end
    }
    rule->served.fetch_add(1, std::memory_order_relaxed);
    if (rule->injectFault(m_rng)) {
        respond(id, s, rule, true); // trailers-only, the error status
        return;
    }
    s.streamRule = rule;
    const MockGrpcStream& g = *rule->grpcStream;
    if (g.clientStreams && g.serverStreams) {
        streamHeaders(id, s);
        if (!g.echo)
            streamPush(id, s);
    }
}

void MockH2::streamHeaders(std::int32_t id, Stream& s)
{
    s.responded = true;
    s.trailers = true;
    s.grpcStatus = 0;
    static const std::string kStatus = ":status", kOk = "200", kType = "content-type", kGrpcType = "application/grpc";
    const nghttp2_nv h[] = {nv(kStatus, kOk), nv(kType, kGrpcType)};
    nghttp2_data_provider provider{};
    provider.read_callback = &MockH2Callbacks::readBody;
    nghttp2_submit_response(m_session, id, h, 2, &provider);
}

// The client's messages as they come: echoed at once (a stream back), or the last kept (one answer at the end).
void MockH2::streamIn(std::int32_t id, Stream& s)
{
    const MockGrpcStream& g = *s.streamRule->grpcStream;
    std::size_t pos = 0;
    while (s.in.size() - pos >= 5) {
        const std::size_t n = grpcPrefixLength(std::string_view(s.in).substr(pos));
        if (s.in.size() - pos - 5 < n)
            break;
        if (g.echo && g.serverStreams) {
            compactOut(s);
            s.out.append(s.in, pos, 5 + n);
        } else if (g.echo) {
            s.lastIn.assign(s.in, pos, 5 + n);
        }
        pos += 5 + n;
    }
    s.in.erase(0, pos);
    if (g.echo && g.serverStreams && s.responded)
        nghttp2_session_resume_data(m_session, id);
}

// The client's stream ended: a client-streaming call is answered, a server-streaming one starts, an echo ends.
void MockH2::streamEnd(std::int32_t id, Stream& s)
{
    const MockGrpcStream& g = *s.streamRule->grpcStream;
    if (!g.serverStreams) {
        streamHeaders(id, s);
        s.out = g.echo && !s.lastIn.empty() ? s.lastIn : g.frames.front();
        s.finished = true;
    } else if (!g.clientStreams) {
        streamHeaders(id, s);
        if (!g.echo) {
            streamPush(id, s);
            return;
        }
        s.finished = true; // its one message is echoed
    } else if (g.echo) {
        s.finished = true;
    }
    nghttp2_session_resume_data(m_session, id);
}

// The rule's next message (at its interval: the one after it scheduled), or all that are due at once.
void MockH2::streamPush(std::int32_t id, Stream& s)
{
    const MockGrpcStream& g = *s.streamRule->grpcStream;
    if (g.every == 0) {
        streamRefill(s);
    } else if (s.pushed < g.count) {
        compactOut(s);
        s.out += g.frames[s.pushed++ % g.frames.size()];
        if (s.pushed < g.count)
            m_scheduler.schedule(g.every, id, s.streamRule, false);
    }
    s.finished = s.pushed >= g.count;
    nghttp2_session_resume_data(m_session, id);
}

// Messages sent at once: a batch at a time as the connection takes them (a million are never all in memory).
void MockH2::streamRefill(Stream& s)
{
    const MockGrpcStream& g = *s.streamRule->grpcStream;
    if (g.echo || !g.serverStreams || g.every != 0 || !s.responded)
        return;
    compactOut(s);
    for (int i = 0; i < 256 && s.pushed < g.count; ++i)
        s.out += g.frames[s.pushed++ % g.frames.size()];
    s.finished = s.pushed >= g.count;
}

void MockH2::compactOut(Stream& s)
{
    if (s.outPos == s.out.size()) {
        s.out.clear();
        s.outPos = 0;
    }
}

void MockH2::requestComplete(std::int32_t id, Stream& s)
{
    if (s.streamRule) {
        streamEnd(id, s);
        return;
    }
    if (s.reflection) {
        s.finished = true;
        nghttp2_session_resume_data(m_session, id);
        return;
    }
    if (s.path == "/__stampede/stats") {
        s.out = m_rules.statsJson();
        s.finished = true;
        static const std::string status = ":status", ok = "200", type = "content-type", json = "application/json";
        const nghttp2_nv h[] = {nv(status, ok), nv(type, json)};
        nghttp2_data_provider p{};
        p.read_callback = &MockH2Callbacks::readBody;
        nghttp2_submit_response(m_session, id, h, 2, &p);
        s.responded = true;
        return;
    }
    const MockRule* rule = m_rules.match(s.method, s.path);
    if (!rule) {
        m_rules.countUnmatched();
        respond(id, s, nullptr, false);
        return;
    }
    if (!rule->require.empty()) {
        std::uint32_t met = 0;
        for (const auto& [n, v] : s.headers)
            met |= rule->meets(n, v);
        if (met != rule->allMet()) {
            rule->refused.fetch_add(1, std::memory_order_relaxed);
            refuse(id, s, *rule);
            return;
        }
    }
    rule->served.fetch_add(1, std::memory_order_relaxed);
    const bool fault = rule->injectFault(m_rng);
    std::int64_t delay = rule->drawDelay(m_rng);
    if (const std::int64_t limit = rule->limitFor(SteadyClock::monotonicNow()); limit < 0) {
        answerFixed(id, s, std::to_string(rule->limitStatus), rule->limitedBody);
        return;
    } else
        delay += limit;
    if (delay > 0) {
        m_scheduler.schedule(delay, id, rule, fault);
        return;
    }
    respond(id, s, rule, fault);
}

// A request without the rule's required headers: 401, at once.
void MockH2::refuse(std::int32_t id, Stream& s, const MockRule& rule)
{
    answerFixed(id, s, "401", rule.refusedBody);
}

// A JSON answer with `status`, at once; `body` outlives the stream (it is the rule's).
void MockH2::answerFixed(std::int32_t id, Stream& s, const std::string& status, const std::string& body)
{
    s.responded = true;
    s.fixedBody = &body;
    s.finished = true;
    static const std::string kStatus = ":status", kType = "content-type", kJson = "application/json";
    const nghttp2_nv h[] = {nv(kStatus, status), nv(kType, kJson)};
    nghttp2_data_provider provider{};
    provider.read_callback = &MockH2Callbacks::readBody;
    nghttp2_submit_response(m_session, id, h, 2, &provider);
}

void MockH2::respond(std::int32_t id, Stream& s, const MockRule* rule, bool fault)
{
    if (s.responded)
        return;
    s.responded = true;
    static const std::string kStatus = ":status", kType = "content-type", kGrpcType = "application/grpc",
                             kGrpcStatus = "grpc-status", kGrpcMessage = "grpc-message", kLength = "content-length";
    std::vector<std::string> values;
    values.reserve(8);
    std::vector<nghttp2_nv> h;
    auto add = [&](const std::string& name, std::string value) {
        values.push_back(std::move(value));
        h.push_back(nv(name, values.back()));
    };
    nghttp2_data_provider provider{};
    provider.read_callback = &MockH2Callbacks::readBody;
    const bool grpcRequest = s.contentType.rfind("application/grpc", 0) == 0;
    if (s.reflection) {
        add(kStatus, "200");
        add(kType, kGrpcType);
        s.trailers = true;
        nghttp2_submit_response(m_session, id, h.data(), h.size(), &provider);
        return;
    }
    if (!rule && grpcRequest) {
        // trailers-only: no such method here
        add(kStatus, "200");
        add(kType, kGrpcType);
        add(kGrpcStatus, "12");
        add(kGrpcMessage, percentEncode("no mock rule for " + s.path));
        nghttp2_submit_response(m_session, id, h.data(), h.size(), nullptr);
        return;
    }
    if (!rule) {
        s.out = "no mock rule matches this request\n";
        s.finished = true;
        add(kStatus, "404");
        add(kType, "text/plain");
        nghttp2_submit_response(m_session, id, h.data(), h.size(), &provider);
        return;
    }
    if (rule->grpc) {
        const unsigned code = fault ? rule->grpcErrorStatus : rule->grpcStatus;
        add(kStatus, "200");
        add(kType, kGrpcType);
        if (code != 0) {
            add(kGrpcStatus, std::to_string(code));
            add(kGrpcMessage, percentEncode(fault ? std::string("injected error") : rule->grpcMessage));
            nghttp2_submit_response(m_session, id, h.data(), h.size(), nullptr);
            return;
        }
        s.fixedBody = &rule->body;
        s.finished = true;
        s.trailers = true;
        nghttp2_submit_response(m_session, id, h.data(), h.size(), &provider);
        return;
    }
    if (fault) {
        s.fixedBody = &rule->errorBody;
        s.finished = true;
        add(kStatus, std::to_string(rule->errorStatus));
        add(kType, rule->errorType);
        nghttp2_submit_response(m_session, id, h.data(), h.size(), &provider);
        return;
    }
    add(kStatus, std::to_string(rule->status));
    for (const auto& [n, v] : rule->headers)
        add(n, v);
    add(kLength, std::to_string(rule->body.size()));
    s.fixedBody = &rule->body;
    s.finished = true;
    nghttp2_submit_response(m_session, id, h.data(), h.size(), s.method == "HEAD" ? nullptr : &provider);
}

void MockH2::reflect(Stream& s)
{
    namespace rf = v1::reflection;
    std::size_t pos = 0;
    while (s.in.size() - pos >= 5) {
        const std::size_t n = grpcPrefixLength(std::string_view(s.in).substr(pos));
        if (s.in.size() - pos - 5 < n)
            break;
        rf::ServerReflectionRequest rq;
        rf::ServerReflectionResponse rs;
        if (rq.ParseFromArray(s.in.data() + pos + 5, int(n))) {
            rs.set_valid_host(rq.host());
            *rs.mutable_original_request() = rq;
            const ProtoSchema& schema = *m_rules.schema();
            auto files = [&](const std::vector<std::string>& protos, const std::string& what) {
                if (protos.empty()) {
                    rs.mutable_error_response()->set_error_code(5);
                    rs.mutable_error_response()->set_error_message(what + " not found");
                    return;
                }
                for (const auto& f : protos)
                    rs.mutable_file_descriptor_response()->add_file_descriptor_proto(f);
            };
            switch (rq.message_request_case()) {
            case rf::ServerReflectionRequest::kListServices:
                for (const auto& name : schema.services())
                    rs.mutable_list_services_response()->add_service()->set_name(name);
                rs.mutable_list_services_response()->add_service()->set_name(
                    "grpc.reflection.v1alpha.ServerReflection");
                break;
            case rf::ServerReflectionRequest::kFileContainingSymbol:
                files(schema.fileProtosFor(rq.file_containing_symbol()), "symbol " + rq.file_containing_symbol());
                break;
            case rf::ServerReflectionRequest::kFileByFilename:
                files(schema.fileProtosFor(rq.file_by_filename(), true), "file " + rq.file_by_filename());
                break;
            default:
                rs.mutable_error_response()->set_error_code(12);
                rs.mutable_error_response()->set_error_message("not supported by the mock server");
                break;
            }
        } else {
            rs.mutable_error_response()->set_error_code(3);
            rs.mutable_error_response()->set_error_message("the request does not parse");
        }
        s.out += grpcFrame(rs.SerializeAsString());
        pos += 5 + n;
    }
    s.in.erase(0, pos);
}

} // namespace stampede
