// The worker's business flows: what happens between an answer and the next
// step when a scenario has checks, extractors, cookies or redirects. Nothing
// here runs for a scenario without them (Worker::m_flows).
#include "worker.h"

#include "core/text.h"
#include "core/url.h"
#include "core/wiretext.h"
#include "grpc/protoschema.h"

#include <algorithm>
#include <cctype>
#include <ctime>
#include <optional>

namespace stampede {

namespace {

const std::string kCookieName = "cookie";

// The request target (path and query) of a request as rendered.
std::string_view targetOf(const RenderedRequest& r, bool http2)
{
    if (http2)
        return r.values.size() > 3 ? std::string_view(r.values[3]) : std::string_view("/"); // :path
    const std::size_t a = r.wire.find(' ');
    const std::size_t b = a == std::string::npos ? a : r.wire.find(' ', a + 1);
    return b == std::string::npos ? std::string_view("/") : std::string_view(r.wire).substr(a + 1, b - a - 1);
}

std::string_view pathOnly(std::string_view target)
{
    return target.substr(0, target.find('?'));
}

bool startsWithNoCase(std::string_view s, std::string_view prefix)
{
    return equalsNoCase(s.substr(0, prefix.size()), prefix);
}

std::int64_t wallSeconds()
{
    return std::int64_t(std::time(nullptr));
}

// Where a Location header sends a request for `current` on (scheme, host,
// port): a target on the same server, or nothing (another server's, which
// is not followed).
std::optional<std::string> redirectTarget(std::string_view location, const PlannedStep& st, std::string_view current)
{
    if (location.empty())
        return std::nullopt;
    if (location.find("://") != std::string_view::npos) {
        std::string why;
        const auto u = Url::parse(location, why);
        if (!u || u->port != st.port || (u->scheme == "https") != st.secure)
            return std::nullopt;
        if (!equalsNoCase(u->host, st.host))
            return std::nullopt;
        return u->target;
    }
    if (location.substr(0, 2) == "//")
        return std::nullopt; // scheme-relative: another server
    location = location.substr(0, location.find('#'));
    std::string target;
    if (location.empty() || location.front() != '/') {
        const std::string_view dir = pathOnly(current).substr(0, pathOnly(current).rfind('/') + 1);
        target = dir.empty() ? "/" : std::string(dir);
    }
    if (!appendTarget(target, location)) // as any request's target (wiretext.h)
        return std::nullopt;
    return target;
}

} // namespace

void Worker::onCaptured(std::uint32_t tag, const HeaderList& headers, const HeaderList& trailers,
                        const std::string& body)
{
    m_captured = {true, tag, &headers, &trailers, &body};
}

// A new iteration on `slot`: the values of steps rendered late are saved, and
// in the open model (a slot is an iteration's place, not a user) the
// extracted values and cookies start empty.
void Worker::startFlows(std::uint32_t slot)
{
    Slot& s = m_slots[slot];
    if (!m_plan.load->slotIsUser()) {
        std::fill(s.isSet.begin(), s.isSet.end(), false);
        if (s.jar)
            s.jar->clear();
    }
    for (std::size_t k = 0; k < m_plan.savedRefs.size(); ++k) {
        const VarRef ref = m_plan.savedRefs[k];
        s.saved[k].assign(m_cursors[ref.variable]->value(ref.column));
    }
}

// The request step `step` sends for `slot`: rendered now when it uses
// extracted values (not sent when one is unset), with the user's cookies.
const RenderedRequest* Worker::prepare(std::uint32_t slot, std::size_t step, const RenderedRequest& r, Nanos now)
{
    Slot& s = m_slots[slot];
    const PlannedStep& st = m_plan.steps[step];
    s.hops = 0;
    const RenderedRequest* out = &r;
    if (!st.extracted.empty()) {
        for (const std::uint16_t v : st.extracted) {
            if (!s.isSet[v] && m_plan.variables[v].fallback < 0) {
                onFailure(slot, ErrorClass::Extract,
                          "${" + m_plan.variables[v].name + "} has no value: no earlier answer of this " +
                              (m_plan.load->slotIsUser() ? "user" : "iteration") + " gave it",
                          now);
                return nullptr;
            }
        }
        m_lookupSlot = int(slot);
        m_renderer.render(step, *this, s.rendered[step]);
        m_lookupSlot = -1;
        out = &s.rendered[step];
        if (!out->failure.empty())
            return out;
    }
    if (st.grpc || (!s.jar && !m_plan.followRedirects))
        return out;
    s.path.assign(targetOf(*out, m_plan.http == HttpVersion::Http2));
    if (!s.jar)
        return out;
    withCookies(s, st, *out, s.path);
    return s.sending.bytes ? &s.sending : out;
}

// `r` with the user's Cookie header for `target` into s.sending (bytes 0: no cookie goes).
void Worker::withCookies(Slot& s, const PlannedStep& st, const RenderedRequest& r, std::string_view target)
{
    s.sending.bytes = 0;
    const std::string cookie = s.jar->header(st.host, pathOnly(target), st.secure, wallSeconds());
    if (cookie.empty())
        return;
    if (m_plan.http == HttpVersion::Http1) {
        s.sending.wire = r.wire;
        const std::size_t headEnd = s.sending.wire.find("\r\n\r\n");
        s.sending.wire.insert(headEnd + 2, "Cookie: " + cookie + "\r\n");
        s.sending.bytes = s.sending.wire.size();
        return;
    }
    s.hopValues.resize(3);
    s.hopValues[2] = cookie;
    if (&s.sending != &r) {
        s.sending.nv = r.nv;
        s.sending.body = r.body;
    }
    s.sending.nv.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(kCookieName.data())),
                            reinterpret_cast<std::uint8_t*>(s.hopValues[2].data()), kCookieName.size(),
                            s.hopValues[2].size(), NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE});
    s.sending.bytes = r.bytes + kCookieName.size() + cookie.size();
}

