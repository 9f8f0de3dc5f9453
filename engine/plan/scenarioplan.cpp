#include "scenarioplan.h"

#include "core/number.h"
#include "core/schedule.h"
#include "load/loadcompile.h"

#include "breakerplan.h"
#include "checkplan.h"
#include "grpcstep.h"
#include "httpstep.h"
#include "replaystep.h"
#include "scriptplan.h"
#include "ssestep.h"
#include "stepoptions.h"
#include "testplan.h"
#include "variableplan.h"
#include "wsstep.h"

#include "net/tlscontext.h"

#include "core/text.h"
#include "core/textfile.h"
#include "core/url.h"
#include "stampede/v1/scenario.pb.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

#include <map>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <random>
#include <sstream>
#include <thread>

namespace stampede {

namespace {

// The stress tag as its header carries it: a `baggage` header takes a W3C
// baggage member (key=value), any other the run id itself.
std::string stressTagValue(const std::string& header, const std::string& runId)
{
    return asciiLower(header) == "baggage" ? "stress_test=" + runId : runId;
}

std::string fmt(double v)
{
    return shortNumber(v);
}

class Compiler final : private StepContext
{
public:
    Compiler(const v1::Scenario& s, const PlanOptions& o, std::vector<PlanError>& e)
        : m_s(s), m_o(o), m_errors(e), m_vars(*this, m_plan), m_grpc(*this), m_http(*this), m_ws(*this), m_sse(*this),
          m_replay(*this)
    {
    }

    // Each variable's first value (a CSV source's first row, per column as
    // name.column); variables that do not compile are left out.
    std::map<std::string, std::string> samples()
    {
        std::map<std::string, std::string> out;
        for (int i = 0; i < m_s.variables_size(); ++i) {
            const v1::Variable& v = m_s.variables(i);
            const ParameterSourcePtr src = m_vars.source(v, "variables[" + std::to_string(i) + "]");
            if (!src)
                continue;
            try {
                const SourceCursorPtr c = src->cursor(0, 1, 1);
                if (!c->next(0))
                    continue;
                if (src->hasColumns()) {
                    const std::vector<std::string> columns = src->columnNames();
                    for (std::size_t k = 0; k < columns.size(); ++k)
                        out[v.name() + "." + columns[k]] = std::string(c->value(int(k)));
                } else {
                    out[v.name()] = std::string(c->value(-1));
                }
            } catch (const PartitionError&) {
            }
        }
        return out;
    }

    std::optional<ScenarioPlan> run()
    {
        m_plan.name = m_s.name().empty() ? "scenario" : m_s.name();
        m_plan.runId = m_o.runId.empty() ? newRunId() : m_o.runId;
        m_plan.testsVerdict = m_s.verdict() == "tests"; // first: a collection run's names are planned as newman's
        m_vars.compile();
        load();
        steps();
        flows();
        compileServerMetrics(m_s, m_plan, *this);
        if (allSteps()) // rules name steps
            compileBreaker(m_s, m_plan, *this);
        httpVersion();
        if (allSteps()) // after the load and the protocol: a rendezvous is weighed against the users
            checkStepOptions(m_s, m_plan, *this);
        thresholds();
        if (std::string why; !m_s.schedule().empty() && !parseSchedule(m_s.schedule(), why))
            error("schedule", why);
        if (!m_errors.empty())
            return std::nullopt;
        return std::move(m_plan);
    }

private:
    void error(std::string field, std::string message) override
    {
        m_errors.push_back({std::move(field), std::move(message)});
    }
    const v1::Scenario& scenario() const override { return m_s; }
    const PlanOptions& options() const override { return m_o; }
    const ScenarioPlan& plan() const override { return m_plan; }

    // The file's content, or the inline text when given; false when neither reads.
    bool fileOrInline(const std::string& file, const std::string& inlined, const std::string& field,
                      std::string& out) override
    {
        out = inlined;
        if (!out.empty() || file.empty())
            return true;
        std::string why;
        readsFile(pathUnder(m_o.baseDir, file));
        if (!readWholeFile(pathUnder(m_o.baseDir, file), out, why)) {
            error(field, "cannot read \"" + file + "\": " + why);
            return false;
        }
        return true;
    }

    void readsFile(const std::string& path) override { m_plan.inputFiles.push_back(path); }

