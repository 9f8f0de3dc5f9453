#include "notify.h"

#include "core/text.h"
#include "core/url.h"
#include "net/httpexchange.h"

#include "stampede/v1/scenario.pb.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace stampede {

namespace {

constexpr int kTries = 3;

struct KindName
{
    NotifyTarget::Kind kind;
    const char* name;
};
constexpr KindName kKinds[] = {{NotifyTarget::Kind::Plain, "plain"},       {NotifyTarget::Kind::Slack, "slack"},
                               {NotifyTarget::Kind::Feishu, "feishu"},     {NotifyTarget::Kind::Feishu, "lark"},
                               {NotifyTarget::Kind::DingTalk, "dingtalk"}, {NotifyTarget::Kind::WeCom, "wecom"}};

bool eventBit(const std::string& name, unsigned& bit)
{
    bit = name == "start"       ? unsigned(kNotifyStart)
          : name == "breaker"   ? kNotifyBreaker
          : name == "threshold" ? kNotifyThreshold
          : name == "end"       ? unsigned(kNotifyEnd)
                                : 0u;
    return bit != 0;
}

bool checkUrl(const std::string& url, std::string& error)
{
    std::string why;
    const auto u = Url::parse(url, why);
    if (!u) {
        error = "\"" + shownNotifyUrl(url) + "\" is not a URL: " + why;
        return false;
    }
    if (u->scheme != "http" && u->scheme != "https") {
        error = "\"" + shownNotifyUrl(url) + "\" is not an http:// or https:// URL";
        return false;
    }
    return true;
}

std::string base64(std::string_view in)
{
    std::string out;
    appendBase64(out, in);
    return out;
}

std::string hmacSha256(std::string_view key, std::string_view data)
{
    unsigned char mac[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(),
         mac, &length);
    return std::string(reinterpret_cast<const char*>(mac), length);
}

std::string number(double v, int decimals)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// ${name} replaced by the scenario's constant of that name; false with `error` naming one it lacks.
bool withConstants(const v1::Scenario& scenario, const std::string& text, std::string& out, std::string& error)
{
    out.clear();
    for (std::size_t at = 0;;) {
        const std::size_t open = text.find("${", at);
        if (open == std::string::npos) {
            out += text.substr(at);
            return true;
        }
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) {
            error = "unclosed ${";
            return false;
        }
        const std::string name = text.substr(open + 2, close - open - 2);
        const v1::Variable* found = nullptr;
        for (const v1::Variable& v : scenario.variables())
            if (v.name() == name && v.has_constant())
                found = &v;
        if (!found) {
            error = "unknown variable ${" + name + "}"; // a notification takes constants and an environment's values
            return false;
        }
        out += text.substr(at, open - at) + found->constant().value();
        at = close + 1;
    }
}

std::string figuresText(const NotifyMessage& m)
{
    return std::to_string(m.requests) + " requests, " + number(m.rate, 1) + "/s, errors " +
           number(m.errorRate * 100, 2) + " %, p50 " + number(m.p50Ms, 1) + " ms, p99 " + number(m.p99Ms, 1) + " ms";
}

// A message about the run that `s` sums up: its ids, verdict and key figures.
void withFigures(NotifyMessage& m, const char* event, const RunSummary& s, const std::string& report)
{
    m.event = event;
    m.runId = s.runId;
    m.scenario = s.scenario;
    m.report = report;
    m.figures = true;
    m.requests = s.total.requests;
    m.errors = s.total.errors;
    m.rate = s.total.rate;
    m.errorRate = s.total.requests ? double(s.total.errors) / double(s.total.requests) : 0;
    m.p50Ms = s.total.latency.p50;
    m.p99Ms = s.total.latency.p99;
    m.durationS = s.durationS;
    m.engines = s.engines.size();
    m.verdict = verdictText(s);
    m.status = s.status;
    m.passed = s.passed;
}

std::string head(const std::string& runId, const std::string& scenario)
{
    return "Stampede: run " + runId + " of \"" + scenario + "\"";
}

