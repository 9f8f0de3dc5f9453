#include "stepscripts.h"

#include "requestrenderer.h"
#include "scriptrequest.h"

#include "core/text.h"
#include "core/url.h"
#include "core/wiretext.h"
#include "script/jsruntime.h"

#include <simdjson.h>

#include <algorithm>
#include <stdexcept>

namespace stampede {

namespace {

// The server a request goes to: the one found as it was rendered (a host set at run time), else its step's.
struct ServerOf
{
    const std::string& host;
    unsigned port;
    bool secure;
};

ServerOf serverOf(const PlannedStep& st, const RenderedRequest& r)
{
    if (r.endpoint)
        return {r.endpoint->host, r.endpoint->port, bool(r.endpoint->tls)};
    return {st.host, st.port, st.secure};
}

// The scopes a script sets, in Postman's order of precedence (last wins).
constexpr const char* kScopes[] = {"globals", "collectionVariables", "environment", "variables"};
constexpr std::uint8_t kEnvironment = 2;
constexpr std::uint8_t kVariables = 3;

std::string lower(std::string_view s)
{
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

// key: value into a JSON object being written; `json`: the value is JSON text already (not a string).
void appendPair(std::string& out, std::string_view key, std::string_view value, bool json = false)
{
    if (out.back() != '{')
        out += ',';
    out += jsonString(key);
    out += ':';
    out += json ? std::string(value) : jsonString(value);
}

void appendHeaders(std::string& out, const HeaderPairs& headers)
{
    out += '[';
    for (std::size_t i = 0; i < headers.size(); ++i) {
        out += i ? ",[" : "[";
        out += jsonString(headers[i].first);
        out += ',';
        out += jsonString(headers[i].second);
        out += ']';
    }
    out += ']';
}

bool headersOf(simdjson::dom::element e, HeaderPairs& out)
{
    simdjson::dom::array list;
    if (e.get_array().get(list))
        return false;
    for (simdjson::dom::element pair : list) {
        simdjson::dom::array kv;
        std::string_view k, v;
        if (pair.get_array().get(kv) || kv.size() != 2 || kv.at(0).get_string().get(k) || kv.at(1).get_string().get(v))
            return false;
        out.emplace_back(std::string(k), std::string(v));
    }
    return true;
}

// The names whose headers differ between `written` and `now` (added, set or removed), lower-case.
std::vector<std::string> changedHeaderNames(const HeaderPairs& written, const HeaderPairs& now)
{
    std::vector<std::string> names;
    const auto valuesOf = [](const HeaderPairs& list, const std::string& name) {
        std::vector<std::string> v;
        for (const auto& [k, value] : list)
            if (lower(k) == name)
                v.push_back(value);
        return v;
    };
    for (const HeaderPairs* list : {&written, &now})
        for (const auto& h : *list) {
            const std::string name = lower(h.first);
            if (std::find(names.begin(), names.end(), name) == names.end() &&
                valuesOf(written, name) != valuesOf(now, name))
                names.push_back(name);
        }
    return names;
}

// The request as it went out (HTTP/1.1's wire, or HTTP/2's header list), as a test script reads pm.request: its
// URL resolved, its headers with those the engine added (Host, User-Agent, its authorization), its body.
bool sentJson(const PlannedStep& st, const RenderedRequest& r, std::string& json)
{
    std::string_view method, target, body;
    HeaderPairs headers;
    if (!r.wire.empty()) {
        const std::string_view wire = r.wire;
        const std::size_t lineEnd = wire.find("\r\n"), headEnd = wire.find("\r\n\r\n");
        if (lineEnd == std::string_view::npos || headEnd == std::string_view::npos)
            return false;
        const std::string_view line = wire.substr(0, lineEnd);
        const std::size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
        if (sp1 == std::string_view::npos || sp2 <= sp1)
            return false;
        method = line.substr(0, sp1);
        target = line.substr(sp1 + 1, sp2 - sp1 - 1);
        for (std::size_t at = lineEnd + 2; at < headEnd;) {
            const std::size_t end = wire.find("\r\n", at);
            const std::string_view h = wire.substr(at, end - at);
            at = end + 2;
            const std::size_t colon = h.find(':');
            if (colon == std::string_view::npos)
                continue;
            std::string_view value = h.substr(colon + 1);
            while (!value.empty() && value.front() == ' ')
                value.remove_prefix(1);
            headers.emplace_back(std::string(h.substr(0, colon)), std::string(value));
        }
        body = wire.substr(headEnd + 4);
    } else {
        for (std::size_t i = 0; i < st.h2Headers.size() && i < r.values.size(); ++i) {
            const std::string& name = st.h2Headers[i].first;
            if (name == ":method")
                method = r.values[i];
            else if (name == ":path")
                target = r.values[i];
            else if (!name.empty() && name[0] != ':')
                headers.emplace_back(name, r.values[i]);
        }
        for (std::size_t k = 0; k + 1 < r.extra.size(); k += 2)
            headers.emplace_back(r.extra[k], r.extra[k + 1]);
        body = r.body;
    }
    const ServerOf to = serverOf(st, r);
    const bool defaultPort = to.port == (to.secure ? 443u : 80u);
    const std::string url = std::string(to.secure ? "https://" : "http://") + to.host +
                            (defaultPort ? std::string() : ":" + std::to_string(to.port)) + std::string(target);
    json = "{\"method\":" + jsonString(method) + ",\"url\":" + jsonString(url) + ",\"body\":" + jsonString(body) +
           ",\"description\":" + jsonString(st.scripts ? st.scripts->description : std::string()) +
           ",\"mode\":" + jsonString(st.scripts ? st.scripts->formMode : std::string()) + ",\"form\":";
    appendHeaders(json, st.scripts ? HeaderPairs(st.scripts->form.begin(), st.scripts->form.end()) : HeaderPairs{});
    json += ",\"headers\":";
    appendHeaders(json, headers);
    json += '}';
    return true;
}

} // namespace

struct StepScripts::User
{
    std::unique_ptr<script::JsRuntime::Realm> realm;
    // what the user's scripts set of names the plan does not know, by scope
    std::map<std::string, std::string> own[4];
    // where each of the plan's variables was last set by a script (kEnvironment until then)
    std::vector<std::uint8_t> scopeOf;
};

StepScripts::StepScripts(const ScenarioPlan& plan, std::uint32_t slots)
    : m_plan(plan), m_turns(slots), m_pre(plan.steps.size()), m_test(plan.steps.size()), m_users(slots),
      m_parser(std::make_unique<simdjson::dom::parser>())
{
    script::JsRuntime& js = script::JsRuntime::thisThread();
    // a run's scripts have 100 ms of CPU each; a collection run's (newman's, which has no limit) 10 s: a run
    // still ends, and a script that waits in a loop, as newman's own fixtures do, runs as in newman
    js.setBudget(plan.testsVerdict ? std::chrono::milliseconds(10000) : script::ScriptLimits{}.budget);
    for (std::size_t i = 0; i < plan.steps.size(); ++i) {
        const StepScriptPlan* sp = plan.steps[i].scripts.get();
        if (!sp)
            continue;
        std::string error;
        if (!sp->pre.empty() && !(m_pre[i] = js.compile(script::pmScriptSource(sp->pre), sp->preName, error)))
            throw std::runtime_error(error);
        if (!sp->test.empty() && !(m_test[i] = js.compile(script::pmScriptSource(sp->test), sp->testName, error)))
            throw std::runtime_error(error);
    }
}

StepScripts::~StepScripts()
{
    m_users.clear(); // the realms first: they hold the scripts
    script::JsRuntime& js = script::JsRuntime::thisThread();
    for (const auto* list : {&m_pre, &m_test})
        for (const auto& s : *list)
            if (s)
                js.release(*s);
}

ScriptRun StepScripts::runPre(std::uint32_t slot, std::size_t step, ScriptValues values, std::uint64_t iteration)
{
    ScriptRun r = run(slot, step, true, nullptr, values, iteration);
    noteJump(slot, r);
    return r;
}

ScriptRun StepScripts::runTest(std::uint32_t slot, std::size_t step, const AnswerView& answer, ScriptValues values,
                               std::uint64_t iteration, const RenderedRequest* sent)
{
    ScriptRun r = run(slot, step, false, &answer, values, iteration, sent);
    noteJump(slot, r);
    return r;
}

void withConsole(std::string& why, const std::vector<std::string>& logs)
{
    for (std::size_t i = 0; i < logs.size() && i < 5; ++i)
        why += "\nconsole: " + logs[i];
}

void StepScripts::noteJump(std::uint32_t slot, const ScriptRun& r)
{
    if (!r.jump)
        return;
    int& jump = m_turns[slot].jump;
    jump = kEndIteration;
    if (r.next)
        for (std::size_t k = m_plan.steps.size(); k-- > 0;)
            if (m_plan.steps[k].name == *r.next) {
                jump = int(k);
                break;
            }
}

void StepScripts::newIteration(std::uint32_t slot, bool user)
{
    ++m_turns[slot].iterations;
    m_turns[slot].jump = kNoJump;
    User* u = m_users[slot].get();
    if (!u)
        return;
    u->own[kVariables].clear();
    if (!user)
        for (auto& scope : u->own)
            scope.clear();
}

// What a run asks for when its script reads it.
struct StepScripts::Host final : script::PmHost
{
    const StepScripts& scripts;
    User& user;
    std::size_t step;
    const AnswerView* answer;
    ScriptValues& values;
    ScriptRun& out;
    Host(const StepScripts& s, User& u, std::size_t st, const AnswerView* a, ScriptValues& v, ScriptRun& o)
        : scripts(s), user(u), step(st), answer(a), values(v), out(o)
    {
    }
    void variables(std::string& json) override { scripts.variablesJson(user, values, json); }
    void request(std::string& json) override
    {
        const PlannedStep& st = scripts.m_plan.steps[step];
        const StepScriptPlan& sp = *st.scripts;
        if (sp.methodPath.empty() && sent && sentJson(st, *sent, json))
            return;
        if (!sp.methodPath.empty()) { // a call's, as written (its messages go out encoded)
            json = "{\"method\":\"POST\",\"url\":" + jsonString(sp.url) +
                   ",\"methodPath\":" + jsonString(sp.methodPath) + ",\"body\":" + jsonString(sp.body) +
                   ",\"headers\":";
            appendHeaders(json, sp.headers);
            json += ",\"messages\":[";
            for (std::size_t i = 0; i < sp.messages.size(); ++i)
                json += (i ? "," : "") + jsonString(sp.messages[i]);
            json += "]}";
            return;
        }
        json = "{\"method\":" + jsonString(sp.method) + ",\"url\":" + jsonString(sp.url) +
               ",\"body\":" + jsonString(sp.body) + ",\"description\":" + jsonString(sp.description) +
               ",\"mode\":" + jsonString(sp.formMode) + ",\"form\":";
        appendHeaders(json, sp.form);
        json += ",\"headers\":";
        appendHeaders(json, sp.headers);
        json += '}';
    }
    void responseHeaders(std::string& json) override
    {
        appendHeaders(json, answer && answer->headers ? *answer->headers : HeaderPairs{});
    }
    void responseTrailers(std::string& json) override
    {
        appendHeaders(json, answer && answer->trailers ? *answer->trailers : HeaderPairs{});
    }
    std::string_view responseBody() override { return answer ? answer->body : std::string_view(); }
    void sendRequest(std::string_view spec, std::string& json) override
    {
        if (scripts.m_sender)
            scripts.m_sender(step, spec, json);
        else
            sendScriptRequest(spec, json);
    }
    void shared(int kind, std::string_view key, std::string_view value, double by, std::string& json) override
    {
        if (scripts.m_shared)
            scripts.m_shared(kind, key, value, by, json);
        else
            PmHost::shared(kind, key, value, by, json);
    }
    void responseCookies(std::string& json) override
    {
        HeaderPairs pairs; // "a=1; b=2" as [[a, 1], [b, 2]]
        std::string_view rest = answer ? answer->cookies : std::string_view();
        while (!rest.empty()) {
            const std::size_t end = std::min(rest.find("; "), rest.size());
            const std::string_view one = rest.substr(0, end);
            const std::size_t eq = one.find('=');
            if (eq != std::string_view::npos)
                pairs.emplace_back(std::string(one.substr(0, eq)), std::string(one.substr(eq + 1)));
            rest.remove_prefix(std::min(end + 2, rest.size()));
        }
        appendHeaders(json, pairs);
    }
    void test(std::string_view name, bool passed, std::string_view error) override
    {
        out.tests.push_back({std::string(name), passed, std::string(error)});
    }
    void log(std::string_view line) override { out.logs.emplace_back(line); }
    void change(int scope, const std::string_view* key, const std::string_view* value) override;
    const RenderedRequest* sent = nullptr; // a test script's: the request as it went out
    std::vector<bool> unset;               // plan variables unset in this run: their default no longer holds
};

// What a script set, unset or cleared, as it does it: into the user's values
// when the plan knows the name (a name set in a scope below the one that
// holds its value is still that value: Postman's precedence), else kept for
// the user's next scripts.
void StepScripts::Host::change(int scope, const std::string_view* key, const std::string_view* value)
{
    if (scope < 0 || scope > 3)
        return;
    const auto s = std::uint8_t(scope);
    const auto& variables = scripts.m_plan.variables;
    User& u = user;
    unset.resize(variables.size());
    if (!key) { // clear
        u.own[s].clear();
        for (std::size_t i = 0; i < variables.size(); ++i)
            if (variables[i].extracted && u.scopeOf[i] == s)
                values.isSet[i] = false, unset[i] = true;
        return;
    }
    const auto known = std::find_if(variables.begin(), variables.end(),
                                    [&](const PlannedVariable& pv) { return pv.extracted && pv.name == *key; });
    const std::size_t i = std::size_t(known - variables.begin());
    if (!value) { // unset
        if (known == variables.end())
            u.own[s].erase(std::string(*key));
        else if (u.scopeOf[i] == s)
            values.isSet[i] = false, unset[i] = true;
        return;
    }
    if (known == variables.end()) {
        u.own[s][std::string(*key)] = std::string(*value);
        return;
    }
    std::string fallback;
    const bool held =
        values.isSet[i] || (!unset[i] && known->fallback >= 0 && !variables[std::size_t(known->fallback)].literal &&
                            values.read(known->fallbackRef().variable, known->fallbackRef().column, fallback));
    if (held && u.scopeOf[i] > s)
        return; // a scope of higher precedence holds it
    values.values[i].assign(*value);
    values.isSet[i] = true;
    u.scopeOf[i] = s;
}

ScriptRun StepScripts::run(std::uint32_t slot, std::size_t step, bool pre, const AnswerView* answer,
                           ScriptValues& values, std::uint64_t iteration, const RenderedRequest* sent)
{
    ScriptRun out;
    script::JsRuntime& js = script::JsRuntime::thisThread();
    std::unique_ptr<User>& u = m_users[slot];
    if (!u) {
        u = std::make_unique<User>();
        u->scopeOf.assign(m_plan.variables.size(), kEnvironment);
        for (std::size_t i = 0; i < m_plan.variables.size(); ++i) // a default's scope: its constant's
            if (const int f = m_plan.variables[i].fallback; f >= 0)
                u->scopeOf[i] = m_plan.variables[std::size_t(f)].scope;
        u->realm = js.newRealm();
    }
    if (!u->realm) {
        out.ok = false;
        out.error = "no room for this user's script realm (the script heap is full)";
        return out;
    }
    const PlannedStep& st = m_plan.steps[step];
    script::PmFacts facts;
    facts.requestName = st.name;
    facts.requestId = st.scripts->requestId;
    facts.iteration = iteration;
    facts.request = pre;
    if (answer) {
        facts.code = answer->status;
        facts.responseTime = double(answer->elapsedNanos / 1000000);
        facts.responseSize = answer->body.size();
        facts.call = !st.scripts->methodPath.empty();
        if (facts.call)
            facts.status = answer->codeName;
    }
    Host host(*this, *u, step, answer, values, out);
    host.sent = sent;
    const script::ScriptOutcome o = js.runPm(*u->realm, pre ? *m_pre[step] : *m_test[step], facts, host, m_result);
    if (!o.ok) {
        out.ok = false;
        out.error = o.error;
    }
    if (!m_result.empty())
        takeResult(step, m_result, out);
    return out;
}

// The variables a script reads, as JSON in their scopes (JsRuntime::PmHost::variables).
void StepScripts::variablesJson(const User& u, ScriptValues& values, std::string& out) const
{
    std::string scopes[4] = {"{", "{", "{", "{"};
    std::string data = "{";
    std::string value;
    for (std::size_t v = 0; v < m_plan.variables.size(); ++v) {
        const PlannedVariable& pv = m_plan.variables[v];
        if (pv.extracted) {
            if (values.isSet[v])
                appendPair(scopes[u.scopeOf[v]], pv.name, values.values[v]);
            else if (pv.fallback >= 0 && !m_plan.variables[std::size_t(pv.fallback)].literal &&
                     values.read(pv.fallbackRef().variable, pv.fallbackRef().column, value))
                appendPair(scopes[u.scopeOf[v]], pv.name, value);
        } else if (pv.source && pv.source->hasColumns()) {
            const std::vector<std::string> columns = pv.source->columnNames();
            // iteration data: a letter a column in "$types" (collection/newmanfiles.h): JSON, text or lacking
            std::string types;
            const int typesAt = pv.iterationData ? pv.source->columnIndex("$types") : -1;
            if (typesAt >= 0)
                values.read(std::uint16_t(v), typesAt, types);
            for (std::size_t c = 0; c < columns.size(); ++c) {
                const char type = int(c) == typesAt ? 'u' : c < types.size() ? types[c] : 's';
                if (type != 'u' && values.read(std::uint16_t(v), int(c), value))
                    appendPair(data, columns[c], value, type == 'j');
            }
        } else if (!pv.literal && values.read(std::uint16_t(v), -1, value)) {
            appendPair(scopes[pv.scope], pv.name, value);
        }
    }
    for (std::size_t s = 0; s < 4; ++s)
        for (const auto& [k, v] : u.own[s])
            appendPair(scopes[s], k, v); // later in the text: JSON.parse keeps it
    out = "{";
    for (std::size_t s = 0; s < 4; ++s) {
        out += jsonString(kScopes[s]);
        out += ':';
        out += scopes[s];
        out += "},";
    }
    out += "\"iterationData\":" + data + "}}";
}

// What the script left beside what it told the host: skip, and the request's
// changes.
void StepScripts::takeResult(std::size_t step, const std::string& result, ScriptRun& out)
{
    simdjson::dom::element root;
    if (m_parser->parse(result).get(root)) {
        out.ok = false;
        out.error = "the script's result could not be read";
        return;
    }
    bool skip = false;
    if (!root["skip"].get_bool().get(skip))
        out.skip = skip;
    if (simdjson::dom::element next; !root["next"].get(next)) {
        out.jump = true;
        if (std::string_view name; !next.get_string().get(name))
            out.next = std::string(name);
    }
    // the request's changes, resolved
    simdjson::dom::element request, resolved;
    const StepScriptPlan& sp = *m_plan.steps[step].scripts;
    if (root["request"].get(request) || root["resolved"].get(resolved))
        return;
    std::string_view text;
    if (!request["method"].get_string().get(text) && text != sp.method)
        out.method = text;
    if (!request["url"].get_string().get(text) && text != sp.url && !resolved["url"].get_string().get(text))
        out.url = std::string(text);
    if (!request["body"].get_string().get(text) && text != sp.body && !resolved["body"].get_string().get(text))
        out.body = std::string(text);
    HeaderPairs now, nowResolved;
    simdjson::dom::element headers, headersResolved;
    if (request["headers"].get(headers) || resolved["headers"].get(headersResolved) || !headersOf(headers, now) ||
        !headersOf(headersResolved, nowResolved) || now.size() != nowResolved.size())
        return;
    out.headerNames = changedHeaderNames(sp.headers, now);
    for (const auto& h : nowResolved)
        if (std::find(out.headerNames.begin(), out.headerNames.end(), lower(h.first)) != out.headerNames.end())
            out.headers.push_back(h);
}

namespace {

bool applyHttp1(const ScriptRun& c, const PlannedStep& st, const std::string& target, RenderedRequest& r,
                std::string& why)
{
    const std::string& wire = r.wire;
    const std::size_t lineEnd = wire.find("\r\n");
    const std::size_t headEnd = wire.find("\r\n\r\n");
    if (lineEnd == std::string::npos || headEnd == std::string::npos) {
        why = "the request could not be changed";
        return false;
    }
    const std::string_view line(wire.data(), lineEnd);
    const std::size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
    std::string out;
    out.reserve(wire.size() + 256);
    out += c.method.empty() ? std::string(line.substr(0, sp1)) : c.method;
    out += ' ';
    out += target.empty() ? std::string(line.substr(sp1 + 1, sp2 - sp1 - 1)) : target;
    out += line.substr(sp2);
    const std::string_view body = c.body ? std::string_view(*c.body) : std::string_view(wire).substr(headEnd + 4);
    for (std::size_t at = lineEnd + 2; at < headEnd + 2;) {
        const std::size_t end = wire.find("\r\n", at);
        const std::string_view h(wire.data() + at, end - at);
        at = end + 2;
        const std::string name = lower(h.substr(0, h.find(':')));
        if (std::find(c.headerNames.begin(), c.headerNames.end(), name) != c.headerNames.end() ||
            (c.body && name == "content-length"))
            continue;
        out += "\r\n";
        out += h;
    }
    for (const auto& [name, value] : c.headers) {
        out += "\r\n";
        out += name;
        out += ": ";
        out += value;
    }
    if (c.body && (!body.empty() || st.hasBody))
        out += "\r\nContent-Length: " + std::to_string(body.size());
    out += "\r\n\r\n";
    out += body;
    r.wire = std::move(out);
    r.bytes = r.wire.size();
    return true;
}

void applyHttp2(const ScriptRun& c, const PlannedStep& st, const std::string& target, RenderedRequest& r)
{
    r.extra.clear();
    for (std::size_t i = 0; i < st.h2Headers.size(); ++i) {
        const std::string& name = st.h2Headers[i].first;
        if (name == ":method" && !c.method.empty())
            r.values[i] = c.method;
        else if (name == ":path" && !target.empty())
            r.values[i] = target;
    }
    for (const auto& [name, value] : c.headers) {
        r.extra.push_back(lower(name));
        r.extra.push_back(value);
    }
    if (c.body)
        r.body = *c.body;
    r.nv.clear();
    r.bytes = r.body.size();
    const auto add = [&](const std::string& name, const std::string& value) {
        r.nv.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(name.data())),
                        reinterpret_cast<std::uint8_t*>(const_cast<char*>(value.data())), name.size(), value.size(),
                        NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE});
        r.bytes += name.size() + value.size();
    };
    for (std::size_t i = 0; i < st.h2Headers.size(); ++i)
        if (std::find(c.headerNames.begin(), c.headerNames.end(), st.h2Headers[i].first) == c.headerNames.end() &&
            !(c.body && st.h2Headers[i].first == "content-length"))
            add(st.h2Headers[i].first, r.values[i]);
    for (std::size_t k = 0; k + 1 < r.extra.size(); k += 2)
        add(r.extra[k], r.extra[k + 1]);
}

} // namespace