    // One TLS context per verification choice, made when a step first needs it.
    std::shared_ptr<TlsContext> tlsContext(bool verify) override
    {
        auto& slot = verify ? m_tlsVerify : m_tlsNoVerify;
        if (slot || m_tlsFailed)
            return slot;
        const auto& t = m_s.tls();
        TlsOptions o;
        o.verify = verify;
        o.resume = !t.no_resumption();
        o.ownRecords = t.own_records() && !t.openssl_records();
        o.alpn = m_s.http() == v1::HTTP_1_1 ? std::vector<std::string>{"http/1.1"}
                 : m_s.http() == v1::HTTP_2 ? std::vector<std::string>{"h2"}
                                            : std::vector<std::string>{"h2", "http/1.1"};
        if (!fileOrInline(t.ca_file(), t.ca_pem(), "tls.ca_file", o.caPem) ||
            !fileOrInline(t.cert_file(), t.cert_pem(), "tls.cert_file", o.certPem) ||
            !fileOrInline(t.key_file(), t.key_pem(), "tls.key_file", o.keyPem)) {
            m_tlsFailed = true;
            return nullptr;
        }
        std::string err;
        slot = TlsContext::create(o, err);
        if (!slot) {
            error(t.ca_file().empty() && t.ca_pem().empty() ? "tls.cert_file" : "tls", err);
            m_tlsFailed = true;
        }
        return slot;
    }

    bool compileText(const std::string& text, const std::string& field, Template& out) override
    {
        std::string err;
        if (!out.compile(
                text, [this](std::string_view n) { return m_vars.resolve(n); }, err)) {
            error(field, err);
            return false;
        }
        return true;
    }

    // Every step compiled (a replay's are one per server): rules and thresholds may name them.
    bool allSteps() const { return m_replaying ? bool(m_plan.load) : int(m_plan.steps.size()) == m_s.steps_size(); }

    void steps()
    {
        if (m_replaying) {
            if (m_s.steps_size() != 1)
                error("steps", "a replay step is the scenario's only step");
            else
                m_replay.compile(m_s.steps(0), "steps[0]", m_plan);
            return;
        }
        if (m_s.steps_size() == 0)
            error("steps", "at least one step is needed");
        if (m_s.steps_size() > int(kMaxSteps)) {
            error("steps",
                  "at most " + std::to_string(kMaxSteps) + " steps (got " + std::to_string(m_s.steps_size()) + ")");
            return;
        }
        for (int i = 0; i < m_s.steps_size(); ++i) {
            const auto& st = m_s.steps(i);
            const std::string field = "steps[" + std::to_string(i) + "]";
            PlannedStep ps;
            if ((st.has_websocket() ? m_ws.compile(st, field, ps)
                 : st.has_sse()     ? m_sse.compile(st, field, ps)
                 : st.has_grpc()    ? m_grpc.compile(st, field, ps)
                                    : m_http.compile(st, field, ps)) &&
                thinkTime(st, field + ".thinkTime", ps.think) && compileChecks(st, field, m_plan, *this, ps) &&
                compileScripts(st, field, m_plan, *this, ps) && compileStepOptions(st, field, *this, m_plan, ps)) {
                lateRendering(ps);
                m_plan.steps.push_back(std::move(ps));
            }
        }
    }

    // A step that uses extracted names is rendered when sent; the other
    // per-iteration values it reads are saved when its iteration starts.
    void lateRendering(PlannedStep& ps)
    {
        std::vector<VarRef> refs = ps.head.references();
        const auto add = [&](const Template& t) {
            refs.insert(refs.end(), t.references().begin(), t.references().end());
        };
        add(ps.body);
        add(ps.basicAuth);
        if (ps.digest)
            for (const Template& t : ps.digest->fields)
                add(t);
        for (const auto& h : ps.h2Headers)
            add(h.second);
        if (ps.ws)
            for (const Template& t : ps.ws->messages)
                add(t);
        if (ps.callStream)
            for (const Template& t : ps.callStream->messages)
                add(t);
        for (const VarRef& r : refs)
            if (m_plan.variables[r.variable].extracted &&
                std::find(ps.extracted.begin(), ps.extracted.end(), r.variable) == ps.extracted.end())
                ps.extracted.push_back(r.variable);
        if (ps.extracted.empty())
            return;
        for (const std::uint16_t v : ps.extracted) // a default is read when its iteration starts, as the rest
            if (m_plan.variables[v].fallback >= 0)
                refs.push_back(m_plan.variables[v].fallbackRef());
        for (const VarRef& r : refs) {
            const bool known = std::any_of(m_plan.savedRefs.begin(), m_plan.savedRefs.end(), [&](const VarRef& k) {
                return k.variable == r.variable && k.column == r.column;
            });
            if (!m_plan.variables[r.variable].extracted && !known)
                m_plan.savedRefs.push_back(r);
        }
    }

