#include "runsummary.h"

#include "plan/replaystep.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace stampede {

LatencySummary LatencySummary::of(const LatencyHistogram& h)
{
    LatencySummary l;
    l.p50 = h.percentile(50) / 1000.0;
    l.p90 = h.percentile(90) / 1000.0;
    l.p95 = h.percentile(95) / 1000.0;
    l.p99 = h.percentile(99) / 1000.0;
    l.p999 = h.percentile(99.9) / 1000.0;
    l.max = double(h.max()) / 1000.0;
    l.min = double(h.min()) / 1000.0;
    l.mean = h.mean() / 1000.0;
    return l;
}

double MetricsSummary::checkPassRate() const
{
    std::uint64_t passed = 0, judged = 0;
    for (const auto& c : checks) {
        passed += c.passed;
        judged += c.passed + c.failed;
    }
    return judged ? double(passed) / double(judged) : -1.0;
}

std::vector<MetricsSummary::CheckSummary> checkSummaries(const std::string& step, const std::vector<std::string>& names,
                                                         const StepMetrics& m)
{
    std::vector<MetricsSummary::CheckSummary> out;
    for (std::size_t k = 0; k < names.size(); ++k) {
        const CheckCount c = k < m.checks.size() ? m.checks[k] : CheckCount{};
        out.push_back({step + "/" + names[k], c.passed, c.failed,
                       c.failed && k < m.checkMessages.size() ? m.checkMessages[k] : std::string()});
    }
    return out;
}

MetricsSummary summarizeMetrics(const std::string& name, const StepMetrics& m, double seconds)
{
    MetricsSummary s;
    s.name = name;
    s.requests = m.counters.requests;
    s.errors = m.counters.errors;
    s.errorsByClass = m.counters.errorsByClass;
    s.rate = seconds > 0 ? double(m.counters.requests) / seconds : 0;
    s.messageRate = seconds > 0 ? double(m.counters.messagesReceived) / seconds : 0;
    s.late = m.counters.late;
    s.dropped = m.counters.dropped;
    s.bytesIn = m.counters.bytesIn;
    s.bytesOut = m.counters.bytesOut;
    s.latency = LatencySummary::of(m.latency);
    s.answered = m.latency.count();
    s.serviceTime = LatencySummary::of(m.serviceTime);
    s.sendLag = LatencySummary::of(m.sendLag);
    s.paced = m.sendLag.count();
    s.firstByte = LatencySummary::of(m.firstByte);
    s.firstBytes = m.firstByte.count();
    s.messageLatency = LatencySummary::of(m.messageLatency);
    s.messageReplies = m.messageLatency.count();
    const auto& c = m.counters;
    s.connects = c.connects;
    s.connectMeanMs = c.connects ? double(c.connectNanos) / double(c.connects) / 1e6 : 0;
    s.handshakes = c.handshakes;
    s.handshakesResumed = c.handshakesResumed;
    s.grpcCodes = c.grpcCodes;
    s.handshakeMeanMs = c.handshakes ? double(c.handshakeNanos) / double(c.handshakes) / 1e6 : 0;
    s.handshakeMaxMs = double(c.handshakeMaxNanos) / 1e6;
    const auto timed = [](const LatencyHistogram& h, std::uint64_t expected) {
        return h.count() && h.count() == expected ? std::optional(LatencySummary::of(h)) : std::nullopt;
    };
    s.connect = timed(m.connect, c.connects);
    s.handshake = timed(m.handshake, c.handshakes - c.handshakesResumed);
    s.resumed = timed(m.resumed, c.handshakesResumed);
    s.goaways = c.goaways;
    s.redirects = c.redirects;
    s.authChallenges = c.authChallenges;
    s.scriptRequests = c.scriptRequests;
    s.scriptRequestErrors = c.scriptRequestErrors;
    s.retriedOnIdleClose = c.retriedOnIdleClose;
    s.resentUnprocessed = c.resentUnprocessed;
    s.stray = c.stray;
    s.retries = c.retries;
    s.rendezvous = c.rendezvous;
    s.rendezvousTimeouts = c.rendezvousTimeouts;
    s.messagesSent = c.messagesSent;
    s.messagesReceived = c.messagesReceived;
    return s;
}