bool applyScriptChanges(const ScriptRun& c, const PlannedStep& st, bool http2, RenderedRequest& r, std::string& why)
{
    if (!c.method.empty() && !headerFault(c.method, "").empty()) {
        why = "pm.request.method \"" + c.method + "\" is not an HTTP method";
        return false;
    }
    for (const auto& [name, value] : c.headers)
        if (const std::string fault = headerFault(name, value); !fault.empty()) {
            why = "pm.request.headers: " + fault;
            return false;
        }
    std::string target;
    if (c.url) {
        const auto u = Url::parse(*c.url, why);
        if (!u) {
            why = "pm.request.url: " + why;
            return false;
        }
        const ServerOf to = serverOf(st, r);
        if (u->port != to.port || (u->scheme == "https") != to.secure || !equalsNoCase(u->host, to.host)) {
            why = "pm.request.url goes to another server (" + *c.url +
                  "): a step's server is the one its URL named when the run was planned";
            return false;
        }
        if (!appendTarget(target, u->target)) {
            why = "pm.request.url: " + fieldFault(u->target, WireField::Target);
            return false;
        }
    }
    if (http2)
        applyHttp2(c, st, target, r);
    else if (!applyHttp1(c, st, target, r, why))
        return false;
    // the same bound as a rendered head's: a script's 10 MB header is not sent
    std::size_t head = 0;
    if (!http2)
        head = std::min(r.wire.find("\r\n\r\n"), r.wire.size());
    else
        for (const nghttp2_nv& nv : r.nv)
            head += nv.namelen + nv.valuelen;
    if (head > RequestRenderer::kMaxHead) {
        why = "pm.request.headers: the request's head would be " + std::to_string(head) +
              " bytes, over the 1 MiB a head may have: not sent";
        return false;
    }
    return true;
}

} // namespace stampede