    // Cookies and redirects, for the scenario's HTTP steps.
    void flows()
    {
        for (auto& st : m_plan.steps) {
            if (std::any_of(st.extracted.begin(), st.extracted.end(),
                            [&](std::uint16_t v) { return m_plan.variables[v].shared; }))
                st.hooks.push_back(FlowHookKind::SharedRead); // first: the values are read before anything waits
            if (st.scripts && (st.scripts->pre.find("shared") != std::string::npos ||
                               st.scripts->test.find("shared") != std::string::npos))
                m_plan.sharedData = true; // pm.shared (or a name like it: a store kept for nothing is cheap)
            if (st.rendezvousUsers)
                st.hooks.push_back(FlowHookKind::Rendezvous);
            if (!m_plan.groups.empty()) // a step of no group ends the group before it
                st.hooks.push_back(FlowHookKind::Group);
        }
        m_plan.cookies = m_s.cookies();
        m_plan.followRedirects = m_s.follow_redirects();
        if (m_plan.followRedirects > kMaxRedirects)
            error("followRedirects", "at most " + std::to_string(kMaxRedirects) + " hops (got " +
                                         std::to_string(m_plan.followRedirects) + ")");
        if (m_replaying && (m_plan.cookies || m_plan.followRedirects))
            error(m_plan.cookies ? "cookies" : "followRedirects",
                  "a replay sends the recorded requests as they were (their cookies, each redirect as recorded)");
        for (auto& st : m_plan.steps) {
            if (st.grpc)
                continue;
            if (m_plan.cookies || m_plan.followRedirects)
                st.needs |= kNeedsHeaders; // Set-Cookie and Location
            if (m_plan.cookies)            // a redirect's Set-Cookie is taken before it is followed
                st.hooks.push_back(FlowHookKind::Cookies);
            if (m_plan.followRedirects)
                st.hooks.push_back(FlowHookKind::Redirects);
            if (st.digest) // last: a challenge's Set-Cookie is taken before the step goes again
                st.hooks.push_back(FlowHookKind::Digest);
        }
    }

    // A duration from 0 to ThinkTime::kMax; false after reporting it.
    bool pause(const google::protobuf::Duration& d, const std::string& field, Nanos& out)
    {
        out = toNanos(d);
        if (out >= 0 && out <= ThinkTime::kMax)
            return true;
        error(field, "must be from 0 to 1h (got " + fmtDuration(d) + ")");
        return false;
    }

    // A step's think time: exactly one distribution, its durations in bounds.
    bool thinkTime(const v1::Step& st, const std::string& field, ThinkTime& t)
    {
        if (!st.has_think_time())
            return true;
        const v1::ThinkTime& in = st.think_time();
        const int kinds =
            int(in.has_fixed()) + int(in.uniform_size() > 0) + int(in.has_normal()) + int(in.has_exponential());
        if (kinds != 1) {
            error(field, kinds ? "give one distribution, not " + std::to_string(kinds)
                               : "give one of fixed, uniform, normal or exponential");
            return false;
        }
        if (in.has_fixed()) {
            t.kind = ThinkTime::Kind::Fixed;
            return pause(in.fixed(), field + ".fixed", t.a);
        }
        if (in.uniform_size()) {
            t.kind = ThinkTime::Kind::Uniform;
            if (in.uniform_size() != 2) {
                error(field + ".uniform", "give [min, max] (got " + std::to_string(in.uniform_size()) + " values)");
                return false;
            }
            if (!pause(in.uniform(0), field + ".uniform[0]", t.a) || !pause(in.uniform(1), field + ".uniform[1]", t.b))
                return false;
            if (t.b < t.a)
                error(field + ".uniform", "the maximum is below the minimum");
            return t.b >= t.a;
        }
        if (in.has_normal()) {
            t.kind = ThinkTime::Kind::Normal;
            if (!in.normal().has_mean()) {
                error(field + ".normal.mean", "a mean is needed");
                return false;
            }
            return pause(in.normal().mean(), field + ".normal.mean", t.a) &&
                   pause(in.normal().sd(), field + ".normal.sd", t.b);
        }
        t.kind = ThinkTime::Kind::Exponential;
        if (!pause(in.exponential().mean(), field + ".exponential.mean", t.a))
            return false;
        if (t.a == 0)
            error(field + ".exponential.mean", "must be positive");
        return t.a > 0;
    }

