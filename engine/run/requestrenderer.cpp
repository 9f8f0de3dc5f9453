#include "requestrenderer.h"

#include "core/text.h"
#include "net/http1responseparser.h"

#include <algorithm>
#include <cstdio>

namespace stampede {

RequestRenderer::RequestRenderer(const ScenarioPlan& plan, bool http2)
    : m_plan(plan), m_http2(http2), m_stressHeaderLower(asciiLower(plan.stressHeader)),
      m_baggageTag(m_stressHeaderLower == "baggage")
{
    const std::size_t n = plan.steps.size();
    m_templated.resize(n);
    m_fixed.resize(n);
    m_encoders.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const PlannedStep& st = plan.steps[i];
        const bool h2 = http2 && !streamStep(st); // a stream step has HTTP/1.1 connections of its own
        m_templated[i] = !(h2 ? st.h2Fixed : st.fixed);
        m_anyTemplated |= m_templated[i];
        if (m_templated[i]) {
            if (st.codec)
                m_encoders[i] = st.codec->encoder();
            continue;
        }
        RenderedRequest& r = m_fixed[i];
        if (st.digest)
            for (const Template& t : st.digest->fields)
                r.digest.push_back(t.constantText());
        if (!h2) {
            if (!headTooBig(std::min(st.fixedBytes.find("\r\n\r\n"), st.fixedBytes.size()), r)) {
                r.wire = st.fixedBytes;
                r.bytes = r.wire.size();
            }
            if (st.ws)
                for (const Template& t : st.ws->messages)
                    r.messages.push_back(t.constantText());
            continue;
        }
        std::size_t head = 0;
        for (const auto& h : st.h2Headers) {
            r.values.push_back(h.second.constantText());
            head += h.first.size() + r.values.back().size();
        }
        if (headTooBig(head, r))
            continue;
        if (st.hasBody)
            r.body = st.body.constantText(); // with a codec: already in its wire form
        point(st, r);
    }
}

void RequestRenderer::render(std::size_t step, const ValueLookup& values, RenderedRequest& out)
{
    if (m_http2 && !streamStep(m_plan.steps[step]))
        renderHttp2(step, values, out);
    else
        renderHttp1(m_plan.steps[step], values, out);
}

void RequestRenderer::renderHttp1(const PlannedStep& st, const ValueLookup& values, RenderedRequest& out)
{
    std::string& wire = out.wire;
    wire.clear();
    out.failure.clear();
    if (const int bad = st.head.appendTo(wire, values); bad >= 0) {
        refuse(st.head, bad, values, out);
        return;
    }
    if (st.ws) { // a WebSocket step's messages, this iteration's
        out.messages.resize(st.ws->messages.size());
        for (std::size_t m = 0; m < out.messages.size(); ++m) {
            out.messages[m].clear();
            st.ws->messages[m].appendTo(out.messages[m], values);
        }
    }
    if (st.runtimeOrigin) {
        if (!m_origins)
            m_origins = std::make_unique<RuntimeOrigins>();
        if (!m_origins->place(st, out))
            return;
    }
    if (st.basicPerIteration) {
        wire += "Authorization: ";
        appendBasic(st, values, wire);
        wire += "\r\n";
    }
    if (st.digest && !renderDigest(st, values, out))
        return;
    if (headTooBig(wire.size(), out))
        return;
    if (requestNeedsLength(st.method, st.hasBody)) {
        const std::size_t headEnd = wire.size();
        wire += "Content-Length: 0000000000\r\n\r\n";
        const std::size_t bodyStart = wire.size();
        if (st.hasBody)
            st.body.appendTo(wire, values);
        // patch the length in place: the body is rendered after the header
        char digits[16];
        const int n = std::snprintf(digits, sizeof digits, "%zu", wire.size() - bodyStart);
        const std::size_t field = headEnd + 16; // after "Content-Length: "
        wire.replace(field, 10, digits, std::size_t(n));
    } else {
        wire += "\r\n";
    }
    out.bytes = wire.size();
}

void RequestRenderer::renderHttp2(std::size_t step, const ValueLookup& values, RenderedRequest& r)
{
    const PlannedStep& st = m_plan.steps[step];
    r.values.resize(st.h2Headers.size());
    r.failure.clear();
    for (std::size_t h = 0; h < st.h2Headers.size(); ++h) {
        r.values[h].clear();
        if (const int bad = st.h2Headers[h].second.appendTo(r.values[h], values); bad >= 0) {
            refuse(st.h2Headers[h].second, bad, values, r);
            return;
        }
    }
    if (st.basicPerIteration) {
        r.values[st.authH2].clear();
        appendBasic(st, values, r.values[st.authH2]);
    }
    if (st.digest && !renderDigest(st, values, r))
        return;
    std::size_t head = 0;
    for (std::size_t h = 0; h < st.h2Headers.size(); ++h)
        head += st.h2Headers[h].first.size() + r.values[h].size();
    if (headTooBig(head, r))
        return;
    r.body.clear();
    if (st.callStream) {
        renderMessages(step, values, r);
    } else {
        if (st.hasBody)
            st.body.appendTo(r.body, values);
        if (m_encoders[step])
            encodeBody(step, r);
    }
    point(st, r);
}