// What a platform's answer says beside its status: DingTalk and WeCom {"errcode": 0}, Feishu {"code": 0} (or the
// older {"StatusCode": 0}). Empty when it took the message.
std::string refusal(NotifyTarget::Kind kind, const std::string& body)
{
    if (kind == NotifyTarget::Kind::Plain || kind == NotifyTarget::Kind::Slack)
        return {};
    google::protobuf::Struct o;
    if (!google::protobuf::util::JsonStringToMessage(body, &o).ok())
        return {}; // no JSON: its status says
    for (const char* field : {"errcode", "code", "StatusCode"}) {
        const auto it = o.fields().find(field);
        if (it == o.fields().end() || it->second.kind_case() != google::protobuf::Value::kNumberValue)
            continue;
        if (it->second.number_value() == 0)
            return {};
        std::string why;
        for (const char* message : {"errmsg", "msg", "StatusMessage"})
            if (const auto m = o.fields().find(message); m != o.fields().end() && why.empty())
                why = m->second.string_value();
        return std::string(field) + " " + number(it->second.number_value(), 0) + (why.empty() ? "" : ": " + why);
    }
    return {};
}

} // namespace

bool notifyKind(const std::string& name, NotifyTarget::Kind& out)
{
    for (const KindName& k : kKinds)
        if (name == k.name) {
            out = k.kind;
            return true;
        }
    return false;
}

const char* notifyKindName(NotifyTarget::Kind kind)
{
    for (const KindName& k : kKinds)
        if (k.kind == kind)
            return k.name;
    return "plain";
}

std::string shownNotifyUrl(const std::string& url)
{
    const std::size_t cut = url.find_first_of("?#");
    return cut == std::string::npos ? url : url.substr(0, cut);
}

bool parseNotifySpec(const std::string& text, NotifyTarget& out, std::string& error)
{
    out = {};
    std::string rest = text;
    // the options at the end: ",secret=…" and ",on=…" (a robot's URL holds no comma)
    for (;;) {
        const std::size_t comma = rest.rfind(',');
        if (comma == std::string::npos)
            break;
        const std::string option = rest.substr(comma + 1);
        if (option.rfind("secret=", 0) == 0) {
            out.secret = option.substr(7);
        } else if (option.rfind("on=", 0) == 0) {
            out.on = 0;
            const std::string list = option.substr(3);
            for (std::size_t from = 0; from <= list.size();) {
                const std::size_t plus = std::min(list.find('+', from), list.size());
                const std::string name = list.substr(from, plus - from);
                from = plus + 1;
                unsigned bit = 0;
                if (!eventBit(name, bit)) {
                    error = "--notify: on=" + option.substr(3) + ": \"" + name +
                            "\" is none of start, breaker, threshold, end";
                    return false;
                }
                out.on |= bit;
            }
        } else {
            break;
        }
        rest.resize(comma);
    }
    if (const std::size_t eq = rest.find('='); eq != std::string::npos && rest.find("://") > eq) {
        const std::string kind = rest.substr(0, eq);
        if (!notifyKind(kind, out.kind)) {
            error = "--notify: \"" + kind + "\" is none of plain, slack, feishu, lark, dingtalk, wecom";
            return false;
        }
        rest = rest.substr(eq + 1);
    }
    out.url = rest;
    if (!checkUrl(out.url, error)) {
        error = "--notify: " + error;
        return false;
    }
    return true;
}

bool scenarioNotifyTargets(const v1::Scenario& scenario, std::vector<NotifyTarget>& out, std::string& error)
{
    for (int i = 0; i < scenario.notify_size(); ++i) {
        const v1::Notify& n = scenario.notify(i);
        const std::string field = "notify[" + std::to_string(i) + "]";
        NotifyTarget t;
        if (!n.kind().empty() && !notifyKind(n.kind(), t.kind)) {
            error = field + ".kind: \"" + n.kind() + "\" is none of plain, slack, feishu, lark, dingtalk, wecom";
            return false;
        }
        if (!withConstants(scenario, n.url(), t.url, error) || !checkUrl(t.url, error)) {
            error = field + ".url: " + error;
            return false;
        }
        if (!withConstants(scenario, n.secret(), t.secret, error)) {
            error = field + ".secret: " + error;
            return false;
        }
        if (n.on_size())
            t.on = 0;
        for (const std::string& name : n.on()) {
            unsigned bit = 0;
            if (!eventBit(name, bit)) {
                error = field + ".on: \"" + name + "\" is none of start, breaker, threshold, end";
                return false;
            }
            t.on |= bit;
        }
        out.push_back(std::move(t));
    }
    return true;
}

