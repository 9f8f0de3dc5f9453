#include "replaystep.h"

#include "check/answerdiff.h"

#include "checkplan.h"

#include "core/text.h"
#include "core/textfile.h"
#include "core/url.h"
#include "core/wiretext.h"
#include "traffic/trafficcodec.h"
#include "traffic/trafficfile.h"

#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace stampede {

namespace {

// A HAR request's absolute URL made origin form, its authority kept as the host.
void originForm(TrafficRecord& r)
{
    if (r.target.rfind("http://", 0) != 0 && r.target.rfind("https://", 0) != 0)
        return;
    const std::size_t off = Url::targetOffset(r.target);
    const std::size_t hostStart = r.target.find("//") + 2;
    if (r.host.empty())
        r.host = r.target.substr(hostStart, off - hostStart);
    r.target = off < r.target.size() ? r.target.substr(off) : "/";
    if (r.target[0] != '/')
        r.target.insert(0, "/");
}

} // namespace

bool isReplay(const v1::Scenario& s)
{
    return std::any_of(s.steps().begin(), s.steps().end(), [](const v1::Step& st) { return st.has_replay(); });
}

void withoutReplayData(v1::Scenario& s)
{
    for (auto& st : *s.mutable_steps())
        if (st.has_replay())
            st.mutable_replay()->clear_data();
}

std::uint64_t plannedRequests(const ScenarioPlan& plan, std::uint32_t second)
{
    const ReplayPlan* r = plan.replay();
    return r ? r->plannedIn(second) : 0;
}

const ReplayPlan* ScenarioPlan::replay() const
{
    const auto* e = dynamic_cast<const ReplayExecutor*>(load.get());
    return e ? &e->replay() : nullptr;
}

bool ReplayStepCompiler::records(const v1::Replay& r, const std::string& field, std::vector<TrafficRecord>& out)
{
    if (!r.data().empty()) {
        if (!decodeTrafficSet(r.data(), out)) {
            m_ctx.error(field + ".data", "not a traffic set (damaged, or another kind of file)");
            return false;
        }
    } else if (!r.file().empty()) {
        std::string where, why;
        const std::vector<std::string> masks(r.mask().begin(), r.mask().end());
        TrafficImport in;
        m_ctx.readsFile(pathUnder(m_ctx.options().baseDir, r.file()));
        if (!readMaskedTrafficFile(pathUnder(m_ctx.options().baseDir, r.file()), r.format(), masks, in, where, why)) {
            m_ctx.error(field + "." + where, why);
            return false;
        }
        out = std::move(in.records);
    } else if (!r.traffic().empty() && m_ctx.options().trafficSet) {
        const std::string bytes = m_ctx.options().trafficSet(r.traffic());
        if (bytes.empty() || !decodeTrafficSet(bytes, out)) {
            m_ctx.error(field + ".traffic", bytes.empty()
                                                ? "the project has no traffic set named \"" + r.traffic() + "\""
                                                : "the traffic set \"" + r.traffic() + "\" is damaged");
            return false;
        }
    } else if (!r.traffic().empty()) {
        m_ctx.error(field + ".traffic", "\"" + r.traffic() +
                                            "\" is a project's traffic set: replay it from the project "
                                            "(stampede-cli replay PROJECT.stampede@" +
                                            r.traffic() + ", or the workbench)");
        return false;
    } else {
        m_ctx.error(field, "give the traffic: traffic (a project's set), file (an access log or HAR file) or data");
        return false;
    }
    if (out.empty() || out.size() > kMaxReplayRecords) {
        m_ctx.error(field, out.empty() ? std::string("the traffic has no request")
                                       : "at most " + std::to_string(kMaxReplayRecords) + " requests (got " +
                                             std::to_string(out.size()) + ")");
        return false;
    }
    for (TrafficRecord& t : out)
        originForm(t);
    std::stable_sort(out.begin(), out.end(),
                     [](const TrafficRecord& a, const TrafficRecord& b) { return a.atNanos < b.atNanos; });
    spreadWholeSeconds(out); // a log's seconds: their requests over the second, not at its start
    return true;
}