// Digest authentication's fields with this iteration's values (its hook makes the header from them).
bool RequestRenderer::renderDigest(const PlannedStep& st, const ValueLookup& values, RenderedRequest& out) const
{
    out.digest.resize(DigestPlan::kFields);
    for (std::size_t f = 0; f < DigestPlan::kFields; ++f) {
        out.digest[f].clear();
        if (const int bad = st.digest->fields[f].appendTo(out.digest[f], values); bad >= 0) {
            refuse(st.digest->fields[f], bad, values, out);
            return false;
        }
    }
    return true;
}

// "Basic " and the base64 of user:password as this iteration's values make it.
void RequestRenderer::appendBasic(const PlannedStep& st, const ValueLookup& values, std::string& out) const
{
    m_scratch.clear();
    st.basicAuth.appendTo(m_scratch, values); // its fields take any byte: base64 carries them
    out += "Basic ";
    appendBase64(out, m_scratch);
}

bool RequestRenderer::headTooBig(std::size_t bytes, RenderedRequest& out)
{
    if (bytes <= kMaxHead)
        return false;
    out.failure = "the request's head is " + std::to_string(bytes) +
                  " bytes, over the 1 MiB a head may have: not sent (a value too long for a header or the URL?)";
    out.failureClass = ErrorClass::Render;
    out.bytes = 0;
    std::string().swap(out.wire); // nothing of it is kept (strings keep their capacity between iterations)
    for (auto& v : out.values)
        std::string().swap(v);
    return true;
}

void RequestRenderer::refuse(const Template& t, int ref, const ValueLookup& values, RenderedRequest& out) const
{
    const VarRef v = t.references()[std::size_t(ref)];
    const PlannedVariable& var = m_plan.variables[v.variable];
    std::string name = var.name;
    if (v.column >= 0 && var.source)
        if (const auto columns = var.source->columnNames(); std::size_t(v.column) < columns.size())
            name += "." + columns[std::size_t(v.column)];
    const bool target = t.field(std::size_t(ref)) == WireField::Target;
    out.failure = "${" + name + "} " + fieldFault(values.value(v), t.field(std::size_t(ref))) + ": not sent in " +
                  (target ? "the URL" : "a header") + " (it would end the line)";
    out.failureClass = ErrorClass::Render;
    out.bytes = 0;
}

namespace {

// Headers of the recorded connection, not of the request: the engine frames its own.
bool connectionHeader(const std::string& name)
{
    return name.empty() || name[0] == ':' || // HTTP/2 pseudo-headers a HAR may list
           isConnectionHeader(name) || name == "host" || name == "te" || name == "content-length" ||
           name == "http2-settings";
}

// Why a recorded request cannot be sent as it was ("" when it can): the same
// rule as for a scenario's requests, checked as each one is rendered.
std::string recordFault(const TrafficRecord& r)
{
    if (!isHttpToken(r.method))
        return "the recorded method is not an HTTP method";
    if (std::string f = fieldFault(r.target, WireField::Target); !f.empty())
        return "the recorded target " + f + ": not sent (it would end the request line)";
    if (std::string f = fieldFault(r.host, WireField::HeaderValue); !f.empty())
        return "the recorded host " + f + ": not sent";
    for (const auto& [name, value] : r.headers)
        if (std::string f = headerFault(name, value); !f.empty())
            return "recorded: " + f + ": not sent";
    return {};
}

} // namespace

// A recorded `baggage` header when the stress tag is a baggage member:
// true with `out` the value without its own stress_test members (a
// recording of a stress run keeps one tag, this run's), "" when nothing is
// left; false for any other header.
bool RequestRenderer::retagged(std::string_view name, std::string_view value, std::string& out)
{
    if (asciiLower(name) != "baggage")
        return false;
    out.clear();
    std::size_t at = 0;
    while (at <= value.size()) {
        const std::size_t end = std::min(value.find(',', at), value.size());
        std::string_view member = value.substr(at, end - at);
        while (!member.empty() && (member.front() == ' ' || member.front() == '\t'))
            member.remove_prefix(1);
        while (!member.empty() && (member.back() == ' ' || member.back() == '\t'))
            member.remove_suffix(1);
        const std::string_view key = member.substr(0, member.find('='));
        std::string_view k = key;
        while (!k.empty() && (k.back() == ' ' || k.back() == '\t'))
            k.remove_suffix(1);
        if (!member.empty() && k != "stress_test")
            out.append(out.empty() ? "" : ",").append(member);
        at = end + 1;
    }
    return true;
}