NotifyMessage notifyStart(const ScenarioPlan& plan, std::size_t engines, const std::string& report)
{
    NotifyMessage m;
    m.event = "start";
    m.runId = plan.runId;
    m.scenario = plan.name;
    m.engines = engines;
    m.report = report;
    m.text =
        head(m.runId, m.scenario) + " started on " + std::to_string(engines) + (engines == 1 ? " engine" : " engines");
    return m;
}

NotifyMessage notifyBreaker(const ScenarioPlan& plan, const RunEvent& event)
{
    NotifyMessage m;
    m.event = "breaker";
    m.runId = plan.runId;
    m.scenario = plan.name;
    m.detail = event.detail;
    m.text = head(m.runId, m.scenario) + ": breaker at " + number(event.atS, 0) + " s: " + event.detail;
    return m;
}

NotifyMessage notifyThresholds(const RunSummary& summary, const std::string& report)
{
    NotifyMessage m;
    std::string failed;
    for (const ThresholdResult& t : summary.thresholds)
        if (!t.passed)
            failed += (failed.empty() ? "" : "; ") + t.expr + " (" + measuredText(t) + ")";
    if (failed.empty())
        return m;
    withFigures(m, "threshold", summary, report);
    m.detail = failed;
    m.text = head(m.runId, m.scenario) + ": threshold failed: " + failed;
    return m;
}

NotifyMessage notifyEnd(const RunSummary& summary, const std::string& report)
{
    NotifyMessage m;
    withFigures(m, "end", summary, report);
    m.text = head(m.runId, m.scenario) + " ended: " + m.verdict + " · " + figuresText(m) +
             (report.empty() ? "" : " · report: " + report);
    return m;
}

NotifyMessage notifyTest(const std::string& scenario)
{
    NotifyMessage m;
    m.event = "test";
    m.scenario = scenario;
    m.text = "Stampede: a test notification from \"" + scenario + "\"";
    return m;
}

std::string plainNotifyJson(const NotifyMessage& m)
{
    std::string j = "{\"event\": " + jsonString(m.event) + ", \"run_id\": " + jsonString(m.runId) +
                    ", \"scenario\": " + jsonString(m.scenario) + ", \"text\": " + jsonString(m.text);
    if (!m.verdict.empty())
        j += ", \"verdict\": " + jsonString(m.verdict) + ", \"status\": " + jsonString(m.status) +
             ", \"passed\": " + (m.passed ? "true" : "false");
    if (!m.detail.empty())
        j += ", \"detail\": " + jsonString(m.detail);
    if (m.engines)
        j += ", \"engines\": " + std::to_string(m.engines);
    if (m.figures)
        j += ", \"figures\": {\"requests\": " + std::to_string(m.requests) +
             ", \"errors\": " + std::to_string(m.errors) + ", \"rate\": " + number(m.rate, 3) +
             ", \"error_rate\": " + number(m.errorRate, 6) + ", \"p50_ms\": " + number(m.p50Ms, 3) +
             ", \"p99_ms\": " + number(m.p99Ms, 3) + ", \"duration_s\": " + number(m.durationS, 3) + "}";
    if (!m.report.empty())
        j += ", \"report\": " + jsonString(m.report);
    return j + "}";
}