bool ReplayStepCompiler::options(const v1::Replay& r, const std::string& field, ReplayOptions& o)
{
    bool ok = true;
    o.speed = r.has_speed() ? r.speed() : 1;
    if (!(o.speed > 0) || o.speed > kMaxReplaySpeed) {
        m_ctx.error(field + ".speed", "must be above 0 and at most " + shortNumber(kMaxReplaySpeed) + " (got " +
                                          shortNumber(o.speed) + ")");
        ok = false;
    }
    o.amplify = r.has_amplify() ? r.amplify() : 1;
    if (o.amplify < 1 || o.amplify > kMaxAmplify) {
        m_ctx.error(field + ".amplify",
                    "must be from 1 to " + std::to_string(kMaxAmplify) + " (got " + std::to_string(r.amplify()) + ")");
        ok = false;
    }
    o.loop = r.loop();
    for (int i = 0; i < r.offsets_size(); ++i) {
        const auto& spec = r.offsets(i);
        const std::string of = field + ".offsets[" + std::to_string(i) + "]";
        const int keys = !spec.query().empty() + !spec.json_key().empty() + !spec.header().empty();
        if (keys != 1 || (spec.add() == 0) == spec.suffix().empty()) {
            m_ctx.error(of, keys != 1 ? "give one of query, jsonKey or header"
                                      : "give add (a number added to the value times the copy) or suffix");
            ok = false;
            continue;
        }
        ReplayOffset off;
        off.field = !spec.query().empty()      ? ReplayOffset::Field::Query
                    : !spec.json_key().empty() ? ReplayOffset::Field::JsonKey
                                               : ReplayOffset::Field::Header;
        off.key = !spec.query().empty() ? spec.query() : !spec.json_key().empty() ? spec.json_key() : spec.header();
        if (off.field == ReplayOffset::Field::Header)
            off.key = asciiLower(off.key);
        off.add = spec.add();
        off.suffix = spec.suffix();
        off.stressTag = m_ctx.plan().runId;
        if (const std::string why = ReplayOffset::suffixProblem(off.suffix); !why.empty()) {
            m_ctx.error(of + ".suffix", why);
            ok = false;
            continue;
        }
        off.text = std::string(!spec.query().empty()      ? "query:"
                               : !spec.json_key().empty() ? "json:"
                                                          : "header:") +
                   off.key + (off.add ? "+" + std::to_string(off.add) : "~" + off.suffix);
        o.offsets.push_back(std::move(off));
    }
    return ok;
}