void Worker::takeCookies(Slot& s, const PlannedStep& st)
{
    const std::int64_t now = wallSeconds();
    for (const auto& [name, value] : *m_captured.headers)
        if (equalsNoCase(name, "set-cookie"))
            if (auto c = parseSetCookie(value, now))
                s.jar->receive(*c, st.host, pathOnly(s.path), now);
}

// A redirect the scenario follows: the next hop is sent as part of the same
// step (the answer was counted as a request of the step already).
bool Worker::followRedirect(std::uint32_t slot, int status, std::uint64_t bytesIn, Nanos now)
{
    if (!m_plan.followRedirects || !(status == 301 || status == 302 || status == 303 || status == 307 || status == 308))
        return false;
    Slot& s = m_slots[slot];
    if (s.hops >= m_plan.followRedirects || !m_captured.valid || m_captured.tag != slot)
        return false; // past the hops allowed: the redirect is the answer
    const PlannedStep& st = m_plan.steps[std::size_t(s.step)];
    const std::string* location = findHeader(AnswerView{0, false, m_captured.headers, nullptr, {}, 0}, "location");
    const auto target = location ? redirectTarget(*location, st, s.path) : std::nullopt;
    m_captured.valid = false;
    if (!target)
        return false;                                     // none, or to another server: the redirect is the answer
    StepMetrics& m = metricsAt(std::size_t(s.step), now); // the hop's answer is a request of the step
    ++m.counters.requests;
    m.counters.bytesIn += bytesIn;
    m.latency.record(std::uint64_t(std::max<Nanos>(0, now - s.intended) / kNanosPerMicro));
    m.serviceTime.record(std::uint64_t(std::max<Nanos>(0, now - s.sent) / kNanosPerMicro));
    ++m.counters.redirects;
    ++s.hops;
    sendHop(slot, *target, status <= 303, now);
    return true;
}

// The step's request again, to `target` (as GET when `toGet`, without its body).
void Worker::sendHop(std::uint32_t slot, const std::string& target, bool toGet, Nanos now)
{
    Slot& s = m_slots[slot];
    const auto i = std::size_t(s.step);
    const PlannedStep& st = m_plan.steps[i];
    const RenderedRequest& base = m_renderer.templated(i) ? s.rendered[i] : m_renderer.fixed(i);
    const std::string method = toGet && st.method != "HEAD" ? "GET" : st.method;
    const std::string cookie = s.jar ? s.jar->header(st.host, pathOnly(target), st.secure, wallSeconds()) : "";
    RenderedRequest& out = s.sending;
    s.path = target;
    if (m_plan.http == HttpVersion::Http1) {
        const std::size_t lineEnd = base.wire.find("\r\n");
        const std::size_t headEnd = base.wire.find("\r\n\r\n");
        out.wire = method + " " + target + " HTTP/1.1\r\n";
        for (std::size_t at = lineEnd + 2; at < headEnd + 2;) {
            const std::size_t end = base.wire.find("\r\n", at) + 2;
            const std::string_view line = std::string_view(base.wire).substr(at, end - at);
            if (!(toGet && (startsWithNoCase(line, "content-length:") || startsWithNoCase(line, "content-type:"))))
                out.wire += line;
            at = end;
        }
        if (!cookie.empty())
            out.wire += "Cookie: " + cookie + "\r\n";
        out.wire += "\r\n";
        if (!toGet)
            out.wire.append(base.wire, headEnd + 4);
        out.bytes = out.wire.size();
    } else {
        s.hopValues = {method, target, cookie};
        out.nv.clear();
        out.bytes = 0;
        for (nghttp2_nv nv : base.nv) {
            const std::string_view name(reinterpret_cast<const char*>(nv.name), nv.namelen);
            if (toGet && (name == "content-length" || name == "content-type"))
                continue;
            const int own = name == ":method" ? 0 : name == ":path" ? 1 : -1;
            if (own >= 0) {
                nv.value = reinterpret_cast<std::uint8_t*>(s.hopValues[std::size_t(own)].data());
                nv.valuelen = s.hopValues[std::size_t(own)].size();
            }
            out.nv.push_back(nv);
            out.bytes += nv.namelen + nv.valuelen;
        }
        if (!cookie.empty())
            out.nv.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(kCookieName.data())),
                              reinterpret_cast<std::uint8_t*>(s.hopValues[2].data()), kCookieName.size(),
                              s.hopValues[2].size(), NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE});
        out.body = toGet ? std::string() : base.body;
        out.bytes += out.body.size() + (cookie.empty() ? 0 : kCookieName.size() + cookie.size());
    }
    s.intended = now;
    s.sent = now;
    StepCounters& c = metricsAt(i, now).counters;
    ++c.sent;
    c.bytesOut += out.bytes;
    m_sessions->send(slot, st, out, now);
}

