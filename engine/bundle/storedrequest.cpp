#include "storedrequest.h"

#include "oauth1script.h"

#include "core/text.h"
#include "stampede/v1/scenario.pb.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cctype>
#include <vector>

namespace stampede {

namespace {

using google::protobuf::Struct;
using google::protobuf::Value;

const Value* field(const Struct& o, const char* name)
{
    const auto it = o.fields().find(name);
    return it == o.fields().end() ? nullptr : &it->second;
}

std::string text(const Struct& o, const char* name, const std::string& otherwise = {})
{
    const Value* v = field(o, name);
    return v && v->kind_case() == Value::kStringValue ? v->string_value() : otherwise;
}

double number(const Struct& o, const char* name, double otherwise)
{
    const Value* v = field(o, name);
    return v && v->kind_case() == Value::kNumberValue ? v->number_value() : otherwise;
}

bool flag(const Struct& o, const char* name)
{
    const Value* v = field(o, name);
    return v && v->kind_case() == Value::kBoolValue && v->bool_value();
}

// [{name, value}, ...] as headers.
template <typename Add> void pairs(const Struct& o, const char* name, Add add)
{
    const Value* v = field(o, name);
    if (!v || v->kind_case() != Value::kListValue)
        return;
    for (const Value& e : v->list_value().values()) {
        if (e.kind_case() != Value::kStructValue)
            continue;
        v1::Header* h = add();
        h->set_name(text(e.struct_value(), "name"));
        h->set_value(text(e.struct_value(), "value"));
    }
}

// A form's entries: {name, value}, or a file field {name, type: "file", src}
// with src a path (relative to the project's folder) or a list of them, as
// Postman's formdata; a file field without a path is not sent.
void formFields(const Struct& o, v1::Form& form)
{
    const Value* v = field(o, "form");
    if (!v || v->kind_case() != Value::kListValue)
        return;
    for (const Value& e : v->list_value().values()) {
        if (e.kind_case() != Value::kStructValue)
            continue;
        const Struct& entry = e.struct_value();
        if (text(entry, "type") != "file") {
            v1::Header* h = form.add_fields();
            h->set_name(text(entry, "name"));
            h->set_value(text(entry, "value"));
            continue;
        }
        std::vector<std::string> paths;
        if (const Value* src = field(entry, "src"); src && src->kind_case() == Value::kListValue) {
            for (const Value& p : src->list_value().values())
                if (p.kind_case() == Value::kStringValue && !p.string_value().empty())
                    paths.push_back(p.string_value());
        } else if (!text(entry, "src").empty()) {
            paths.push_back(text(entry, "src"));
        }
        if (paths.empty())
            continue;
        form.add_fields()->set_name(text(entry, "name"));
        for (const std::string& path : paths) {
            v1::FormFile* f = form.add_files();
            f->set_field(std::uint32_t(form.fields_size() - 1));
            f->set_file(path);
            f->set_content_type(text(entry, "contentType"));
        }
    }
}

void setDuration(google::protobuf::Duration& d, double ms)
{
    const auto whole = std::int64_t(ms);
    d.set_seconds(whole / 1000);
    d.set_nanos(std::int32_t((whole % 1000) * 1000000));
}

// The checks and extractions, written in the scenario's own form.
template <typename Message, typename Add> bool rules(const Struct& o, const char* name, Add add, std::string& error)
{
    const Value* v = field(o, name);
    if (!v || v->kind_case() != Value::kListValue)
        return true;
    for (const Value& e : v->list_value().values()) {
        std::string json;
        (void)google::protobuf::util::MessageToJsonString(e, &json);
        if (!google::protobuf::util::JsonStringToMessage(json, add()).ok()) {
            error = std::string("its ") + name + " are not the scenario's: " + json;
            return false;
        }
    }
    return true;
}

void http(const Struct& o, v1::HttpRequest& rq)
{
    std::string method = text(o, "method", "GET");
    method.erase(0, method.find_first_not_of(' '));
    std::transform(method.begin(), method.end(), method.begin(), [](unsigned char c) { return char(std::toupper(c)); });
    rq.set_method(method.empty() ? "GET" : method);
    rq.set_url(std::string(trimSpaces(text(o, "url"))));
    pairs(o, "headers", [&] { return rq.add_headers(); });
    const std::string mode = text(o, "bodyMode", "raw");
    const std::string body = text(o, "body");
    const bool typed = std::any_of(rq.headers().begin(), rq.headers().end(),
                                   [](const v1::Header& h) { return equalsNoCase(h.name(), "content-type"); });
    if (mode == "json" && !body.empty() && !typed) {
        v1::Header* h = rq.add_headers();
        h->set_name("Content-Type");
        h->set_value("application/json");
    }
    if (mode == "file") { // a file's bytes; none named: no body
        if (!text(o, "bodyFile").empty())
            rq.mutable_body_file()->set_file(text(o, "bodyFile"));
    } else if (mode == "urlencoded" || mode == "multipart") {
        v1::Form& form = *rq.mutable_form();
        if (mode == "multipart")
            form.set_encoding(v1::Form::FORM_MULTIPART);
        formFields(o, form);
    } else {
        rq.set_body(body); // byte for byte
    }
    if (const Value* a = field(o, "auth"); a && a->kind_case() == Value::kStructValue) {
        const Struct& auth = a->struct_value();
        const std::string type = text(auth, "type");
        if (type == "basic") {
            rq.mutable_auth()->mutable_basic()->set_user(text(auth, "user"));
            rq.mutable_auth()->mutable_basic()->set_password(text(auth, "password"));
        } else if (type == "bearer") {
            rq.mutable_auth()->set_bearer(text(auth, "token"));
        } else if (type == "digest") { // by the names of Postman's helper
            v1::DigestAuth& d = *rq.mutable_auth()->mutable_digest();
            d.set_user(text(auth, "username"));
            d.set_password(text(auth, "password"));
            d.set_realm(text(auth, "realm"));
            d.set_nonce(text(auth, "nonce"));
            d.set_algorithm(text(auth, "algorithm"));
            d.set_qop(text(auth, "qop"));
            d.set_nc(text(auth, "nonceCount"));
            d.set_cnonce(text(auth, "clientNonce"));
            d.set_opaque(text(auth, "opaque"));
            const Value* off = field(auth, "disableRetryRequest");
            d.set_disable_retry(off && ((off->kind_case() == Value::kBoolValue && off->bool_value()) ||
                                        text(auth, "disableRetryRequest") == "true"));
        }
    }
    setDuration(*rq.mutable_timeout(), number(o, "timeoutMs", kStoredRequestTimeoutMs));
    rq.set_insecure(flag(o, "insecure"));
}

bool grpc(const Struct& o, v1::GrpcRequest& g, std::string& error)
{
    g.set_target(std::string(trimSpaces(text(o, "target"))));
    g.set_method(std::string(trimSpaces(text(o, "method"))));
    g.set_data(text(o, "data"));
    pairs(o, "metadata", [&] { return g.add_metadata(); });
    if (const double ms = number(o, "deadlineMs", kStoredCallDeadlineMs); ms != kStoredCallDeadlineMs)
        setDuration(*g.mutable_deadline(), ms);
    g.set_insecure(flag(o, "insecure"));
    // a streaming method's: the messages after `data` (which goes first), what it waits for, its pacing
    if (const Value* v = field(o, "messages"); v && v->kind_case() == Value::kListValue) {
        if (!g.data().empty())
            g.add_messages(g.data());
        g.clear_data();
        for (const Value& m : v->list_value().values())
            if (m.kind_case() == Value::kStringValue)
                g.add_messages(m.string_value());
    }
    if (const double n = number(o, "receive", 0); n > 0)
        g.set_receive(std::uint32_t(std::min(n, 4e9)));
    g.set_match(text(o, "match"));
    if (const double ms = number(o, "intervalMs", 0); ms > 0)
        setDuration(*g.mutable_interval(), ms);
    g.set_request_reply(flag(o, "requestReply"));
    const std::string descriptors = text(o, "descriptors");
    if (descriptors.empty())
        return true;
    // the descriptors as proto3 JSON carries bytes: base64, which the payload already is
    v1::GrpcRequest bytes;
    if (!google::protobuf::util::JsonStringToMessage("{\"descriptors\": " + jsonString(descriptors) + "}", &bytes)
             .ok()) {
        error = "its descriptors are not base64";
        return false;
    }
    g.set_descriptors(bytes.descriptors());
    return true;
}

// A WebSocket request: url, headers, protocols, messages [{text} | {binary: base64}], receive, requestReply,
// timeoutMs (the step's fields as the builder keeps them).
bool websocket(const Struct& o, v1::WebSocketRequest& w, std::string& error)
{
    w.set_url(std::string(trimSpaces(text(o, "url"))));
    pairs(o, "headers", [&] { return w.add_headers(); });
    if (const Value* v = field(o, "protocols"); v && v->kind_case() == Value::kListValue)
        for (const Value& p : v->list_value().values())
            if (p.kind_case() == Value::kStringValue && !p.string_value().empty())
                w.add_subprotocols(p.string_value());
    if (const Value* v = field(o, "messages"); v && v->kind_case() == Value::kListValue)
        for (const Value& m : v->list_value().values()) {
            if (m.kind_case() != Value::kStructValue)
                continue;
            v1::WebSocketMessage* out = w.add_send();
            const std::string binary = text(m.struct_value(), "binary");
            if (binary.empty()) {
                out->set_text(text(m.struct_value(), "text"));
                continue;
            }
            v1::WebSocketMessage bytes; // proto3 JSON carries bytes as base64, which the payload already is
            if (!google::protobuf::util::JsonStringToMessage("{\"binary\": " + jsonString(binary) + "}", &bytes).ok()) {
                error = "a binary message is not base64";
                return false;
            }
            out->set_binary(bytes.binary());
        }
    if (const Value* v = field(o, "receive"); v && v->kind_case() == Value::kNumberValue && v->number_value() >= 0)
        w.set_receive(std::uint32_t(v->number_value()));
    w.set_request_reply(flag(o, "requestReply"));
    w.set_deflate(flag(o, "deflate"));
    if (const double ms = number(o, "timeoutMs", 0); ms > 0)
        setDuration(*w.mutable_timeout(), ms);
    return true;
}

// An event stream: url, headers, receive, event, reconnects, timeoutMs.
void eventStream(const Struct& o, v1::EventStreamRequest& e)
{
    e.set_url(std::string(trimSpaces(text(o, "url"))));
    pairs(o, "headers", [&] { return e.add_headers(); });
    if (const Value* v = field(o, "receive"); v && v->kind_case() == Value::kNumberValue && v->number_value() >= 0)
        e.set_receive(std::uint32_t(v->number_value()));
    e.set_event(text(o, "event"));
    if (const double n = number(o, "reconnects", 0); n > 0)
        e.set_reconnects(std::uint32_t(n));
    if (const double ms = number(o, "timeoutMs", 0); ms > 0)
        setDuration(*e.mutable_timeout(), ms);
}

} // namespace

bool storedRequestStep(const std::string& payload, const std::string& name, v1::Step& out, std::string& error)
{
    Struct o;
    if (!google::protobuf::util::JsonStringToMessage(payload.empty() ? "{}" : payload, &o).ok()) {
        error = "the request \"" + name + "\" is not a JSON object";
        return false;
    }
    out.Clear();
    out.set_name(name);
    if (!rules<v1::Check>(
            o, "checks", [&] { return out.add_checks(); }, error) ||
        !rules<v1::Extract>(
            o, "extract", [&] { return out.add_extract(); }, error)) {
        error = "the request \"" + name + "\": " + error;
        return false;
    }
    const std::string kind = text(o, "kind");
    if (kind == "sse" || kind == "websocket" || kind == "grpc") {
        // a stream or a call: its test script runs on the answer (a pre-request script is not taken)
        out.set_test_script(text(o, "testScript"));
        out.set_description(text(o, "description"));
        if (kind == "sse")
            eventStream(o, *out.mutable_sse());
        else if (kind == "websocket" ? !websocket(o, *out.mutable_websocket(), error)
                                     : !grpc(o, *out.mutable_grpc(), error)) {
            error = "the request \"" + name + "\": " + error;
            return false;
        }
        return true;
    }
    http(o, *out.mutable_request());
    out.set_pre_request_script(text(o, "preRequestScript"));
    if (const Value* a = field(o, "auth");
        a && a->kind_case() == Value::kStructValue && text(a->struct_value(), "type") == "oauth1") {
        OAuth1Fields fields; // signed after the request's own scripts, as Postman signs it
        for (const auto& [name, value] : a->struct_value().fields())
            if (isOAuth1Field(name))
                fields[name] = value.kind_case() == Value::kBoolValue ? (value.bool_value() ? "true" : "false")
                                                                      : text(a->struct_value(), name.c_str());
        out.set_pre_request_script(out.pre_request_script() + oauth1Script(fields));
    }
    out.set_test_script(text(o, "testScript"));
    out.set_description(text(o, "description"));
    out.set_postman_id(text(o, "postmanId"));
    return true;
}

bool followStoredRequest(const std::string& payload, const std::string& name, v1::Step& step, std::string& error)
{
    v1::Step now;
    if (!storedRequestStep(payload, name, now, error))
        return false;
    // what the scenario says of the step, not of its request
    if (step.has_think_time())
        *now.mutable_think_time() = step.think_time();
    if (step.has_rendezvous())
        *now.mutable_rendezvous() = step.rendezvous();
    if (step.has_retry())
        *now.mutable_retry() = step.retry();
    now.set_group(step.group());
    now.set_on_error(step.on_error());
    now.set_repeat(step.repeat());
    now.set_folder(step.folder());
    now.set_request_item(step.request_item());
    step = std::move(now);
    return true;
}

} // namespace stampede