NotifyPost notifyPost(const NotifyTarget& target, const NotifyMessage& message, std::int64_t unixMs)
{
    NotifyPost p{target.url, {}};
    const std::string text = jsonString(message.text);
    switch (target.kind) {
    case NotifyTarget::Kind::Plain:
        p.body = plainNotifyJson(message);
        break;
    case NotifyTarget::Kind::Slack:
        p.body = "{\"text\": " + text + "}";
        break;
    case NotifyTarget::Kind::Feishu: {
        p.body = "{\"msg_type\": \"text\", \"content\": {\"text\": " + text + "}";
        if (!target.secret.empty()) { // seconds; the key is what is signed, over nothing
            const std::string ts = std::to_string(unixMs / 1000);
            p.body += ", \"timestamp\": " + jsonString(ts) +
                      ", \"sign\": " + jsonString(base64(hmacSha256(ts + "\n" + target.secret, "")));
        }
        p.body += "}";
        break;
    }
    case NotifyTarget::Kind::DingTalk:
        p.body = "{\"msgtype\": \"text\", \"text\": {\"content\": " + text + "}}";
        if (!target.secret.empty()) { // milliseconds, in the query
            const std::string ts = std::to_string(unixMs);
            p.url += std::string(p.url.find('?') == std::string::npos ? "?" : "&") + "timestamp=" + ts +
                     "&sign=" + percentEncode(base64(hmacSha256(target.secret, ts + "\n" + target.secret)));
        }
        break;
    case NotifyTarget::Kind::WeCom:
        p.body = "{\"msgtype\": \"text\", \"text\": {\"content\": " + text + "}}";
        break;
    }
    return p;
}

bool postNotification(const NotifyTarget& target, const NotifyMessage& message, std::int64_t unixMs, std::string& said,
                      Nanos timeout)
{
    const NotifyPost p = notifyPost(target, message, unixMs);
    HttpExchangeRequest rq;
    rq.method = "POST";
    rq.url = p.url;
    rq.headers = {{"Content-Type", "application/json; charset=utf-8"}, {"User-Agent", "stampede/" STAMPEDE_VERSION}};
    rq.body = p.body;
    rq.timeout = timeout;
    const HttpExchangeResult r = exchange(rq);
    if (!r.ok) {
        said = r.error;
        return false;
    }
    said = "HTTP " + std::to_string(r.status);
    if (r.status < 200 || r.status >= 300) {
        if (!r.body.empty())
            said += ": " + r.body.substr(0, std::min<std::size_t>(r.body.find('\n'), 160));
        return false;
    }
    const std::string refused = refusal(target.kind, r.body);
    if (!refused.empty())
        said += ", " + refused;
    return refused.empty();
}

Notifier::Notifier(std::vector<NotifyTarget> targets, ClockPtr clock)
    : m_targets(std::move(targets)), m_clock(std::move(clock)), m_lanes(m_targets.size())
{
    m_start = m_clock->now();
}

Notifier::~Notifier()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
        for (Lane& lane : m_lanes)
            lane.queue.clear();
    }
    m_wake.notify_all();
    for (Lane& lane : m_lanes)
        if (lane.thread.joinable())
            lane.thread.join();
}

bool Notifier::open(const ScenarioPlan& plan, std::string&)
{
    m_plan = &plan;
    for (std::size_t t = 0; t < m_lanes.size(); ++t)
        m_lanes[t].thread = std::thread([this, t] { loop(t); });
    return true;
}

void Notifier::started(const std::vector<std::string>& agents)
{
    m_start = m_clock->now();
    post(kNotifyStart, notifyStart(*m_plan, agents.size(), m_report));
}

void Notifier::event(const RunEvent& event)
{
    if (event.kind == "breaker")
        post(kNotifyBreaker, notifyBreaker(*m_plan, event));
}

bool Notifier::idle() const
{
    return std::all_of(m_lanes.begin(), m_lanes.end(), [](const Lane& l) { return l.queue.empty() && !l.busy; });
}