    // W3C's traceparent: the iteration's trace id, a span id of this request's own.
    Template traceparent() override
    {
        Template value;
        const std::string text = "00-${$traceId}-${$spanId:" + std::to_string(m_spans++) + "}-01";
        compileField(text, "trace", WireField::HeaderValue, value);
        return value;
    }

    void httpVersion()
    {
        if (m_s.streams() > 1000)
            error("streams", "at most 1000 streams per connection (got " + std::to_string(m_s.streams()) + ")");
        m_plan.streams = std::max(1u, m_s.streams());
        const bool allTls =
            !m_plan.steps.empty() && std::all_of(m_plan.steps.begin(), m_plan.steps.end(),
                                                 [](const PlannedStep& p) { return bool(p.endpoint.tls); });
        const bool anyGrpc =
            std::any_of(m_s.steps().begin(), m_s.steps().end(), [](const v1::Step& st) { return st.has_grpc(); });
        if (anyGrpc && m_s.http() == v1::HTTP_1_1)
            error("http", "gRPC calls need HTTP/2: leave http at auto or set HTTP_2");
        switch (anyGrpc ? v1::HTTP_2 : m_s.http()) {
        case v1::HTTP_1_1:
            m_plan.http = HttpVersion::Http1;
            break;
        case v1::HTTP_2:
            m_plan.http = HttpVersion::Http2;
            break;
        default:
            // auto: https everywhere and a server that settles on h2 by ALPN
            m_plan.http = HttpVersion::Http1;
            m_plan.alpnDecides = allTls; // the resolve step asks the server (resolve/targets.h)
            break;
        }
        if (m_plan.http == HttpVersion::Http2)
            for (const auto& st : m_plan.steps)
                if (st.runtimeOrigin)
                    error(st.targetField, "a host known only as the request goes (set by a script or taken from an "
                                          "answer) needs HTTP/1.1: set http to HTTP_1_1 or write the host out");
        // the distinct servers: an HTTP/2 connection carries the streams of the steps to one of them
        std::vector<const Endpoint*> servers;
        for (auto& st : m_plan.steps) {
            const auto same = [&](const Endpoint* e) {
                return e->sameAs(st.endpoint) && bool(e->tls) == bool(st.endpoint.tls) &&
                       e->serverName == st.endpoint.serverName;
            };
            const auto it = std::find_if(servers.begin(), servers.end(), same);
            st.endpointIndex = std::uint32_t(it - servers.begin());
            if (it == servers.end())
                servers.push_back(&st.endpoint);
        }
        m_plan.endpointCount = std::max<std::uint32_t>(1, std::uint32_t(servers.size()));
        if (m_plan.http == HttpVersion::Http1 && m_plan.streams > 1 && !m_plan.alpnDecides)
            error("streams", kStreamsAreHttp2);
    }

    // Threads, and connections (arrivals) or the peak of users (users).
    void sizing()
    {
        const std::uint32_t hw = std::max(1u, std::thread::hardware_concurrency());
        m_plan.threads = m_s.threads() ? m_s.threads() : hw;
        if (m_s.threads() > 1024)
            error("threads", "at most 1024");
        if (m_s.connections() > 1000000)
            error("connections", "at most 1,000,000");
        // a replay's executor comes with its traffic (later): its pool is connections, as arrivals'
        m_plan.connections =
            m_plan.load ? m_plan.load->pool(m_s.connections()) : (m_s.connections() ? m_s.connections() : 50);
        m_plan.threads = std::max(1u, std::min(m_plan.threads, m_plan.connections));
    }

    void load()
    {
        m_plan.trace = m_s.trace();
        if (!m_s.verdict().empty() && !m_plan.testsVerdict)
            error("verdict", "\"" + m_s.verdict() + "\" is not a verdict: \"tests\" (as newman's exit code) or none");
        // the stress tag is decided first: steps need it
        if (!m_s.stress_tag().disabled()) {
            m_plan.stressHeader = m_s.stress_tag().header().empty() ? "X-Stress-Tag" : m_s.stress_tag().header();
            if (!isHttpToken(m_plan.stressHeader))
                error("stressTag.header", "\"" + m_plan.stressHeader + "\" is not a header name");
            m_plan.stressValue = stressTagValue(m_plan.stressHeader, m_plan.runId);
        }
        if (isReplay(m_s)) {
            replayLoad();
            return;
        }
        CompiledLoad l = compileLoad(m_s, [this](const std::string& f, const std::string& m) { error(f, m); });
        if (!l.executor)
            return;
        m_plan.load = std::move(l.executor);
        m_plan.duration = l.duration;
        sizing();
        connectTimeout();
    }