namespace {

std::string num(double v)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.3f", v);
    return buf;
}

std::string latencyJson(const LatencySummary& l)
{
    return "{\"p50\": " + num(l.p50) + ", \"p90\": " + num(l.p90) + ", \"p95\": " + num(l.p95) +
           ", \"p99\": " + num(l.p99) + ", \"p999\": " + num(l.p999) + ", \"max\": " + num(l.max) + "}";
}

std::string metricsJson(const MetricsSummary& m)
{
    std::string s = "\"requests\": " + std::to_string(m.requests) + ", \"errors\": " + std::to_string(m.errors) +
                    ", \"errors_by_class\": {";
    for (std::size_t i = 0; i < kErrorClassCount; ++i) {
        if (i)
            s += ", ";
        s += "\"" + std::string(errorClassName(ErrorClass(i))) + "\": " + std::to_string(m.errorsByClass[i]);
    }
    s += "}, \"error_rate_pct\": " + num(m.errorRatePct()) + ", \"rate\": " + num(m.rate) +
         ", \"late\": " + std::to_string(m.late) + ", \"dropped\": " + std::to_string(m.dropped) +
         ", \"retried_on_idle_close\": " + std::to_string(m.retriedOnIdleClose) +
         ", \"resent_unprocessed\": " + std::to_string(m.resentUnprocessed) +
         ", \"stray_answers\": " + std::to_string(m.stray) + ", \"retries\": " + std::to_string(m.retries) +
         ", \"rendezvous\": " + std::to_string(m.rendezvous) +
         ", \"rendezvous_timeouts\": " + std::to_string(m.rendezvousTimeouts) +
         ", \"messages_sent\": " + std::to_string(m.messagesSent) +
         ", \"messages_received\": " + std::to_string(m.messagesReceived) +
         ", \"bytes_in\": " + std::to_string(m.bytesIn) + ", \"bytes_out\": " + std::to_string(m.bytesOut) +
         ",\n    \"latency_ms\": " + latencyJson(m.latency) +
         ",\n    \"service_time_ms\": " + latencyJson(m.serviceTime) +
         (m.paced ? ",\n    \"send_lag_ms\": " + latencyJson(m.sendLag) : std::string()) +
         (m.firstBytes ? ",\n    \"first_byte_ms\": " + latencyJson(m.firstByte) : std::string()) +
         (m.messageReplies ? ",\n    \"message_latency_ms\": " + latencyJson(m.messageLatency) : std::string()) +
         ",\n    \"connections\": {\"opened\": " + std::to_string(m.connects) +
         ", \"connect_mean_ms\": " + num(m.connectMeanMs) + ", \"tls_handshakes\": " + std::to_string(m.handshakes) +
         ", \"tls_resumed\": " + std::to_string(m.handshakesResumed) +
         ", \"tls_handshake_mean_ms\": " + num(m.handshakeMeanMs) +
         ", \"tls_handshake_max_ms\": " + num(m.handshakeMaxMs) + ", \"http2_goaways\": " + std::to_string(m.goaways) +
         (m.connect ? ",\n      \"connect_ms\": " + latencyJson(*m.connect) : std::string()) +
         (m.handshake ? ",\n      \"tls_full_handshake_ms\": " + latencyJson(*m.handshake) : std::string()) +
         (m.resumed ? ",\n      \"tls_resumed_handshake_ms\": " + latencyJson(*m.resumed) : std::string()) + "}";
    // gRPC statuses other than OK, by name; only the codes seen
    s += ",\n    \"grpc_status\": {";
    bool first = true;
    for (std::size_t k = 1; k < kGrpcCodeCount; ++k) {
        if (!m.grpcCodes[k])
            continue;
        s += std::string(first ? "" : ", ") + "\"" + grpcCodeName(int(k)) + "\": " + std::to_string(m.grpcCodes[k]);
        first = false;
    }
    s += "}, \"redirects\": " + std::to_string(m.redirects) +
         ", \"auth_challenges\": " + std::to_string(m.authChallenges) +
         ", \"script_requests\": " + std::to_string(m.scriptRequests) +
         ", \"script_request_errors\": " + std::to_string(m.scriptRequestErrors);
    if (!m.server.empty()) { // the target's own metrics: the run's mean of each
        s += ",\n    \"server\": {";
        bool firstServer = true;
        for (const auto& [name, value] : m.server) {
            s += std::string(firstServer ? "" : ", ") + jsonString(name) + ": " + num(value);
            firstServer = false;
        }
        s += "}";
    }
    s += ",\n    \"checks\": {";
    for (std::size_t k = 0; k < m.checks.size(); ++k)
        s += std::string(k ? ", " : "") + jsonString(m.checks[k].name) +
             ": {\"passed\": " + std::to_string(m.checks[k].passed) +
             ", \"failed\": " + std::to_string(m.checks[k].failed) +
             (m.checks[k].message.empty() ? "" : ", \"message\": " + jsonString(m.checks[k].message)) + "}";
    s += "}";
    if (!m.folder.empty())
        s += ",\n    \"folder\": " + jsonString(m.folder);
    return s;
}

} // namespace