bool ReplayStepCompiler::selection(const v1::Replay& r, const std::string& field, ReplaySelection& out)
{
    bool ok = true;
    for (const auto& [text, regex, name] : {std::tuple{&r.include_path(), &out.include, "includePath"},
                                            std::tuple{&r.exclude_path(), &out.exclude, "excludePath"}}) {
        std::string why;
        if (!text->empty() && !(*regex = Regex::compile(*text, why))) {
            m_ctx.error(field + "." + name, why);
            ok = false;
        }
    }
    for (const std::string& m : r.methods()) {
        if (!isHttpToken(m)) {
            m_ctx.error(field + ".methods", "\"" + m + "\" is not an HTTP method");
            ok = false;
        }
        out.methods.push_back(asciiUpper(m));
    }
    for (const std::string& text : r.statuses()) {
        std::pair<int, int> range;
        std::string why;
        if (!ReplaySelection::parseStatus(text, range, why)) {
            m_ctx.error(field + ".statuses", why);
            ok = false;
        }
        out.statuses.push_back(range);
    }
    out.samplePercent = r.has_sample() ? r.sample() : 100;
    if (!(out.samplePercent > 0) || out.samplePercent > 100) {
        m_ctx.error(field + ".sample", "a percentage above 0 and at most 100 (got " + shortNumber(r.sample()) + ")");
        ok = false;
    }
    std::map<std::string, std::string> sorted(r.set_headers().begin(), r.set_headers().end()); // a stable order
    for (const auto& [name, value] : sorted) {
        if (std::string f = headerFault(name, value); !f.empty()) {
            m_ctx.error(field + ".setHeaders[" + name + "]", f);
            ok = false;
        }
        const std::string lower = asciiLower(name);
        if (lower == "host" || lower == "content-length" || isConnectionHeader(lower)) {
            m_ctx.error(field + ".setHeaders[" + name + "]", "set by the engine (the host with rewriteHost)");
            ok = false;
        }
        out.setHeaders.emplace_back(lower, value);
    }
    for (const std::string& name : r.remove_headers()) {
        if (!isHttpToken(name)) {
            m_ctx.error(field + ".removeHeaders", "\"" + name + "\" is not a header name");
            ok = false;
        }
        out.removeHeaders.push_back(asciiLower(name));
    }
    out.host = r.rewrite_host();
    if (std::string f = fieldFault(out.host, WireField::HeaderValue);
        !f.empty() || out.host.find('/') != std::string::npos) {
        m_ctx.error(field + ".rewriteHost", "a host[:port], without a scheme or path" + (f.empty() ? "" : ": " + f));
        ok = false;
    }
    return ok;
}

// A replay's server may name the environment's or the scenario's constants ("${mock_url}", "http://${host}:8080"):
// one server for the run, so only a constant's value; anything else is refused, naming it.
bool ReplayStepCompiler::constantsIn(std::string& url, const std::string& field)
{
    std::string out;
    for (std::size_t at = 0; at < url.size();) {
        const std::size_t open = url.find("${", at);
        if (open == std::string::npos) {
            out.append(url, at, std::string::npos);
            break;
        }
        const std::size_t close = url.find('}', open);
        if (close == std::string::npos) {
            m_ctx.error(field, "unclosed ${ at offset " + std::to_string(open));
            return false;
        }
        const std::string name = url.substr(open + 2, close - open - 2);
        const v1::Variable* constant = nullptr;
        for (const v1::Variable& v : m_ctx.scenario().variables())
            if (v.name() == name && v.has_constant())
                constant = &v;
        if (!constant) {
            m_ctx.error(field, "${" + name +
                                   "} is not a constant of the environment or the scenario: a replay's server is "
                                   "one for the whole run");
            return false;
        }
        out.append(url, at, open - at).append(constant->constant().value());
        at = close + 1;
    }
    url = std::move(out);
    return true;
}

bool ReplayStepCompiler::server(const std::string& written, const std::string& field, const std::string& name,
                                PlannedStep& ps)
{
    std::string url = written;
    if (!constantsIn(url, field))
        return false;
    std::string err;
    auto parsed = Url::parse(
        url + (url.find("://") != std::string::npos && url.find('/', url.find("://") + 3) == std::string::npos ? "/"
                                                                                                               : ""),
        err);
    if (!parsed) {
        m_ctx.error(field, err);
        return false;
    }
    if (parsed->target != "/") {
        m_ctx.error(field, "write the server only, scheme://host:port, without a path: \"" + url + "\"");
        return false;
    }
    ps.endpoint = Endpoint::named(parsed->host, parsed->port); // looked up by the resolve step
    ps.targetField = field;
    if (parsed->scheme == "https") {
        ps.endpoint.tls = m_ctx.tlsContext(!m_ctx.scenario().tls().insecure());
        if (!ps.endpoint.tls)
            return false;
        ps.endpoint.serverName =
            m_ctx.scenario().tls().server_name().empty() ? parsed->host : m_ctx.scenario().tls().server_name();
    }
    ps.name = name;
    ps.method = "*";
    ps.url = url;
    ps.host = parsed->host;
    ps.port = parsed->port;
    ps.secure = parsed->scheme == "https";
    ps.h2Headers.emplace_back(":scheme", Template::literal(parsed->scheme));
    ps.h2Headers.emplace_back(":authority", Template::literal(parsed->hostHeader()));
    return true;
}