// The answer as the step's checks see it: what the session captured, and for
// gRPC the message as JSON (when some check or extractor reads the body).
AnswerView Worker::answerOf(std::uint32_t tag, int status, bool grpc, Nanos now)
{
    const Slot& s = m_slots[tag];
    AnswerView a;
    a.status = status;
    a.grpc = grpc;
    a.elapsedNanos = now - s.intended;
    if (!m_captured.valid || m_captured.tag != tag)
        return a;
    a.headers = m_captured.headers;
    a.trailers = m_captured.trailers;
    a.body = *m_captured.body;
    const PlannedStep& st = m_plan.steps[std::size_t(s.step)];
    if (grpc && (st.needs & kNeedsBody)) {
        std::vector<std::string> messages;
        std::string why;
        m_grpcJson.clear();
        if (grpcUnframe(*m_captured.body, messages, why) && messages.size() == 1 && st.grpc->output)
            binaryToJson(*st.grpc->schema, st.grpc->output, messages.front(), m_grpcJson, why);
        a.body = m_grpcJson;
    }
    return a;
}

// Judges an answer by the step's checks (their results kept for when the
// outcome is counted), then extracts. A status >= 400 (a gRPC status other
// than OK) is an error of its own class unless a status check accepted it.
Worker::Verdict Worker::judge(std::uint32_t slot, const AnswerView& a, std::string& why)
{
    Slot& s = m_slots[slot];
    const PlannedStep& st = m_plan.steps[std::size_t(s.step)];
    const bool error = a.grpc ? a.status != 0 : a.status >= 400;
    AnswerJson json(m_json, a.body);
    bool accepted = false;
    int failed = -1;
    std::string seen;
    m_checkResults.assign(st.checks.size(), 0);
    for (std::size_t i = 0; i < st.checks.size(); ++i) {
        const Check& c = st.checks[i];
        if (c.evaluate(a, json, seen)) {
            m_checkResults[i] = 1;
            accepted |= c.subject == Check::Subject::Status && !c.negate;
        } else if (failed < 0) {
            failed = int(i);
            why = "check \"" + c.name + "\": " + seen;
        }
    }
    if (error && !accepted) {
        why.clear();
        return a.grpc ? Verdict::GrpcError : Verdict::HttpError;
    }
    if (failed >= 0)
        return Verdict::CheckFailed;
    extract(s, st, a, json);
    return Verdict::Pass;
}

void Worker::extract(Slot& s, const PlannedStep& st, const AnswerView& a, AnswerJson& json)
{
    for (const Extractor& x : st.extractors) {
        const bool found = x.extract(a, json, s.values[x.variable]);
        s.isSet[x.variable] = found;
        if (!found)
            s.values[x.variable].clear();
    }
}

// The answer of a failed check kept as a sample: its status, the headers
// and the first KiB of the body as captured, and the check's name.
void Worker::failCheck(const Slot& slot, const AnswerView& a, const std::string& why)
{
    const std::uint32_t step = m_setup.stepOffset + std::uint32_t(slot.step); // the run's place of it
    if (sampleBudgetSpent(m_current->samples, step, ErrorClass::Check))
        return;
    ErrorSample e;
    e.step = step;
    e.second = m_current->second;
    e.errorClass = ErrorClass::Check;
    e.status = a.grpc ? 0 : a.status;
    e.head = a.grpc ? "grpc-status: " + std::to_string(a.status) + " " + grpcCodeName(a.status)
                    : "status: " + std::to_string(a.status);
    if (a.headers)
        for (const auto& [name, value] : *a.headers)
            e.head += "\r\n" + name + ": " + value;
    e.body = std::string(a.body.substr(0, kSampleBodyLimit));
    e.detail = why;
    m_current->samples.push_back(std::move(e));
}

} // namespace stampede