bool Notifier::finish(const RunSummary& summary, std::string&)
{
    if (NotifyMessage failed = notifyThresholds(summary, m_report); !failed.event.empty())
        post(kNotifyThreshold, std::move(failed));
    post(kNotifyEnd, notifyEnd(summary, m_report));
    std::unique_lock lock(m_mutex);
    const Nanos until = m_clock->now() + kNotifyFinishWait;
    while (!idle() && m_clock->now() < until)
        m_wake.wait_for(lock, std::chrono::milliseconds(50));
    for (std::size_t t = 0; t < m_lanes.size(); ++t) {
        const std::string where =
            std::string(notifyKindName(m_targets[t].kind)) + " " + shownNotifyUrl(m_targets[t].url);
        for (const NotifyMessage& message : m_lanes[t].queue)
            m_undelivered.push_back("the " + message.event + " notification to " + where + " was not sent within " +
                                    std::to_string(kNotifyFinishWait / kNanosPerSecond) + " s of the run's end");
        if (m_lanes[t].busy)
            m_undelivered.push_back("a notification to " + where + " was still being tried " +
                                    std::to_string(kNotifyFinishWait / kNanosPerSecond) + " s after the run's end");
        m_lanes[t].queue.clear();
    }
    m_stop = true; // what is being tried ends with its try; nothing more is sent
    m_wake.notify_all();
    return true; // a notification is said, never the run's verdict
}

std::vector<RunEvent> Notifier::takeEvents()
{
    std::lock_guard lock(m_mutex);
    return std::exchange(m_events, {});
}

std::vector<std::string> Notifier::undelivered() const
{
    std::lock_guard lock(m_mutex);
    return m_undelivered;
}

void Notifier::post(unsigned on, NotifyMessage message)
{
    {
        std::lock_guard lock(m_mutex);
        for (std::size_t t = 0; t < m_targets.size(); ++t) {
            if (!(m_targets[t].on & on))
                continue;
            std::deque<NotifyMessage>& queue = m_lanes[t].queue;
            if (message.event == "breaker" && !queue.empty() && queue.back().event == "breaker") {
                // not yet sent: one message says them all
                NotifyMessage& waiting = queue.back();
                waiting.detail += "; " + message.detail;
                waiting.text += "; " + message.text.substr(message.text.find(": breaker") + 2);
                continue;
            }
            queue.push_back(message);
        }
    }
    m_wake.notify_all();
}

// One target's messages, one at a time, in order (a start before its end), each tried up to three times.
void Notifier::loop(std::size_t target)
{
    Lane& lane = m_lanes[target];
    const NotifyTarget& t = m_targets[target];
    const std::string where = std::string(notifyKindName(t.kind)) + " " + shownNotifyUrl(t.url);
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [&] { return m_stop || !lane.queue.empty(); });
        if (lane.queue.empty())
            return;
        const NotifyMessage message = std::move(lane.queue.front());
        lane.queue.pop_front();
        lane.busy = true;
        lock.unlock();
        bool ok = false;
        std::string said;
        for (int attempt = 1; attempt <= kTries && !ok; ++attempt) {
            ok = postNotification(t, message, wallMillis(), said); // signed as the platform's clock reads it
            const bool refused = said.rfind("HTTP 4", 0) == 0 && said.rfind("HTTP 429", 0) != 0;
            bool stopping = false;
            {
                std::lock_guard check(m_mutex);
                stopping = m_stop;
            }
            const bool last = ok || refused || attempt == kTries || stopping;
            RunEvent e;
            e.atS = double(m_clock->now() - m_start) / 1e9;
            e.kind = "notify";
            e.detail = message.event + " to " + where + ": " + (ok ? "delivered" : "not delivered") + " (" + said +
                       "), try " + std::to_string(attempt) + " of " + std::to_string(kTries) +
                       (last ? "" : "; again in " + std::to_string(attempt) + " s");
            {
                std::lock_guard events(m_mutex);
                m_events.push_back(e);
                if (!ok && last)
                    m_undelivered.push_back("the " + message.event + " notification to " + where +
                                            " was not delivered: " + said);
            }
            if (last)
                break;
            m_clock->sleepFor(attempt * kNanosPerSecond);
        }
        lock.lock();
        lane.busy = false;
        m_wake.notify_all();
    }
}

} // namespace stampede