std::string jsonNumbers(const std::map<std::string, double>& values)
{
    std::string out = "{";
    for (const auto& [name, value] : values)
        out += (out.size() > 1 ? ", " : "") + jsonString(name) + ": " + num(value);
    return out + "}";
}

std::string jsonNumber(double v)
{
    return num(v);
}

RunSummary summarizeRun(const ScenarioPlan& plan, const RunResult& result)
{
    RunSummary s;
    s.runId = plan.runId;
    s.scenario = plan.name;
    s.testsVerdict = plan.testsVerdict;
    s.durationS = double(std::min(plan.duration, result.elapsed)) / 1e9;
    s.total = summarizeMetrics("total", result.total.total(), s.durationS);
    for (std::size_t i = 0; i < plan.steps.size() && i < result.total.steps.size(); ++i) {
        s.steps.push_back(summarizeMetrics(plan.steps[i].name, result.total.steps[i], s.durationS));
        s.steps.back().folder = plan.steps[i].folder;
        std::vector<std::string> names;
        for (const auto& c : plan.steps[i].checks)
            names.push_back(c.name);
        if (i < result.testNames.size())
            names.insert(names.end(), result.testNames[i].begin(), result.testNames[i].end());
        s.steps.back().checks = checkSummaries(plan.steps[i].name, names, result.total.steps[i]);
        s.total.checks.insert(s.total.checks.end(), s.steps.back().checks.begin(), s.steps.back().checks.end());
    }
    for (std::size_t g = 0; g < plan.groups.size() && g < result.total.groups.size(); ++g)
        s.groups.push_back(summarizeMetrics(plan.groups[g], result.total.groups[g], s.durationS));
    std::vector<ScenarioSpan> spans;
    const double ran = double(result.elapsed) / 1e9;
    for (std::size_t k = 0; k < plan.scenarios.size() && k < plan.places.size(); ++k)
        spans.push_back(
            {plan.scenarios[k].name, plan.places[k].firstStep, std::uint32_t(plan.scenarios[k].steps.size()),
             std::clamp(ran - double(plan.places[k].startAfter) / 1e9, 0.0, double(plan.scenarios[k].duration) / 1e9)});
    summarizeScenarios(s, spans, result.total, plan.groupFirstSteps());
    s.timeline = result.timeline;
    if (const ReplayPlan* replay = plan.replay()) {
        RunSummary::Replay r;
        r.records = replay->records.size();
        r.speed = replay->options.speed;
        r.amplify = replay->options.amplify;
        for (SecondSummary& t : s.timeline) {
            t.planned = replay->plannedIn(t.second);
            r.planned += t.planned;
        }
        s.replay = r;
    }
    s.events = result.events;
    s.sentAfterLoss = result.sentAfterLoss;
    s.agents = result.agents;
    for (const AgentReport& a : s.agents)
        if (a.seconds)
            s.total.agentCpu = std::max(s.total.agentCpu, a.cpuMean);
    for (const AgentReport& a : s.agents)
        if (a.limitedSeconds)
            s.warnings.push_back("the generator, not the target, limited this run: " + a.name + " was saturated in " +
                                 std::to_string(a.limitedSeconds) + " second" + (a.limitedSeconds == 1 ? "" : "s") +
                                 " (first: " + a.limitedBy + ")");
    const std::string status = result.aborted ? "aborted" : result.stopped ? "stopped" : "completed";
    judgeRun(s, status, double(result.elapsed) / 1e9, double(plan.duration) / 1e9);
    judgeAsPlanned(s, plan);
    evaluateThresholds(s, plan.thresholds);
    return s;
}

