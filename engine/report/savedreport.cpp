#include "savedreport.h"

#include "reportsections.h"
#include "svgchart.h"

#include "check/contentcoding.h"
#include "core/csvtable.h"
#include "core/nicescale.h"
#include "core/text.h"
#include "core/utf8.h"

#include "plan/scenarioplan.h"
#include "stampede/v1/scenario.pb.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>

#include <set>

namespace stampede {

std::string printableSample(const std::string& raw)
{
    std::string out;
    out.reserve(raw.size());
    for (std::size_t i = 0; i < raw.size();) {
        const auto c = static_cast<unsigned char>(raw[i]);
        if (c < 0x80) {
            if (c != '\r') // line ends show as LF
                out += (c >= 0x20 && c != 0x7f) || c == '\n' || c == '\t' ? char(c) : '.';
            ++i;
            continue;
        }
        const std::size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
        bool ok = len && i + len <= raw.size() && c < 0xf5;
        for (std::size_t k = 1; ok && k < len; ++k)
            ok = (static_cast<unsigned char>(raw[i + k]) & 0xc0) == 0x80;
        if (ok) {
            out.append(raw, i, len);
            i += len;
        } else {
            out += '?';
            ++i;
        }
    }
    return out;
}

namespace {

std::string num(double v, int decimals = 3)
{
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

// The scenario's JSON indented, one field a line (as it was when it is not a scenario).
std::string formattedScenario(const std::string& json)
{
    v1::Scenario scenario;
    std::string error, out;
    google::protobuf::util::JsonPrintOptions options;
    options.add_whitespace = true;
    if (!parseScenarioJson(json, scenario, error) ||
        !google::protobuf::util::MessageToJsonString(scenario, &out, options).ok())
        return json;
    // protobuf writes <, > and & as \u003c, \u003e, \u0026 (for HTML); a person reads them as they were written
    // (raw, they are still JSON; the page escapes them as its text)
    for (const auto& [escaped, raw] : {std::pair{"\\u003c", "<"}, {"\\u003e", ">"}, {"\\u0026", "&"}, {"\\u0027", "'"}})
        for (std::size_t at = out.find(escaped); at != std::string::npos; at = out.find(escaped, at + 1))
            if (at == 0 || out[at - 1] != '\\') // not an escaped backslash before a literal "u003c"
                out.replace(at, 6, raw);
    return out;
}

} // namespace

RunSummary summarizeSaved(const SavedRun& run)
{
    RunSummary s;
    s.runId = run.info.runId;
    s.engines = run.agents;
    // duration: as planned when the run completed, else as far as it got
    double planned = 0;
    std::vector<Threshold> thresholds;
    v1::Scenario scenario;
    std::string error;
    std::vector<std::string> folders; // a collection run's steps'
    if (parseScenarioJson(run.scenarioJson, scenario, error)) {
        s.scenario = scenario.name();
        s.testsVerdict = scenario.verdict() == "tests";
        for (const v1::Step& st : scenario.steps())
            folders.push_back(st.folder());
        std::vector<PlanError> errors;
        PlanOptions o;
        if (auto plan = compileScenario(scenario, o, errors)) {
            planned = double(plan->duration) / 1e9;
            thresholds = plan->thresholds;
        } else {
            // the scenario no longer compiles here (a CSV file beside it is
            // gone): its thresholds are still the run's verdict
            for (const auto& t : scenario.thresholds())
                if (auto parsed = Threshold::parse(t.expr(), error))
                    thresholds.push_back(*parsed);
        }
    }
    if (s.scenario.empty())
        s.scenario = run.info.name;
    CapacityResult capacity;
    const bool search = capacityFromJson(run.summaryJson, capacity); // ends when it has its answer, not as planned
    // (a run its iterations ended - a collection's - took its own time, which its summary kept: never the bound)
    s.durationS = run.info.status == "completed" && planned > 0 && !search
                      ? (run.info.durationS > 0 ? std::min(planned, run.info.durationS) : planned)
                      : run.info.durationS;
    StepMetrics total;
    for (std::size_t i = 0; i < run.total.steps.size(); ++i) {
        total.merge(run.total.steps[i]);
        s.steps.push_back(
            summarizeMetrics(i < run.stepNames.size() ? run.stepNames[i] : "step " + std::to_string(i + 1),
                             run.total.steps[i], s.durationS));
        if (i < folders.size() && run.scenarios.empty())
            s.steps.back().folder = folders[i];
        s.steps.back().checks = checkSummaries(
            s.steps.back().name, i < run.checkNames.size() ? run.checkNames[i] : std::vector<std::string>{},
            run.total.steps[i]);
    }
    s.total = summarizeMetrics("total", total, s.durationS);
    for (std::size_t g = 0; g < run.groupNames.size() && g < run.total.groups.size(); ++g)
        s.groups.push_back(summarizeMetrics(run.groupNames[g], run.total.groups[g], s.durationS));
    std::vector<ScenarioSpan> spans;
    for (const RunScenario& sc : run.scenarios)
        spans.push_back({sc.name, sc.firstStep, sc.steps, std::clamp(s.durationS - sc.startAfterS, 0.0, sc.durationS)});
    summarizeScenarios(s, spans, run.total, run.groupFirstSteps);
    for (const auto& step : s.steps)
        s.total.checks.insert(s.total.checks.end(), step.checks.begin(), step.checks.end());
    std::map<std::string, std::pair<double, std::uint64_t>> serverSums;
    for (const auto& row : run.rows) {
        if (row.step != -1)
            continue;
        SecondSummary t;
        t.second = row.second;
        t.sent = row.counters.sent;
        t.requests = row.counters.requests;
        t.errors = row.counters.errors;
        t.late = row.counters.late;
        t.dropped = row.counters.dropped;
        t.p50Ms = row.p50Ms;
        t.p99Ms = row.p99Ms;
        t.maxMs = row.maxMs;
        t.server = row.server;
        for (const auto& [name, value] : row.server) {
            serverSums[name].first += value;
            ++serverSums[name].second;
        }
        s.timeline.push_back(t);
    }
    for (const auto& [name, sum] : serverSums) // server:NAME thresholds judge the run's mean
        s.total.server[name] = sum.first / double(sum.second);
    // the checks of a second are on its step rows (rows come by second, then step)
    std::size_t at = 0;
    for (const auto& row : run.rows) {
        if (row.step < 0 || row.checks.empty())
            continue;
        while (at < s.timeline.size() && s.timeline[at].second < row.second)
            ++at;
        if (at == s.timeline.size())
            break;
        for (const CheckCount& c : row.checks) {
            s.timeline[at].checksPassed += c.passed;
            s.timeline[at].checksFailed += c.failed;
        }
    }
    s.events = run.events;
    judgeRun(s, run.info.status, run.info.durationS, planned);
    evaluateThresholds(s, thresholds);
    if (search) // a capacity search: its answer is the verdict
        judgeCapacity(s, std::move(capacity));
    if (run.info.passed >= 0) { // the verdict was computed once, when the run ended, and stored with it
        s.passed = run.info.passed == 1;
        s.reason = run.info.reason;
    }
    return s;
}

std::string exportCsv(const SavedRun& run)
{
    std::string out = "second,step,sent,requests,errors,late,dropped,bytes_in,bytes_out,p50_ms,p90_ms,p95_ms,p99_ms,"
                      "p999_ms,max_ms";
    for (std::size_t k = 0; k < kErrorClassCount; ++k)
        out += ",errors_" + std::string(errorClassName(ErrorClass(k)));
    out += ",redirects,checks_passed,checks_failed,min_ms,mean_ms,agent_cpu_pct,rss_mib,loop_lag_ms";
    std::set<std::string> server; // the target's own metrics: a column each, on the total rows
    for (const auto& r : run.rows)
        for (const auto& [name, value] : r.server)
            server.insert(name);
    for (const auto& name : server)
        out += ",server_" + name;
    out += "\n";
    // a second's total row counts the checks its steps judged (the merged row keeps none of its own)
    std::map<std::uint32_t, std::pair<std::uint64_t, std::uint64_t>> secondChecks;
    for (const auto& r : run.rows)
        if (r.step >= 0)
            for (const CheckCount& k : r.checks) {
                secondChecks[r.second].first += k.passed;
                secondChecks[r.second].second += k.failed;
            }
    for (const auto& r : run.rows) {
        const std::string step = r.step < 0                                   ? "total"
                                 : std::size_t(r.step) < run.stepNames.size() ? run.stepNames[std::size_t(r.step)]
                                                                              : std::to_string(r.step);
        const auto& c = r.counters;
        out += std::to_string(r.second) + "," + csvField(step) + "," + std::to_string(c.sent) + "," +
               std::to_string(c.requests) + "," + std::to_string(c.errors) + "," + std::to_string(c.late) + "," +
               std::to_string(c.dropped) + "," + std::to_string(c.bytesIn) + "," + std::to_string(c.bytesOut) + "," +
               num(r.p50Ms) + "," + num(r.p90Ms) + "," + num(r.p95Ms) + "," + num(r.p99Ms) + "," + num(r.p999Ms) + "," +
               num(r.maxMs);
        for (std::size_t k = 0; k < kErrorClassCount; ++k)
            out += "," + std::to_string(c.errorsByClass[k]);
        std::uint64_t passed = 0, failed = 0;
        for (const CheckCount& k : r.checks) {
            passed += k.passed;
            failed += k.failed;
        }
        if (r.step < 0 && r.checks.empty()) {
            passed = secondChecks[r.second].first;
            failed = secondChecks[r.second].second;
        }
        out += "," + std::to_string(c.redirects) + "," + std::to_string(passed) + "," + std::to_string(failed);
        out += "," + num(r.minMs) + "," + num(r.meanMs);
        if (r.step < 0 && r.rssBytes) // the engine's health (the busiest's on a merged row)
            out += "," + num(r.cpu * 100) + "," + num(double(r.rssBytes) / 1048576.0) + "," + num(r.loopLagMs);
        else
            out += ",,,";
        for (const auto& name : server) {
            const auto it = r.server.find(name);
            out += "," + (it == r.server.end() ? std::string() : num(it->second)); // empty: not read in that second
        }
        out += "\n";
    }
    return out;
}

std::string decodedSampleBody(const ErrorSample& e)
{
    std::string_view head = e.head;
    for (std::size_t at = 0; at < head.size();) {
        const std::size_t end = std::min(head.find('\n', at), head.size());
        std::string_view line = head.substr(at, end - at);
        at = end + 1;
        const std::size_t colon = line.find(':');
        if (colon == std::string_view::npos || !equalsNoCase(line.substr(0, colon), "content-encoding"))
            continue;
        std::string_view value = line.substr(colon + 1);
        while (!value.empty() && (value.front() == ' ' || value.back() == '\r'))
            value = value.front() == ' ' ? value.substr(1) : value.substr(0, value.size() - 1);
        std::string decoded, why;
        bool truncated = false;
        if (const ContentCoding c = contentCodingOf(value);
            c != ContentCoding::Identity && decodeContent(c, e.body, kMaxDecodedBody, decoded, truncated, why))
            return decoded;
    }
    return e.body;
}

namespace {

// A sample's body as JSON members: decoded (decodedSampleBody), as text when that is UTF-8, else as base64
// ("body_base64"): the export is always UTF-8, and what came can be had back.
std::string sampleBodyJson(const ErrorSample& e)
{
    const std::string body = decodedSampleBody(e);
    if (isUtf8(body))
        return "\"body\": " + jsonString(printableSample(body));
    std::string b64;
    appendBase64(b64, body);
    return "\"body\": \"\", \"body_base64\": \"" + b64 + "\"";
}

} // namespace

std::string exportJson(const SavedRun& run, const RunSummary& summary, const ReportOptions& options)
{
    std::string out = summaryToJson(summary);
    const std::size_t end = out.rfind('}');
    if (end == std::string::npos)
        return out;
    std::string samples = ",\n  \"error_samples\": [";
    for (std::size_t i = 0; i < run.samples.size(); ++i) {
        const auto& e = run.samples[i];
        const std::string step = e.step < run.stepNames.size() ? run.stepNames[e.step] : std::to_string(e.step);
        samples += std::string(i ? ",\n    " : "\n    ") + "{\"step\": " + jsonString(step) +
                   ", \"second\": " + std::to_string(e.second) + ", \"class\": \"" +
                   std::string(errorClassName(e.errorClass)) + "\", \"status\": " + std::to_string(e.status) +
                   ", \"head\": " + jsonString(printableSample(e.head)) + ", " + sampleBodyJson(e) +
                   ", \"detail\": " + jsonString(e.detail) +
                   (e.trace.empty() ? "" : ", \"trace_id\": " + jsonString(e.trace)) + "}";
    }
    samples += "],\n  " + sectionsJson(reportSections(run, summary, options)) + "\n";
    // the summary ends with "\n}": the samples go before its closing brace
    std::size_t cut = end;
    while (cut > 0 && (out[cut - 1] == '\n' || out[cut - 1] == ' '))
        --cut;
    return out.substr(0, cut) + samples + out.substr(end);
}

namespace {

// The run's events in the reader's words (their kind and detail), for the charts' marks and the events' table.
std::vector<RunEvent> eventsInWords(const std::vector<RunEvent>& events, const ReportWords& w)
{
    std::vector<RunEvent> out = events;
    for (RunEvent& e : out) {
        e.kind = w.kind(e.kind);
        e.detail = w.said(e.detail);
    }
    return out;
}

// The charts the workbench's report shows, from the merged seconds (step -1 rows): throughput, the six
// latencies, connections and users; the target's own metrics when read. A second without an answer is a gap in
// the latencies, never a 0 ms that did not happen.
std::string runCharts(const SavedRun& run, const RunSummary& s, const ReportWords& w)
{
    const double none = std::numeric_limits<double>::quiet_NaN();
    std::vector<std::pair<double, double>> rate, errors, messages, conns, users;
    std::array<std::vector<std::pair<double, double>>, 6> lat;
    bool streams = false;
    for (const SecondRow& r : run.rows) {
        if (r.step != -1 || !r.agent.empty())
            continue;
        const double t = r.second;
        rate.emplace_back(t, double(r.counters.requests));
        errors.emplace_back(t, double(r.counters.errors));
        messages.emplace_back(t, double(r.counters.messagesReceived));
        streams |= r.counters.messagesReceived > 0;
        conns.emplace_back(t, double(r.openConnections));
        users.emplace_back(t, double(r.activeUsers));
        const bool answered = r.counters.requests > 0; // as the workbench's charts draw it
        const double v[6] = {r.p50Ms, r.p90Ms, r.p95Ms, r.p99Ms, r.p999Ms, r.maxMs};
        for (std::size_t k = 0; k < 6; ++k)
            lat[k].emplace_back(t, answered ? v[k] : none);
    }
    const std::vector<RunEvent> events = eventsInWords(s.events, w);
    ChartSeries throughput{{w("completed/s"), rate}, {w("errors/s"), errors}};
    if (streams)
        throughput.push_back({w("messages/s"), messages});
    std::string html =
        "<div class=\"charts\">" +
        svgChart(w("Throughput"), streams ? w("per second") : w("requests/s"), throughput, events, "s", w("seconds")) +
        svgChart(
            w("Latency"), "ms",
            {{"p50", lat[0]}, {"p90", lat[1]}, {"p95", lat[2]}, {"p99", lat[3]}, {"p99.9", lat[4]}, {w("max"), lat[5]}},
            events, "s", w("seconds")) +
        svgChart(w("Connections and users"), w("count"), {{w("open connections"), conns}, {w("active users"), users}},
                 {}, "s", w("seconds"));
    std::map<std::string, std::vector<std::pair<double, double>>> server; // the target's own metrics, a line each
    for (const auto& t : s.timeline)
        for (const auto& [name, value] : t.server)
            server[name];
    for (const auto& t : s.timeline)
        for (auto& [name, pts] : server) {
            const auto it = t.server.find(name);
            pts.emplace_back(t.second, it == t.server.end() ? none : it->second);
        }
    if (!server.empty())
        html += svgChart(w("Server"), w("value"), {server.begin(), server.end()}, events, "s", w("seconds"));
    return html + "</div>\n";
}

// A capacity search: the answer, p99 and error rate against the offered rate, and each level.
std::string capacitySection(const RunSummary& s, const ReportWords& w)
{
    if (!s.capacity)
        return {};
    const CapacityResult& c = *s.capacity;
    std::string html =
        "<h2>" + w("Capacity") + "</h2>\n<p><b>" +
        (c.rate > 0 ? num(c.rate, 1) + " " + w("iterations/s met every SLO")
                    : w("Not even the start rate met every SLO")) +
        "</b>" +
        (c.brokenBy.empty() ? "" : " · " + num(c.brokenAt, 1) + "/s " + w("broke") + " " + escapeXml(c.brokenBy)) +
        (c.note.empty() ? "" : " · " + escapeXml(w.said(c.note))) + "</p>\n";
    std::vector<CapacityLevel> byRate = c.levels;
    std::sort(byRate.begin(), byRate.end(), [](const auto& a, const auto& b) { return a.rate < b.rate; });
    std::vector<std::pair<double, double>> p99, errors;
    for (const CapacityLevel& l : byRate) {
        p99.emplace_back(l.rate, l.p99Ms);
        errors.emplace_back(l.rate, l.errorRatePct);
    }
    html += svgChart(w("p99 against the offered rate"), "ms", {{"p99", p99}}, {}, "/s", w("offered rate /s")) + "\n";
    html += svgChart(w("Error rate against the offered rate"), "%", {{w("errors"), errors}}, {}, "/s",
                     w("offered rate /s")) +
            "\n";
    html += "<table><tr><th>" + w("level") + "</th><th>" + w("offered/s") + "</th><th>" + w("achieved/s") +
            "</th><th>p99 ms</th><th>" + w("errors %") + "</th><th>" + w("verdict") + "</th></tr>\n";
    for (std::size_t i = 0; i < c.levels.size(); ++i) {
        const CapacityLevel& l = c.levels[i];
        html += "<tr><td>" + std::to_string(i + 1) + "</td><td>" + num(l.rate, 1) + "</td><td>" + num(l.achieved, 1) +
                "</td><td>" + num(l.p99Ms, 2) + "</td><td>" + num(l.errorRatePct, 2) + "</td><td class=\"" +
                (l.passed ? "pass\">" + w("met every SLO") : "fail\">" + w("broke") + " " + escapeXml(l.brokenBy)) +
                "</td></tr>\n";
    }
    return html + "</table>\n";
}

// The summary per step as the workbench's table: the steps, the total, the groups and a plan's scenarios.
std::string summaryTable(const RunSummary& s, const ReportWords& w)
{
    std::string html = "<h2>" + w("Summary per step") + "</h2>\n<table><tr><th>" + w("Step") + "</th><th>" +
                       w("Requests") + "</th><th>" + w("Rate/s") + "</th><th>" + w("Errors") +
                       "</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>" + w("max ms") +
                       "</th><th>" + w("Late") + "</th><th>" + w("Dropped") + "</th></tr>\n";
    auto row = [&](const MetricsSummary& m, const std::string& name, const char* cls) {
        html += std::string("<tr") + cls + "><td>" + escapeXml(name) + "</td><td>" + std::to_string(m.requests) +
                "</td><td>" + num(m.rate, 1) + "</td><td>" + std::to_string(m.errors) + "</td><td>" +
                num(m.latency.p50) + "</td><td>" + num(m.latency.p90) + "</td><td>" + num(m.latency.p99) + "</td><td>" +
                num(m.latency.p999) + "</td><td>" + num(m.latency.max) + "</td><td>" + std::to_string(m.late) +
                "</td><td>" + std::to_string(m.dropped) + "</td></tr>\n";
    };
    for (const auto& st : s.steps)
        row(st, st.name, "");
    row(s.total, w("total"), " class=\"total\"");
    for (const auto& g : s.groups)
        row(g, w("group") + " " + g.name, "");
    for (const auto& sc : s.scenarios)
        row(sc, w("scenario") + " " + sc.name, "");
    return html + "</table>\n";
}

// The thresholds, each with what it measured in the units it was written in, and the checks.
std::string judgementTables(const RunSummary& s, const ReportWords& w)
{
    std::string html;
    if (!s.total.checks.empty()) {
        html += "<h2>" + w("Checks") + "</h2>\n<table><tr><th>" + w("check") + "</th><th>" + w("passed") + "</th><th>" +
                w("failed") + "</th><th>" + w("pass rate") + "</th><th>" + w("why it failed (the first time)") +
                "</th></tr>\n";
        for (const auto& c : s.total.checks) {
            const std::uint64_t judged = c.passed + c.failed;
            html += "<tr><td>" + escapeXml(c.name) + "</td><td>" + std::to_string(c.passed) + "</td><td>" +
                    std::to_string(c.failed) + "</td><td class=\"" + (c.failed ? "fail" : "pass") + "\">" +
                    (judged ? num(100.0 * double(c.passed) / double(judged), 2) + " %" : std::string("-")) +
                    "</td><td>" + escapeXml(w.said(c.message)) + "</td></tr>\n";
        }
        html += "</table>\n";
    }
    html += "<h2>" + w("Thresholds") + "</h2>\n<table><tr><th>" + w("threshold") + "</th><th>" + w("measured") +
            "</th><th>" + w("result") + "</th></tr>\n";
    for (const auto& t : s.thresholds)
        html += "<tr><td>" + escapeXml(t.expr) + "</td><td>" + escapeXml(w.said(measuredText(t))) +
                "</td><td class=\"" + (t.passed ? "pass\">" + w("PASS") : "fail\">" + w("FAIL")) + "</td></tr>\n";
    return html + "</table>\n";
}

// The events, the error samples and the scenario as it ran.
std::string closingParts(const SavedRun& run, const RunSummary& s, const ReportWords& w)
{
    std::string html = "<h2>" + w("Events") + "</h2>\n<table><tr><th>" + w("at s") + "</th><th>" + w("event") +
                       "</th><th>" + w("agent") + "</th><th>" + w("detail") + "</th></tr>\n";
    for (const auto& e : eventsInWords(s.events, w))
        html += "<tr><td>" + num(e.atS, 1) + "</td><td>" + escapeXml(e.kind) + "</td><td>" + escapeXml(e.agent) +
                "</td><td>" + escapeXml(e.detail) + "</td></tr>\n";
    html += "</table>\n<h2>" + w("Error samples") + "</h2>\n";
    if (run.samples.empty())
        html += "<p>" + w("No failed request was sampled.") + "</p>\n";
    for (const auto& e : run.samples) {
        const std::string step = e.step < run.stepNames.size() ? run.stepNames[e.step] : std::to_string(e.step);
        html += "<h3>" + escapeXml(step) + " · " + std::string(errorClassName(e.errorClass)) +
                (e.status ? " · " + std::to_string(e.status) : std::string()) + " · " + w("second") + " " +
                std::to_string(e.second) + (e.trace.empty() ? "" : " · trace " + e.trace) + "</h3>\n<pre>" +
                escapeXml(printableSample(e.detail.empty() ? e.head + "\n\n" + decodedSampleBody(e)
                                          : e.head.empty() ? w.said(e.detail)
                                                           : w.said(e.detail) + "\n\n" + e.head + "\n\n" + e.body)) +
                "</pre>\n";
    }
    return html + "<h2>" + w("Scenario as it ran") + "</h2>\n<pre>" + escapeXml(formattedScenario(run.scenarioJson)) +
           "</pre>\n";
}

} // namespace

std::string exportHtml(const SavedRun& run, const RunSummary& s, const ReportOptions& o)
{
    const ReportWords& w = o.words;
    std::string html =
        "<!DOCTYPE html>\n<html lang=\"" + escapeXml(w.lang) + "\"><head><meta charset=\"utf-8\"><title>" +
        escapeXml(w("Stampede report")) + " " + escapeXml(s.runId) +
        "</title><style>"
        "body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:12px 0}"
        "td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}th{background:#f4f6f7}"
        "td:first-child,th:first-child{text-align:left}.pass{color:#1e8449}.fail{color:#c0392b}"
        "tr.total td{font-weight:bold}.verdict{font-size:1.15em;font-weight:bold}"
        ".charts svg{margin:4px 8px 4px 0}"
        "</style></head><body>\n";
    html += "<h1>" + escapeXml(s.scenario) + "</h1>\n<p>" + w("Run") + " <code>" + escapeXml(s.runId) + "</code> · " +
            w("started") + " " + escapeXml(run.info.started) + " · " + num(s.durationS, 1) + " s</p>\n";
    // the verdict in the words every report says it in (verdictText), what it did not judge beside it
    html += "<p class=\"verdict " + std::string(s.passed ? "pass" : "fail") + "\" id=\"verdict\">" +
            escapeXml(w.said(verdictText(s))) + "</p>\n";
    if (s.passed && !s.unjudged.empty())
        html +=
            "<p class=\"fail\" id=\"unjudged\">" + w("Not judged:") + " " + escapeXml(w.said(s.unjudged)) + "</p>\n";
    html += runCharts(run, s, w) + capacitySection(s, w) + summaryTable(s, w) + judgementTables(s, w);
    html += sectionsHtml(reportSections(run, s, o), w) + closingParts(run, s, w);
    // the data behind the charts, for tools that read the page
    html += "<script type=\"application/json\" id=\"stampede-summary\">" + escapeXml(summaryToJson(s)) + "</script>\n";
    html += "</body></html>\n";
    return html;
}

CompareResult compareRuns(const RunSummary& base, const RunSummary& cand, double tolerance)
{
    CompareResult out;
    auto add = [&](const std::string& scope, const MetricsSummary& b, const MetricsSummary& c) {
        struct M
        {
            const char* name;
            double b, c;
            bool higherIsWorse;
            double noise;
            const char* unit;
        };
        const M metrics[] = {
            {"rate", b.rate, c.rate, false, 0, "/s"},
            {"error_rate", b.errorRatePct(), c.errorRatePct(), true, 0.1, "%"}, // percent, as everywhere
            {"p50", b.latency.p50, c.latency.p50, true, 1, "ms"},
            {"p90", b.latency.p90, c.latency.p90, true, 1, "ms"},
            {"p95", b.latency.p95, c.latency.p95, true, 1, "ms"},
            {"p99", b.latency.p99, c.latency.p99, true, 1, "ms"},
            {"p999", b.latency.p999, c.latency.p999, true, 1, "ms"},
            {"max", b.latency.max, c.latency.max, true, 1, "ms"},
        };
        for (const auto& m : metrics) {
            CompareRow r{scope, m.name, m.b, m.c, 0, false, false, m.unit};
            r.fromZero = m.b == 0 && m.c != 0; // no ratio from zero: worse (or better) by its own size
            r.change = m.b != 0 ? (m.c - m.b) / m.b : 0.0;
            const double worse = r.fromZero ? (m.higherIsWorse ? 1.0 : -1.0) : m.higherIsWorse ? r.change : -r.change;
            r.regression = worse > tolerance && std::abs(m.c - m.b) > m.noise;
            out.regressed |= r.regression;
            out.rows.push_back(r);
        }
    };
    add("total", base.total, cand.total);
    for (const auto& bs : base.steps)
        for (const auto& cs : cand.steps)
            if (bs.name == cs.name)
                add(bs.name, bs, cs);
    // a plan's scenarios and groups, by name, as thresholds name them
    for (const auto& bs : base.scenarios)
        for (const auto& cs : cand.scenarios)
            if (bs.name == cs.name)
                add("scenario " + bs.name, bs, cs);
    for (const auto& bg : base.groups)
        for (const auto& cg : cand.groups)
            if (bg.name == cg.name)
                add("group " + bg.name, bg, cg);
    return out;
}

std::string compareToText(const CompareResult& r, const RunSummary& base, const RunSummary& cand)
{
    std::string out = "baseline  " + base.runId + "  (" + base.scenario + ")\ncandidate " + cand.runId + "  (" +
                      cand.scenario + ")\n";
    char line[256];
    std::snprintf(line, sizeof line, "%-24s %-11s %15s %15s %9s\n", "scope", "metric", "baseline", "candidate",
                  "change");
    out += line;
    for (const auto& row : r.rows) {
        char change[32];
        if (row.fromZero)
            std::snprintf(change, sizeof change, "%9s", "new");
        else
            std::snprintf(change, sizeof change, "%+8.1f%%", row.change * 100);
        std::snprintf(line, sizeof line, "%-24s %-11s %12.3f %-2s %12.3f %-2s %s%s\n", row.scope.substr(0, 24).c_str(),
                      row.metric.c_str(), row.baseline, row.unit, row.candidate, row.unit, change,
                      row.regression ? "  REGRESSION" : "");
        out += line;
    }
    out += r.regressed ? "result: REGRESSION\n" : "result: no regression\n";
    return out;
}

} // namespace stampede