void RequestRenderer::renderRecord(std::size_t step, const TrafficRecord& r, RenderedRequest& out,
                                   std::string_view traceparent) const
{
    const PlannedStep& st = m_plan.steps[step];
    const std::string& authority = r.host.empty() ? st.h2Headers[1].second.constantText() : r.host;
    const bool tagged = !m_plan.stressHeader.empty();
    out.failure = recordFault(r);
    if (!out.failure.empty()) {
        out.failureClass = ErrorClass::Render;
        out.bytes = 0;
        return;
    }
    if (!m_http2) {
        std::string& w = out.wire;
        w.clear();
        w.append(r.method).append(" ");
        appendTarget(w, r.target);
        w.append(" HTTP/1.1\r\nHost: ").append(authority).append("\r\n");
        bool tagSent = !tagged;
        for (const auto& [name, value] : r.headers) {
            std::string_view v = value;
            if (connectionHeader(name) || (!traceparent.empty() && name == "traceparent"))
                continue;
            if (m_baggageTag && retagged(name, value, m_scratch)) {
                if (!tagSent) { // one baggage: the recorded members (less a recorded tag) and this run's tag
                    m_scratch.append(m_scratch.empty() ? "" : ",").append(m_plan.stressValue);
                    tagSent = true;
                }
                if (m_scratch.empty())
                    continue;
                v = m_scratch;
            }
            w.append(name).append(": ").append(v).append("\r\n");
        }
        if (!tagSent)
            w.append(m_plan.stressHeader).append(": ").append(m_plan.stressValue).append("\r\n");
        if (!traceparent.empty())
            w.append("traceparent: ").append(traceparent).append("\r\n");
        if (!r.body.empty() || requestNeedsLength(r.method, false))
            w.append("Content-Length: ").append(std::to_string(r.body.size())).append("\r\n");
        w.append("\r\n").append(r.body);
        out.bytes = w.size();
        return;
    }
    // names and values side by side in `values`, whose strings keep their capacity between requests
    std::vector<std::string>& v = out.values;
    std::size_t n = 0;
    const auto add = [&](std::string_view name, std::string_view value) {
        if (v.size() < n + 2)
            v.resize(n + 2);
        v[n++].assign(name);
        v[n++].assign(value);
    };
    add(":method", r.method);
    add(":scheme", st.h2Headers[0].second.constantText());
    add(":authority", authority);
    add(":path", {});
    appendTarget(v[n - 1], r.target); // checked by recordFault
    bool tagSent = !tagged;
    for (const auto& [name, value] : r.headers) {
        std::string_view val = value;
        if (connectionHeader(name) || (!traceparent.empty() && name == "traceparent"))
            continue;
        if (m_baggageTag && retagged(name, value, m_scratch)) {
            if (!tagSent) {
                m_scratch.append(m_scratch.empty() ? "" : ",").append(m_plan.stressValue);
                tagSent = true;
            }
            if (m_scratch.empty())
                continue;
            val = m_scratch;
        }
        add(name, val);
    }
    if (!tagSent)
        add(m_stressHeaderLower, m_plan.stressValue);
    if (!traceparent.empty())
        add("traceparent", traceparent);
    v.resize(n);
    out.body = r.body;
    out.nv.clear();
    out.bytes = out.body.size();
    for (std::size_t i = 0; i + 1 < v.size(); i += 2) {
        out.nv.push_back({reinterpret_cast<std::uint8_t*>(v[i].data()),
                          reinterpret_cast<std::uint8_t*>(v[i + 1].data()), v[i].size(), v[i + 1].size(),
                          NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE});
        out.bytes += v[i].size() + v[i + 1].size();
    }
}

void RequestRenderer::encodeBody(std::size_t step, RenderedRequest& r)
{
    std::string why;
    if (!m_encoders[step]->encode(r.body, why)) {
        r.failure = std::move(why);
        r.failureClass = ErrorClass::Protocol;
        r.body.clear();
    }
}

// A streaming call's messages out, this iteration's: each rendered and encoded, framed one after the other.
void RequestRenderer::renderMessages(std::size_t step, const ValueLookup& values, RenderedRequest& r)
{
    const auto& messages = m_plan.steps[step].callStream->messages;
    r.messages.resize(messages.size());
    for (std::size_t m = 0; m < messages.size(); ++m) {
        std::string& one = r.messages[m];
        one.clear();
        messages[m].appendTo(one, values);
        std::string why;
        if (!m_encoders[step]->encode(one, why)) {
            r.failure = "message " + std::to_string(m + 1) + ": " + why;
            r.failureClass = ErrorClass::Protocol;
            r.body.clear();
            return;
        }
        r.body += one;
    }
}

void RequestRenderer::point(const PlannedStep& st, RenderedRequest& r)
{
    r.nv.clear();
    r.bytes = r.body.size();
    for (std::size_t i = 0; i < st.h2Headers.size(); ++i) {
        const std::string& name = st.h2Headers[i].first;
        const std::string& value = r.values[i];
        r.nv.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                        reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
                        // both outlive the stream: the plan's names, and values kept until the slot's next request
                        NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE});
        r.bytes += name.size() + value.size();
    }
}

} // namespace stampede