void judgeTests(RunSummary& s)
{
    if (s.status != "completed" || !s.reason.empty())
        return;
    std::uint64_t tests = 0, failed = 0;
    for (const auto& c : s.total.checks) {
        tests += c.passed + c.failed;
        failed += c.failed;
    }
    const auto& by = s.total.errorsByClass;
    const std::uint64_t scripts = by[std::size_t(ErrorClass::Script)];
    std::string requests;
    std::uint64_t unmade = 0;
    for (const ErrorClass c : {ErrorClass::Connect, ErrorClass::Reset, ErrorClass::Timeout, ErrorClass::Protocol,
                               ErrorClass::Tls, ErrorClass::Render, ErrorClass::Extract})
        if (const std::uint64_t n = by[std::size_t(c)]) {
            unmade += n;
            requests += (requests.empty() ? "" : ", ") + std::string(errorClassName(c)) + " " + std::to_string(n);
        }
    std::string why;
    const auto add = [&why](const std::string& part) { why += (why.empty() ? "" : "; ") + part; };
    if (failed)
        add(std::to_string(failed) + " of " + std::to_string(tests) + (tests == 1 ? " test" : " tests") + " failed");
    if (scripts)
        add(std::to_string(scripts) + (scripts == 1 ? " script" : " scripts") + " failed");
    if (unmade)
        add(std::to_string(unmade) + (unmade == 1 ? " request" : " requests") + " failed (" + requests + ")");
    if (const std::uint64_t lost = s.total.scriptRequestErrors) // newman counts them as failed requests
        add(std::to_string(lost) + " pm.sendRequest " + (lost == 1 ? "request" : "requests") + " got no answer");
    if (!why.empty()) {
        s.reason = why;
        s.passed = false;
    }
}