// Each request's server: its recorded host's in `hosts`, else `target`.
bool ReplayStepCompiler::servers(const v1::Step& st, const std::string& field, ScenarioPlan& plan, ReplayPlan& replay)
{
    const v1::Replay& r = st.replay();
    const std::string base = st.name().empty() ? "replay" : st.name();
    std::map<std::string, std::uint16_t> stepOfUrl;
    std::map<std::string, std::uint64_t> unmapped; // hosts without a server, for the message
    const auto stepFor = [&](const std::string& url, const std::string& f) -> int {
        if (auto it = stepOfUrl.find(url); it != stepOfUrl.end())
            return it->second;
        PlannedStep ps;
        if (!server(url, f, base, ps))
            return -1;
        ps.timeout = r.has_timeout() ? toNanos(r.timeout()) : ps.timeout;
        if (!compileChecks(st, field, plan, m_ctx, ps)) // the step's checks judge every server's answers
            return -1;
        if (r.compare_recorded()) { // each answer against its record's status
            Check c;
            c.name = "recorded status";
            c.subject = Check::Subject::RecordedStatus;
            ps.checks.push_back(std::move(c));
        }
        stepOfUrl.emplace(url, std::uint16_t(plan.steps.size()));
        plan.steps.push_back(std::move(ps));
        return int(plan.steps.size() - 1);
    };
    replay.stepOf.resize(replay.records.size());
    for (std::size_t i = 0; i < replay.records.size(); ++i) {
        const std::string& host = replay.records[i].host;
        const auto mapped = r.hosts().find(host);
        const std::string url = mapped != r.hosts().end() ? mapped->second : r.target();
        if (url.empty()) {
            ++unmapped[host.empty() ? "(no host recorded)" : host];
            continue;
        }
        const int step = stepFor(url, mapped != r.hosts().end() ? field + ".hosts[" + host + "]" : field + ".target");
        if (step < 0)
            return false;
        replay.stepOf[i] = std::uint16_t(step);
    }
    if (!unmapped.empty()) {
        std::string list;
        for (const auto& [host, n] : unmapped)
            list += (list.empty() ? "" : ", ") + host + " (" + std::to_string(n) + ")";
        m_ctx.error(field + ".target",
                    "give the server the requests go to (target), or map their hosts (hosts): " + list);
        return false;
    }
    if (plan.steps.size() > kMaxSteps) {
        m_ctx.error(field + ".hosts", "at most " + std::to_string(kMaxSteps) + " servers");
        return false;
    }
    if (plan.steps.size() > 1) // told apart in reports by their server
        for (auto& ps : plan.steps)
            ps.name = base + " " + ps.host + ":" + std::to_string(ps.port);
    return r.diff_against().empty() || secondServer(st, field, plan);
}