    void connectTimeout()
    {
        if (m_s.has_connect_timeout()) {
            m_plan.connectTimeout = toNanos(m_s.connect_timeout());
            if (m_plan.connectTimeout <= 0)
                error("connectTimeout", "must be positive");
            else
                longest(m_plan.connectTimeout, "connectTimeout", RunLimits::kTimeoutSeconds);
        }
    }

    bool longest(Nanos d, const std::string& field, std::int64_t maxSeconds)
    {
        return withinLongest(d, field, maxSeconds, [this](const std::string& f, const std::string& m) { error(f, m); });
    }

    // The traffic is the load: its duration comes with it unless given.
    void replayLoad()
    {
        m_replaying = true;
        if (m_s.has_load())
            error("load", "a replay paces itself by the traffic's own timestamps: leave load out");
        if (m_s.has_duration()) {
            m_plan.duration = toNanos(m_s.duration());
            if (m_plan.duration <= 0)
                error("duration", "must be positive (got " + fmtDuration(m_s.duration()) + ")");
        }
        sizing();
        connectTimeout();
    }

    static std::string fmtDuration(const google::protobuf::Duration& d) { return fmt(double(toNanos(d)) / 1e9) + "s"; }

    void thresholds()
    {
        for (int i = 0; i < m_s.thresholds_size(); ++i) {
            std::string err;
            auto t = Threshold::parse(m_s.thresholds(i).expr(), err);
            const std::vector<std::string> names = m_plan.measuredNames(); // steps, and "group NAME"s
            const bool known = !t || t->step.empty() || !allSteps() ||     // else a step's own fault says why
                               std::find(names.begin(), names.end(), t->step) != names.end();
            if (!t)
                error("thresholds[" + std::to_string(i) + "].expr", err);
            else if (!knownServerMetric(*t, m_plan, "thresholds[" + std::to_string(i) + "].expr", *this))
                continue;
            else if (!known)
                error("thresholds[" + std::to_string(i) + "].expr", "no step is named \"" + t->step + "\"");
            else
                m_plan.thresholds.push_back(*t);
        }
    }

    const v1::Scenario& m_s;
    const PlanOptions& m_o;
    std::shared_ptr<TlsContext> m_tlsVerify, m_tlsNoVerify;
    bool m_tlsFailed = false;
    std::vector<PlanError>& m_errors;
    ScenarioPlan m_plan;
    VariableCompiler m_vars;
    GrpcStepCompiler m_grpc;
    HttpStepCompiler m_http;
    WsStepCompiler m_ws;
    SseStepCompiler m_sse;
    ReplayStepCompiler m_replay;
    bool m_replaying = false;  // the scenario replays traffic: its executor comes with the traffic (steps())
    std::uint32_t m_spans = 0; // span id variables made so far, one per request of a traced scenario
};

} // namespace

std::optional<ScenarioPlan> compileScenario(const v1::Scenario& scenario, const PlanOptions& options,
                                            std::vector<PlanError>& errors)
{
    if (isPlan(scenario))
        return compilePlan(scenario, options, errors);
    return Compiler(scenario, options, errors).run();
}

std::map<std::string, std::string> variableSamples(const v1::Scenario& scenario, const PlanOptions& options)
{
    std::vector<PlanError> ignored;
    return Compiler(scenario, options, ignored).samples();
}

std::vector<MeasuredName> ScenarioPlan::measured() const
{
    std::vector<MeasuredName> out;
    for (std::size_t i = 0; i < steps.size(); ++i)
        out.push_back({steps[i].name, MeasuredName::Kind::Step, std::uint32_t(i), 1});
    for (std::size_t g = 0; g < groups.size(); ++g)
        out.push_back({"group " + groups[g], MeasuredName::Kind::Group, std::uint32_t(g), 1});
    for (std::size_t k = 0; k < scenarios.size() && k < places.size(); ++k)
        out.push_back({scenarios[k].name, MeasuredName::Kind::Scenario, places[k].firstStep,
                       std::uint32_t(scenarios[k].steps.size())});
    return out;
}

std::string newRunId()
{
    std::random_device rd;
    const std::uint64_t v = (std::uint64_t(rd()) << 32) ^ rd();
    char buf[32];
    std::snprintf(buf, sizeof buf, "st-%016llx", static_cast<unsigned long long>(v));
    return buf;
}

} // namespace stampede