// The verdict a run gets with no threshold at all: it did not pass if no
// request succeeded, nor if a paced run made under 90 % of the iterations
// it planned (naming why), unless its plan changed on purpose (a data set
// in stop mode ran out, someone scaled the load). A plan judged by its
// tests has newman's verdict instead (judgeTests).
void judgeAsPlanned(RunSummary& s, const ScenarioPlan& plan)
{
    if (plan.testsVerdict) {
        judgeTests(s);
        return;
    }
    if (s.status != "completed" || !s.reason.empty() || s.total.requests == 0)
        return;
    if (s.total.succeeded() == 0) {
        s.reason = "no request succeeded (" + std::to_string(s.total.requests) + " failed)";
        s.passed = false;
        return;
    }
    for (const auto& e : s.events)
        if (e.kind == "data_exhausted" || e.kind == "scaled" || e.kind == "paused")
            return;
    // each paced scenario (the plan's own, or each of a plan's): the iterations its first step made
    double planned = 0, made = 0;
    std::string which;
    const auto weigh = [&](const ScenarioPlan& sc, std::size_t firstStep, const std::string& name) {
        if (!sc.load || !sc.load->paced() || firstStep >= s.steps.size())
            return;
        const double p = sc.load->plannedBy(sc.duration), m = double(s.steps[firstStep].requests);
        if (p >= 10 && m < 0.9 * p && (which.empty() || m / p < made / planned)) {
            planned = p;
            made = m;
            which = name;
        }
    };
    if (plan.scenarios.empty())
        weigh(plan, 0, "");
    for (std::size_t k = 0; k < plan.scenarios.size() && k < plan.places.size(); ++k)
        weigh(plan.scenarios[k], plan.places[k].firstStep, plan.scenarios[k].name);
    if (planned == 0)
        return;
    std::string why;
    for (const auto& e : s.events)
        if (e.kind == "agent_lost" || e.kind == "breaker" || e.kind == "lease_expired")
            why += "; " + e.detail;
    if (s.total.dropped)
        why += "; " + std::to_string(s.total.dropped) +
               " arrivals were dropped (the engines fell behind, or every connection was busy)";
    if (why.empty())
        why = "; the engines fell behind the plan";
    s.reason = "not as planned: " + (which.empty() ? std::string() : "scenario \"" + which + "\": ") +
               std::to_string(std::uint64_t(made)) + " of " + std::to_string(std::uint64_t(planned + 0.5)) +
               " planned iterations were made (" + num(100 * made / planned) + " %)" + why;
    s.passed = false;
}

void judgeRun(RunSummary& s, const std::string& status, double ran, double planned)
{
    s.status = status;
    s.aborted = status == "aborted";
    auto seconds = [](double v) { return num(v) + " s"; };
    if (status == "stopped")
        s.reason = "stopped when asked, at " + seconds(ran) + " of " + seconds(planned);
    else if (status == "aborted") {
        s.reason = "aborted: an engine was lost and the policy is abort";
        for (const auto& e : s.events)
            if (e.kind == "run_aborted")
                s.reason = "aborted: " + e.detail;
    } else if (status == "stopped_by_breaker") {
        s.reason = "stopped by breaker";
        for (const auto& e : s.events) // the trip that stopped it
            if (e.kind == "breaker" && e.detail.find("the run stops") != std::string::npos)
                s.reason = "stopped by breaker: " + e.detail;
    } else if (status == "interrupted")
        s.reason = "interrupted: the controller ended before the run did";
    else if (status != "completed")
        s.reason = "the run ended as " + status;
    else if (s.total.requests == 0)
        s.reason = "no request completed";
    s.passed = s.reason.empty();
}

void judgeCapacity(RunSummary& s, CapacityResult c)
{
    if (c.finished && (s.status == "stopped" || s.status == "completed")) { // the search ended the run itself
        s.status = "completed";
        s.reason.clear();
        if (c.rate <= 0)
            s.reason = "not even the start rate met every SLO" +
                       (c.brokenBy.empty() ? std::string() : ": it broke " + c.brokenBy);
    } else if (s.reason.empty())
        s.reason = "the capacity search did not conclude: " + c.note;
    s.passed = s.reason.empty();
    s.capacity = std::move(c);
}