// --diff-against: one more step, to the second server, after every server's; its check compares the answers.
bool ReplayStepCompiler::secondServer(const v1::Step& st, const std::string& field, ScenarioPlan& plan)
{
    const v1::Replay& r = st.replay();
    auto rules = std::make_shared<AnswerDiffRules>();
    for (int i = 0; i < r.diff_ignore_size(); ++i) {
        const std::string& text = r.diff_ignore(i);
        std::string error;
        if (text.rfind("header:", 0) == 0 && text.size() > 7) {
            rules->ignoreHeaders.insert(asciiLower(text.substr(7)));
        } else if (parseDiffPath(text, error)) {
            rules->ignorePaths.push_back(text);
        } else {
            m_ctx.error(field + ".replay.diffIgnore[" + std::to_string(i) + "]", error + " or header:NAME");
            return false;
        }
    }
    if (r.has_diff_tolerance() && !(r.diff_tolerance() >= 0 && r.diff_tolerance() <= 1)) {
        m_ctx.error(field + ".replay.diffTolerance", "a share from 0 to 1 (0.01: 1 %)");
        return false;
    }
    rules->tolerance = r.has_diff_tolerance() ? r.diff_tolerance() : 0;
    const std::string base = st.name().empty() ? "replay" : st.name();
    PlannedStep second;
    if (!server(r.diff_against(), field + ".replay.diffAgainst", base + " (second)", second))
        return false;
    second.timeout = r.has_timeout() ? toNanos(r.timeout()) : second.timeout;
    second.name = base + " (second) " + second.host + ":" + std::to_string(second.port);
    Check same;
    same.name = "same as first";
    same.subject = Check::Subject::SameAsFirst;
    same.diff = std::move(rules);
    second.needs |= same.needs();
    second.checks.push_back(std::move(same));
    const auto index = int(plan.steps.size());
    for (PlannedStep& first : plan.steps) {
        first.shadow = index;
        first.needs |= kNeedsHeaders | kNeedsBody; // kept until the second answer
    }
    plan.steps.push_back(std::move(second));
    return true;
}

bool ReplayStepCompiler::compile(const v1::Step& st, const std::string& field, ScenarioPlan& plan)
{
    const std::string rf = field + ".replay";
    if (st.has_request() || st.has_grpc() || st.extract_size() || st.has_think_time()) {
        m_ctx.error(field, "a replay step sends the recorded requests as they were: no request, gRPC call, "
                           "extract or think time beside it (checks judge its answers)");
        return false;
    }
    auto replay = std::make_shared<ReplayPlan>();
    const bool optionsOk = options(st.replay(), rf, replay->options);
    ReplaySelection selection;
    const bool selectionOk = this->selection(st.replay(), rf, selection);
    if (!records(st.replay(), rf, replay->records) || !optionsOk || !selectionOk)
        return false;
    const std::size_t total = replay->records.size();
    selection.select(replay->records);
    if (replay->records.empty()) {
        m_ctx.error(rf, "none of the " + std::to_string(total) +
                            " recorded requests is selected (includePath, excludePath, methods, statuses, sample)");
        return false;
    }
    plan.newTraceIds = st.replay().new_trace_ids();
    if (std::string why;
        !st.replay().client_key().empty() && !clientsByKey(replay->records, st.replay().client_key(), why)) {
        m_ctx.error(rf + ".clientKey", why);
        return false;
    }
    if (std::string why = checkReplay(replay->records, replay->options); !why.empty()) {
        m_ctx.error(rf + ".offsets", why.rfind("--", 0) == 0 ? why.substr(2) : why);
        return false;
    }
    if (replay->options.loop && !m_ctx.scenario().has_duration()) {
        m_ctx.error(rf + ".loop", "a loop needs the scenario's duration: it replays until then");
        return false;
    }
    if (!servers(st, rf, plan, *replay))
        return false;
    selection.rewrite(replay->records); // after the servers: they are chosen by the recorded host
    const ReplaySchedule whole(replay->records, replay->options);
    if (!m_ctx.scenario().has_duration()) // the last request's second, whole
        plan.duration = (whole.lastAt() / kNanosPerSecond + 1) * kNanosPerSecond;
    const auto seconds = std::uint32_t((plan.duration + kNanosPerSecond - 1) / kNanosPerSecond);
    replay->planned.resize(seconds);
    for (std::uint32_t s = 1; s <= seconds; ++s)
        replay->planned[s - 1] = whole.plannedIn(s);
    plan.load = std::make_shared<ReplayExecutor>(std::move(replay), kReplayBacklog);
    return true;
}

} // namespace stampede
