#include "sendonce.h"

#include "check/contentcoding.h"
#include "core/text.h"
#include "core/url.h"
#include "flow/digest.h"
#include "grpc/protoschema.h"
#include "net/eventloop.h"
#include "net/ssesessions.h"
#include "net/transport.h"
#include "plan/scenarioplan.h"
#include "resolve/scriptsyntax.h"
#include "run/requestrenderer.h"
#include "run/stepscripts.h"
#include "stampede/v1/scenario.pb.h"
#include "stream/sseparser.h"

#include <map>
#include <optional>
#include <random>

namespace stampede {

namespace {

// scheme://host:port of the step's server (not its Host header: that is sent as written).
std::string origin(const PlannedStep& st)
{
    if (st.host.empty()) // a gRPC call: its server is its :scheme and :authority
        return st.h2Headers[1].second.constantText() + "://" + st.h2Headers[2].second.constantText();
    const bool v6 = st.host.find(':') != std::string::npos;
    return std::string(st.secure ? "https://" : "http://") + (v6 ? "[" + st.host + "]" : st.host) + ":" +
           std::to_string(st.port);
}

// The one-step scenario Send compiles: no stress tag (a request a person
// sends by hand is not test traffic), the values as constants.
bool oneStepScenario(const SendOnceRequest& rq, v1::Scenario& s, std::string& error)
{
    if (!parseScenarioJson("{\"steps\": [" + rq.stepJson + "]}", s, error))
        return false;
    v1::Step& st = *s.mutable_steps(0);
    st.clear_checks(); // the caller's (its scripts are run here, as a run runs them)
    st.clear_extract();
    st.clear_think_time();
    // name.column values are a data set's row: one inline CSV row per data set
    std::map<std::string, std::vector<std::pair<std::string, std::string>>> rows;
    for (const auto& [name, value] : rq.values) {
        if (const std::size_t dot = name.find('.'); dot != std::string::npos) {
            rows[name.substr(0, dot)].emplace_back(name.substr(dot + 1), value);
            continue;
        }
        auto* v = s.add_variables();
        v->set_name(name);
        v->mutable_constant()->set_value(value);
    }
    const auto quoted = [](const std::string& t) {
        std::string q = "\"";
        for (const char c : t)
            q += c == '"' ? std::string("\"\"") : std::string(1, c);
        return q + "\"";
    };
    for (const auto& [set, columns] : rows) {
        std::string head, row;
        for (const auto& [column, value] : columns) {
            head += (head.empty() ? "" : ",") + quoted(column);
            row += (row.empty() ? "" : ",") + quoted(value);
        }
        auto* v = s.add_variables();
        v->set_name(set);
        v->mutable_csv()->set_data(head + "\n" + row + "\n");
    }
    s.mutable_stress_tag()->set_disabled(true);
    s.set_http(st.has_grpc() || rq.http2 ? v1::HTTP_2 : v1::HTTP_1_1);
    s.mutable_load()->mutable_closed()->set_users(1);
    return true;
}

// Splits the HTTP/1.1 request the renderer made into what the exchange sends
// (it adds Connection: close and frames the body again).
SentRequest fromWire(const PlannedStep& st, const std::string& wire)
{
    SentRequest out;
    out.method = st.method;
    const std::size_t headEnd = wire.find("\r\n\r\n");
    std::size_t line = wire.find("\r\n") + 2;
    const std::size_t targetStart = wire.find(' ') + 1;
    const std::string target = wire.substr(targetStart, wire.rfind(" HTTP/1.1", line) - targetStart);
    while (line < headEnd) {
        const std::size_t end = wire.find("\r\n", line);
        const std::size_t colon = wire.find(':', line);
        std::string name = wire.substr(line, colon - line);
        std::string value = wire.substr(colon + 2, end - colon - 2);
        if (!equalsNoCase(name, "content-length"))
            out.headers.emplace_back(std::move(name), std::move(value));
        line = end + 2;
    }
    out.body = wire.substr(headEnd + 4);
    out.url = origin(st) + target;
    return out;
}

// The HTTP/2 form: the pseudo-headers make the URL, the rest are headers.
SentRequest fromH2(const PlannedStep& st, const RenderedRequest& r)
{
    SentRequest out;
    out.method = st.method.empty() ? "POST" : st.method;
    out.url = origin(st) + r.values[3];
    for (std::size_t h = 4; h < st.h2Headers.size(); ++h)
        out.headers.emplace_back(st.h2Headers[h].first, r.values[h]);
    out.body = r.body;
    return out;
}

// A data set's values, by ${name.column}, from the caller's values.
class RowLookup final : public ValueLookup
{
public:
    RowLookup(const ScenarioPlan& plan, const std::vector<std::pair<std::string, std::string>>& values)
        : m_plan(plan), m_values(values)
    {
    }
    std::string_view value(VarRef ref) const override
    {
        const PlannedVariable& v = m_plan.variables[ref.variable];
        std::string name = v.name;
        if (ref.column >= 0 && v.source)
            name += "." + v.source->columnNames()[std::size_t(ref.column)];
        for (const auto& [n, value] : m_values)
            if (n == name)
                return value;
        if (!v.source)
            return {};
        // a value the caller does not give is drawn as a run's iteration draws it (Postman's dynamic names:
        // ${$guid}, ${$timestamp}, ...), once for the request: each use of the name in it is the same value
        auto [at, fresh] = m_drawn.try_emplace({ref.variable, ref.column});
        if (fresh) {
            std::random_device entropy;
            if (const SourceCursorPtr c = v.source->cursor(0, 1, (std::uint64_t(entropy()) << 32) | entropy());
                c && c->next(0))
                at->second.assign(c->value(ref.column));
        }
        return at->second;
    }

private:
    const ScenarioPlan& m_plan;
    const std::vector<std::pair<std::string, std::string>>& m_values;
    mutable std::map<std::pair<std::uint16_t, int>, std::string> m_drawn;
};

void callGrpc(const PlannedStep& st, bool verify, SendOnceResult& r)
{
    r.grpc = true;
    Http2ExchangeRequest call;
    call.url = r.sent.url;
    call.method = "POST";
    call.grpc = true;
    call.verify = verify;
    call.body = r.sent.body;
    call.timeout = st.timeout;
    call.headers = r.sent.headers;
    call.stream = st.callStream.get();
    r.call = http2Exchange(call);
    for (const auto& m : r.call.messages) { // a streaming call's, both ways, read with their types
        SendOnceResult::CallMessage shown{m.out, m.at, {}, m.frame.size()};
        std::vector<std::string> one;
        std::string err;
        if (!grpcUnframe(m.frame, one, err) || one.size() != 1 ||
            !binaryToJson(*st.grpc->schema, m.out ? st.grpc->input : st.grpc->output, one.front(), shown.json, err))
            shown.json = "(" + (err.empty() ? std::string("not one message") : err) + ")";
        r.callMessages.push_back(std::move(shown));
    }
    if (!r.call.ok || r.call.grpcStatus != 0)
        return;
    std::vector<std::string> messages;
    std::string err;
    if (!grpcUnframe(r.call.body, messages, err) || messages.empty())
        r.answerError = err.empty() ? "the answer holds no message" : err;
    else if (!binaryToJson(*st.grpc->schema, st.grpc->output, messages.front(), r.answerJson, err))
        r.answerError = err;
}

// An event stream step read once, on the run's own SseConversations: each event kept as it comes.
void readStream(const PlannedStep& st, const RenderedRequest& rendered, SendOnceResult& r)
{
    r.eventStream = true;
    SseExchangeResult& x = r.sse;
    Endpoint ep = st.endpoint;
    if (!ep.lookUp(x.error))
        return;
    EventLoop loop;
    if (!loop.valid()) {
        x.error = "cannot create an event loop";
        return;
    }
    struct Heard final : SessionListener
    {
        SseExchangeResult& x;
        bool done = false;
        explicit Heard(SseExchangeResult& out) : x(out) {}
        void onAnswer(std::uint32_t, const Answer& a, Nanos) override
        {
            x.ok = !a.failed;
            if (a.failed)
                x.error = std::string(a.why);
            if (a.headers)
                x.headers = *a.headers;
            if (a.body)
                x.answer = *a.body;
            x.status = a.status;
            done = true;
        }
    } heard(x);
    std::vector<char> buffer(64 * 1024);
    SseConversations streams(1, loop, heard, buffer.data(), buffer.size(),
                             std::min<Nanos>(st.timeout, 10 * kNanosPerSecond));
    const Nanos start = SteadyClock::monotonicNow();
    streams.observe(0, [&](const SseEvent& e, Nanos now) {
        if (++x.received <= SseExchangeResult::kEventCap)
            x.events.push_back({now - start, e.id, e.type, e.data});
    });
    Outgoing o;
    o.request = &rendered;
    o.endpoint = &ep;
    o.timeout = st.timeout;
    o.protocol = Protocol::EventStream;
    o.capture = CaptureMode::All;
    o.sse = st.sse.get();
    streams.send(0, o, start);
    while (!heard.done) {
        const int n = loop.wait(10 * kNanosPerMilli);
        const Nanos now = SteadyClock::monotonicNow();
        dispatchEvents(loop, n, now);
        streams.checkDeadlines(now);
    }
    streams.close();
    x.totalTime = SteadyClock::monotonicNow() - start;
}

// A WebSocket step's conversation: the upgrade as rendered, its messages, what it awaits.
void converse(const PlannedStep& st, const RenderedRequest& rendered, SendOnceResult& r)
{
    r.websocket = true;
    Endpoint ep = st.endpoint;
    if (!ep.lookUp(r.ws.error))
        return;
    WsExchangeRequest x;
    x.endpoint = &ep;
    x.upgrade = rendered.wire;
    x.messages = rendered.messages;
    x.binary = st.ws->binary;
    x.protocols = st.ws->protocols;
    x.receive = st.ws->receive;
    x.requestReply = st.ws->requestReply;
    x.deflate = st.ws->deflate;
    x.timeout = st.timeout;
    r.ws = wsExchange(x);
}

} // namespace

namespace {

struct Rendered
{
    std::optional<ScenarioPlan> plan;
    bool verify = true;
    // the step's scripts, for Send's one user: its values by variable index
    std::unique_ptr<StepScripts> scripts;
    std::vector<std::string> values;
    std::vector<bool> isSet;
    RenderedRequest request; // as sent: the test script's pm.request
};

// What a script sets (extracted variables) before the caller's values.
class ScriptLookup final : public ValueLookup
{
public:
    ScriptLookup(const Rendered& r, const RowLookup& rows) : m_r(r), m_rows(rows) {}
    std::string_view value(VarRef ref) const override
    {
        const PlannedVariable& v = m_r.plan->variables[ref.variable];
        if (v.extracted && m_r.isSet[ref.variable])
            return m_r.values[ref.variable];
        if (v.extracted && v.fallback >= 0)
            return value(v.fallbackRef());
        return m_rows.value(ref);
    }

private:
    const Rendered& m_r;
    const RowLookup& m_rows;
};

ScriptValues scriptValues(Rendered& r, const SendOnceRequest& rq)
{
    return {r.values, r.isSet, [&r, &rq](std::uint16_t v, int column, std::string& out) {
                const std::string_view value = RowLookup(*r.plan, rq.values).value({v, std::int16_t(column)});
                const PlannedVariable& pv = r.plan->variables[v];
                if (const std::string* constant = pv.source ? pv.source->constantValue() : nullptr) {
                    out = *constant;
                    return true;
                }
                out.assign(value);
                return !value.empty();
            }};
}

// The step's pre-request script, when it has one: false with `error` when
// it failed (nothing is sent) or skipped the request; `changes` what it did to the request.
bool preRequest(const SendOnceRequest& rq, Rendered& out, ScriptRun& changes, std::string& error, bool& skipped)
{
    const PlannedStep& st = out.plan->steps.front();
    if (!st.scripts)
        return true;
    out.scripts = std::make_unique<StepScripts>(*out.plan, 1);
    out.values.assign(out.plan->variables.size(), {});
    out.isSet.assign(out.plan->variables.size(), false);
    if (st.scripts->pre.empty())
        return true;
    changes = out.scripts->runPre(0, 0, scriptValues(out, rq), 1);
    if (!changes.ok)
        error = changes.error;
    else if (changes.skip)
        error = "the pre-request script skipped the request (pm.execution.skipRequest())";
    skipped = changes.ok && changes.skip;
    return changes.ok && !changes.skip;
}

// Compiled and rendered: the plan (its step's templates all constant) and
// what the request sends; false with `error`.
bool compileAndRender(const SendOnceRequest& rq, Rendered& out, SentRequest& sent, std::string& error,
                      ScriptRun* changesOut = nullptr)
{
    v1::Scenario s;
    if (!oneStepScenario(rq, s, error))
        return false;
    PlanOptions o;
    if (!rq.baseDir.empty())
        o.baseDir = rq.baseDir;
    std::vector<PlanError> errors;
    out.plan = compileScenario(s, o, errors);
    if (!checkScriptSyntax(s, errors))
        out.plan.reset();
    if (!out.plan) {
        error = errors.empty() ? "the request cannot be made" : errors.front().text();
        return false;
    }
    const PlannedStep& st = out.plan->steps.front();
    const bool h2 = out.plan->http == HttpVersion::Http2;
    ScriptRun changes;
    bool skipped = false;
    if (!preRequest(rq, out, changes, error, skipped)) {
        if (changesOut)
            *changesOut = std::move(changes);
        return false;
    }
    RequestRenderer renderer(*out.plan, h2);
    RenderedRequest r;
    const RowLookup rows(*out.plan, rq.values);
    if (renderer.templated(0)) // a data set's first row, as the values give it
        renderer.render(0, ScriptLookup(out, rows), r);
    else
        r = renderer.fixed(0);
    if (r.failure.empty() && changes.changesRequest() && !applyScriptChanges(changes, st, h2, r, r.failure))
        r.failure = "the pre-request script: " + r.failure;
    if (!r.failure.empty()) {
        error = r.failure;
        return false;
    }
    if (changesOut)
        *changesOut = std::move(changes);
    sent = h2 ? fromH2(st, r) : fromWire(st, r.wire);
    out.request = std::move(r);
    const v1::Step& step = s.steps(0);
    out.verify = !(step.has_grpc() ? step.grpc().insecure() : step.request().insecure());
    return true;
}

} // namespace

bool renderOnce(const SendOnceRequest& request, SentRequest& out, std::string& error)
{
    Rendered r;
    return compileAndRender(request, r, out, error);
}

namespace {

// The answer a test script reads, as a run's: an HTTP answer (its body decoded), a gRPC call's message as JSON
// with its status, metadata and trailers, a WebSocket conversation's last message in, an event stream's last
// awaited event. False: there is none (the request failed).
bool answerOf(const SendOnceResult& r, AnswerView& a, std::string& decoded)
{
    static const HeaderPairs none;
    a.headers = &none;
    if (r.grpc) {
        if (!r.call.ok)
            return false;
        a.status = r.call.grpcStatus;
        a.statusName = "grpc-status";
        a.codeName = grpcCodeView(r.call.grpcStatus);
        a.headers = &r.call.headers;
        a.trailers = &r.call.trailers;
        a.body = r.answerJson;
        a.elapsedNanos = r.call.totalTime;
    } else if (r.websocket) {
        if (!r.ws.opened)
            return false;
        a.status = 101;
        for (auto it = r.ws.log.rbegin(); it != r.ws.log.rend(); ++it)
            if (!it->out) {
                a.body = it->data;
                break;
            }
        a.elapsedNanos = r.ws.totalTime;
    } else if (r.eventStream) {
        if (r.sse.status == 0)
            return false;
        a.status = r.sse.status;
        a.headers = &r.sse.headers;
        a.body = r.sse.answer;
        a.elapsedNanos = r.sse.totalTime;
    } else {
        if (!r.http.ok)
            return false;
        a.status = r.http.status;
        a.headers = &r.http.headers;
        a.body = r.http.body;
        a.body = decodedBody(a, decoded);
        a.elapsedNanos = r.http.totalTime;
    }
    return true;
}

// The step's test script on the answer, and what the scripts left.
void testScript(const SendOnceRequest& rq, Rendered& rendered, const ScriptRun& pre, SendOnceResult& r)
{
    r.scriptLogs = pre.logs;
    for (const ScriptRun::Test& test : pre.tests) // the pre-request script's pm.tests first, as newman lists them
        r.tests.push_back({test.name, test.passed, test.error});
    if (!rendered.scripts)
        return;
    const PlannedStep& st = rendered.plan->steps.front();
    std::string decoded;
    AnswerView a;
    if (!st.scripts->test.empty() && answerOf(r, a, decoded)) {
        const ScriptRun t = rendered.scripts->runTest(0, 0, a, scriptValues(rendered, rq), 1, &rendered.request);
        for (const ScriptRun::Test& test : t.tests)
            r.tests.push_back({test.name, test.passed, test.error});
        r.scriptLogs.insert(r.scriptLogs.end(), t.logs.begin(), t.logs.end());
        if (!t.ok)
            r.scriptError = t.error;
    }
    for (std::size_t v = 0; v < rendered.values.size(); ++v)
        if (rendered.plan->variables[v].extracted && rendered.isSet[v])
            r.scriptSet.emplace_back(rendered.plan->variables[v].name, rendered.values[v]);
}

// Digest authentication as a run answers it (flow/digest.h): the request (answered at once when its realm and
// nonce are written), and once more with the answer to the server's challenge. Send shows the last exchange.
template <typename Send>
void exchangeWithDigest(const PlannedStep& st, const RenderedRequest& rendered, HttpExchangeRequest& x,
                        SendOnceResult& r, const Send& send)
{
    DigestSession session;
    std::string why;
    const auto url = Url::parse(x.url, why);
    const std::string target = url ? url->target : std::string("/");
    const auto sign = [&](bool first) {
        const std::string value = session.authorization(rendered.digest, first, x.method, target, x.body);
        if (value.empty())
            return;
        for (auto* headers : {&x.headers, &r.sent.headers}) {
            std::erase_if(*headers, [](const auto& h) { return equalsNoCase(h.first, "authorization"); });
            headers->emplace_back("Authorization", value);
        }
    };
    sign(true);
    send();
    if (r.http.ok && st.digest->retry && session.challenged(r.http.status, r.http.headers, rendered.digest)) {
        sign(false);
        send();
    }
}

} // namespace

SendOnceResult sendOnce(const SendOnceRequest& rq)
{
    SendOnceResult r;
    Rendered rendered;
    ScriptRun pre;
    if (!compileAndRender(rq, rendered, r.sent, r.error, &pre)) {
        r.scriptLogs = pre.logs;
        r.skipped = pre.ok && pre.skip;
        return r;
    }
    const PlannedStep& st = rendered.plan->steps.front();
    if (st.grpc || st.ws || st.sse) {
        if (st.grpc)
            callGrpc(st, rendered.verify, r);
        else if (st.ws)
            converse(st, rendered.request, r);
        else
            readStream(st, rendered.request, r);
        testScript(rq, rendered, pre, r);
        return r;
    }
    HttpExchangeRequest x;
    x.method = r.sent.method;
    x.url = r.sent.url;
    x.headers = r.sent.headers;
    x.body = r.sent.body;
    x.timeout = st.timeout;
    x.verify = rendered.verify;
    const bool h2 = rendered.plan->http == HttpVersion::Http2;
    const auto send = [&] { r.http = h2 ? exchangeOverHttp2(x, rendered.verify) : exchange(x); };
    if (st.digest)
        exchangeWithDigest(st, rendered.request, x, r, send);
    else
        send();
    testScript(rq, rendered, pre, r);
    return r;
}

} // namespace stampede