void summarizeScenarios(RunSummary& s, const std::vector<ScenarioSpan>& spans, const IntervalMetrics& total,
                        const std::vector<std::uint32_t>& groupFirstSteps)
{
    for (std::size_t g = 0; g < s.groups.size() && g < groupFirstSteps.size(); ++g)
        for (const ScenarioSpan& sp : spans)
            if (groupFirstSteps[g] >= sp.firstStep && groupFirstSteps[g] < sp.firstStep + sp.steps)
                s.groups[g].rate = sp.seconds > 0 ? double(s.groups[g].requests) / sp.seconds : 0;
    for (const ScenarioSpan& sp : spans) {
        StepMetrics merged;
        for (std::uint32_t i = sp.firstStep; i < sp.firstStep + sp.steps && i < total.steps.size(); ++i) {
            merged.merge(total.steps[i]);
            if (i < s.steps.size()) // a scenario's steps run for its seconds, not the whole run's
                s.steps[i].rate = sp.seconds > 0 ? double(s.steps[i].requests) / sp.seconds : 0;
        }
        merged.checks.clear();
        s.scenarios.push_back(summarizeMetrics(sp.name, merged, sp.seconds));
        for (std::uint32_t i = sp.firstStep; i < sp.firstStep + sp.steps && i < s.steps.size(); ++i)
            s.scenarios.back().checks.insert(s.scenarios.back().checks.end(), s.steps[i].checks.begin(),
                                             s.steps[i].checks.end());
    }
}

const MetricsSummary* namedMetrics(const RunSummary& s, const std::string& name)
{
    if (name.empty())
        return &s.total;
    for (const auto& step : s.steps)
        if (step.name == name)
            return &step;
    if (name.rfind("group ", 0) == 0)
        for (const auto& g : s.groups)
            if (g.name == name.substr(6))
                return &g;
    for (const auto& sc : s.scenarios)
        if (sc.name == name)
            return &sc;
    return nullptr;
}

std::string measuredText(const ThresholdResult& t)
{
    if (!t.note.empty())
        return t.note;
    char text[32];
    std::snprintf(text, sizeof text, "%.4g", t.percent ? t.value * 100 : t.value);
    return std::string(text) + (t.percent ? " %" : t.unit.empty() ? "" : " " + t.unit);
}

std::string verdictText(const RunSummary& s)
{
    if (s.status != "completed")
        return s.reason.empty() ? "the run ended as " + s.status : s.reason;
    if (s.passed)
        return "completed and passed";
    std::string why;
    for (const ThresholdResult& t : s.thresholds)
        if (!t.passed)
            why += "; threshold " + t.expr + " failed (" + measuredText(t) + ")";
    if (!s.reason.empty())
        why += "; " + s.reason;
    return why.empty() ? std::string("completed and failed") : "completed and failed: " + why.substr(2);
}

void evaluateThresholds(RunSummary& s, const std::vector<Threshold>& thresholds)
{
    for (const auto& t : thresholds) {
        ThresholdResult r;
        r.expr = t.expr;
        const MetricsSummary* named = namedMetrics(s, t.step);
        const MetricsSummary* m = named ? named : &s.total;
        r.value = thresholdValue(t, *m);
        r.percent = t.isFraction();
        r.unit = t.isLatency()                                                                       ? "ms"
                 : t.metric == Threshold::Metric::Rate || t.metric == Threshold::Metric::MessageRate ? "/s"
                                                                                                     : "";
        if (!named)
            r.note = "no step or group is named \"" + t.step + "\"";
        else if (t.metric == Threshold::Metric::Server && !m->server.count(t.server))
            r.note = "no data: server metric \"" + t.server + "\" was never read";
        else if (t.metric == Threshold::Metric::AgentCpu && m->agentCpu < 0)
            r.note = "no data: no agent reported its CPU";
        else if (t.metric != Threshold::Metric::Server && t.metric != Threshold::Metric::AgentCpu && m->requests == 0)
            r.note = "no data: no request completed";
        else if (t.isLatency() && m->answered == 0)
            r.note = "no data: no response arrived (every request failed before an answer)";
        else if (t.metric == Threshold::Metric::Checks && checkRate(t, *m) < 0)
            r.note = t.check.empty() ? "no data: no check was judged"
                                     : "no data: no check named \"" + t.check + "\" was judged";
        r.passed = r.note.empty() && t.holds(r.value);
        s.passed &= r.passed;
        s.thresholds.push_back(r);
    }
    const bool judgesErrors = std::any_of(thresholds.begin(), thresholds.end(), [](const Threshold& t) {
        return t.metric == Threshold::Metric::ErrorRate && t.step.empty();
    });
    s.unjudged.clear();
    if (!judgesErrors && s.total.errors > 0) {
        char pct[32];
        std::snprintf(pct, sizeof pct, "%.4g", s.total.errorRatePct());
        s.unjudged = std::string(pct) + " % of the requests failed (" + std::to_string(s.total.errors) + " of " +
                     std::to_string(s.total.requests) + ") and no threshold judges the error rate";
    }
}

std::string summaryToJson(const RunSummary& s)
{
    std::string out = "{\"run_id\": " + jsonString(s.runId) + ", \"scenario\": " + jsonString(s.scenario) +
                      ", \"passed\": " + (s.passed ? "true" : "false") + ", \"duration_s\": " + num(s.durationS) +
                      ",\n  \"total\": {" + metricsJson(s.total) + "},\n  \"steps\": [";
    for (std::size_t i = 0; i < s.steps.size(); ++i) {
        out += (i ? ",\n    {" : "\n    {");
        out += "\"name\": " + jsonString(s.steps[i].name) + ", " + metricsJson(s.steps[i]) + "}";
    }
    out += "]";
    for (const auto& [key, list] : {std::pair<const char*, const std::vector<MetricsSummary>*>{"groups", &s.groups},
                                    {"scenarios", &s.scenarios}}) {
        if (list->empty())
            continue;
        out += std::string(",\n  \"") + key + "\": [";
        for (std::size_t i = 0; i < list->size(); ++i) {
            out += (i ? ",\n    {" : "\n    {");
            out += "\"name\": " + jsonString((*list)[i].name) + ", " + metricsJson((*list)[i]) + "}";
        }
        out += "]";
    }
    for (const auto& [key, phase] : {std::pair<const char*, const std::optional<RunSummary::Phase>*>{"setup", &s.setup},
                                     {"teardown", &s.teardown}}) {
        if (!*phase)
            continue;
        const RunSummary::Phase& p = **phase;
        out += std::string(",\n  \"") + key + "\": {\"ok\": " + (p.ok ? "true" : "false") +
               ", \"requests\": " + std::to_string(p.requests) + ", \"errors\": " + std::to_string(p.errors) +
               ", \"seconds\": " + num(p.seconds) + ", \"values\": [";
        for (std::size_t i = 0; i < p.values.size(); ++i)
            out += (i ? ", " : "") + jsonString(p.values[i]);
        out += "]" + (p.why.empty() ? std::string() : ", \"why\": " + jsonString(p.why)) + "}";
    }
    out += ",\n  \"timeline\": [";
    for (std::size_t i = 0; i < s.timeline.size(); ++i) {
        const auto& t = s.timeline[i];
        out += (i ? ",\n    " : "\n    ");
        out += "{\"t\": " + std::to_string(t.second) +
               (s.replay ? ", \"planned\": " + std::to_string(t.planned) : std::string()) +
               ", \"sent\": " + std::to_string(t.sent) + ", \"requests\": " + std::to_string(t.requests) +
               ", \"errors\": " + std::to_string(t.errors) + ", \"late\": " + std::to_string(t.late) +
               ", \"dropped\": " + std::to_string(t.dropped) + ", \"min_ms\": " + num(t.minMs) +
               ", \"mean_ms\": " + num(t.meanMs) + ", \"p50_ms\": " + num(t.p50Ms) + ", \"p99_ms\": " + num(t.p99Ms) +
               ", \"checks_passed\": " + std::to_string(t.checksPassed) +
               ", \"checks_failed\": " + std::to_string(t.checksFailed);
        if (!t.server.empty())
            out += ", \"server\": " + jsonNumbers(t.server);
        if (t.cpu > 0)
            out += ", \"agent_cpu_pct\": " + num(t.cpu * 100) + ", \"loop_lag_ms\": " + num(t.loopLagMs);
        out += "}";
    }
    out += "],\n  \"thresholds\": [";
    for (std::size_t i = 0; i < s.thresholds.size(); ++i) {
        const auto& t = s.thresholds[i];
        out += (i ? ", " : "");
        out += "{\"expr\": " + jsonString(t.expr) + ", \"passed\": " + (t.passed ? "true" : "false") +
               ", \"value\": " + num(t.value) + ", \"measured\": " + jsonString(measuredText(t)) +
               (t.note.empty() ? "" : ", \"note\": " + jsonString(t.note)) + "}";
    }
    out += "],\n  \"status\": " + jsonString(s.status) + ", \"reason\": " + jsonString(s.reason) +
           ", \"verdict\": " + jsonString(verdictText(s)) +
           (s.unjudged.empty() || !s.passed ? "" : ", \"unjudged\": " + jsonString(s.unjudged)) +
           ", \"aborted\": " + std::string(s.aborted ? "true" : "false") +
           ", \"sent_after_loss\": " + std::to_string(s.sentAfterLoss) +
           ", \"controller_cpu_s\": " + num(s.controllerCpuS) + ", \"engines\": [";
    for (std::size_t i = 0; i < s.engines.size(); ++i)
        out += (i ? ", " : "") + jsonString(s.engines[i]);
    out += "],\n  \"agents\": [";
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const AgentReport& a = s.agents[i];
        out += (i ? ",\n    " : "\n    ");
        out += "{\"name\": " + jsonString(a.name) + ", \"shares\": [";
        for (std::size_t k = 0; k < a.shares.size(); ++k)
            out += (k ? ", " : "") + std::to_string(a.shares[k]);
        out += "], \"joined_at_second\": " + std::to_string(a.joinedAt) +
               ", \"lost\": " + std::string(a.lost ? "true" : "false") + ", \"sent\": " + std::to_string(a.sent) +
               ", \"requests\": " + std::to_string(a.requests) + ", \"seconds\": " + std::to_string(a.seconds) +
               ", \"cpu_mean_pct\": " + num(a.cpuMean * 100) + ", \"cpu_max_pct\": " + num(a.cpuMax * 100) +
               ", \"rss_max_mib\": " + num(double(a.rssMaxBytes) / 1048576.0) +
               ", \"loop_lag_max_ms\": " + num(a.loopLagMaxMs) + ", \"send_lag_p99_ms\": " + num(a.sendLagP99Ms) +
               ", \"connections_max\": " + std::to_string(a.connectionsMax) +
               ", \"limited_seconds\": " + std::to_string(a.limitedSeconds) +
               (a.limitedBy.empty() ? std::string() : ", \"limited_by\": " + jsonString(a.limitedBy)) + "}";
    }
    out += "],\n  \"warnings\": [";
    for (std::size_t i = 0; i < s.warnings.size(); ++i)
        out += (i ? ", " : "") + jsonString(s.warnings[i]);
    out += "],\n  \"events\": [";
    for (std::size_t i = 0; i < s.events.size(); ++i) {
        const auto& e = s.events[i];
        out += (i ? ",\n    " : "\n    ");
        out += "{\"at_s\": " + num(e.atS) + ", \"kind\": " + jsonString(e.kind) +
               ", \"agent\": " + jsonString(e.agent) + ", \"detail\": " + jsonString(e.detail) +
               ", \"from_second\": " + std::to_string(e.fromSecond) + ", \"to_second\": " + std::to_string(e.toSecond) +
               "}";
    }
    out += "]";
    if (s.capacity)
        out += ",\n  \"capacity\": " + capacityToJson(*s.capacity);
    if (s.replay)
        out += ",\n  \"replay\": {\"records\": " + std::to_string(s.replay->records) +
               ", \"speed\": " + num(s.replay->speed) + ", \"amplify\": " + std::to_string(s.replay->amplify) +
               ", \"planned\": " + std::to_string(s.replay->planned) + "}";
    out += "}\n";
    return out;
}

} // namespace stampede
