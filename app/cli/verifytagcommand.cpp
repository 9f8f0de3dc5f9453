// `stampede-cli verify-tag REPORT[@RUN] --jaeger URL | --tempo URL`: did the
// run's stress tag reach every hop? The run's kept trace ids (a run with
// trace) are asked of the tracing system's query API, one trace at a time,
// and each service's spans counted with and without the tag
// (report/tagcheck.h): the isolation check the articles do by hand.
#include "cli.h"
#include "httpexchange.h"
#include "savedrunload.h"

#include "core/number.h"
#include "core/url.h"
#include "report/tagcheck.h"

#include <algorithm>
#include <cstdio>
#include <set>

namespace stampede::cli {

namespace {

const char* const kVerifyTagUsage =
    "Usage: stampede-cli verify-tag REPORT[@RUN] --jaeger URL | --tempo URL [--run ID] [--max-traces N]\n"
    "                               [--ca F]\n"
    "\n"
    "Asks the tracing system about the traces a run started (a run with --trace keeps a few trace ids\n"
    "of each step a second, at most 100 a step) and counts, per service, the spans that carry the\n"
    "run's stress tag (a tag, attribute, log field or baggage whose value is the run id, or holds\n"
    "stress_test=RUN) and those that do not: did the tag travel to the database, cache and queue?\n"
    "  --jaeger URL     Jaeger's query service (http://jaeger:16686): GET URL/api/traces/ID\n"
    "  --tempo URL      Grafana Tempo (http://tempo:3200): GET URL/api/traces/ID\n"
    "  --run ID         the run (its id st-... or number; default: the newest)\n"
    "  --max-traces N   ask at most N traces, spread over the steps (default 50, at most 1000)\n"
    "  --ca F           an https URL's CA (PEM)\n"
    "Exit codes: 0 every span of every trace found carried the tag, 1 some did not (named),\n"
    "2 bad input (a run without trace ids), 3 the tracing system could not be asked or found none.\n";

constexpr std::size_t kMaxTraces = 1000000;

// The trace ids to ask: each step's in turn, each id once (a flow's steps share their iteration's), at most `most`.
std::vector<std::string> chooseTraces(const std::vector<TraceSample>& kept, std::size_t most)
{
    std::map<std::uint32_t, std::vector<std::string>> byStep;
    for (const TraceSample& t : kept)
        byStep[t.step].push_back(t.trace);
    std::vector<std::string> out;
    std::set<std::string> seen;
    for (std::size_t k = 0; out.size() < most; ++k) {
        bool any = false;
        for (const auto& [step, ids] : byStep)
            if (k < ids.size()) {
                any = true;
                if (out.size() < most && seen.insert(ids[k]).second)
                    out.push_back(ids[k]);
            }
        if (!any)
            break;
    }
    return out;
}

int refuse(const std::string& error, int code)
{
    std::fprintf(stderr, "stampede-cli verify-tag: %s\n", error.c_str());
    return code;
}

} // namespace

int verifyTagCommand(const std::vector<std::string>& args)
{
    std::string report, runId, jaeger, tempo, maxTraces, caFile, error;
    ArgReader r{args};
    for (; !r.done() && error.empty(); ++r.pos) {
        const std::string& a = args[r.pos];
        auto is = [&](const char* f) { return a == f || a.rfind(std::string(f) + "=", 0) == 0; };
        if (a == "-h" || a == "--help") {
            std::fputs(kVerifyTagUsage, stdout);
            return Passed;
        }
        if (is("--jaeger"))
            r.value("--jaeger", jaeger, error);
        else if (is("--tempo"))
            r.value("--tempo", tempo, error);
        else if (is("--run"))
            r.value("--run", runId, error);
        else if (is("--max-traces"))
            r.value("--max-traces", maxTraces, error);
        else if (is("--ca"))
            r.value("--ca", caFile, error);
        else if (!a.empty() && a[0] == '-')
            error = "unknown option " + a;
        else if (report.empty())
            report = a;
        else
            error = "one report, not \"" + a + "\" too";
    }
    std::uint64_t most = 50;
    if (error.empty() && report.empty())
        error = "give REPORT (a report or project file, FILE@RUN for a run of it)";
    if (error.empty() && jaeger.empty() == tempo.empty())
        error = "give --jaeger URL or --tempo URL (one of them)";
    if (error.empty() && !maxTraces.empty())
        parseWhole(maxTraces, "--max-traces", 1, 1000, most, error);
    const std::string base = jaeger.empty() ? tempo : jaeger;
    std::optional<Url> url;
    if (error.empty() && !(url = Url::parse(base, error)))
        error = (jaeger.empty() ? "--tempo: " : "--jaeger: ") + error;
    if (error.empty() && url->scheme == "https" && caFile.empty())
        error = "an https query URL needs --ca (the tracing system's CA)";
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli verify-tag: %s\n\n%s", error.c_str(), kVerifyTagUsage);
        return BadInput;
    }
    Loaded l;
    if (!load(report, runId, l, error))
        return refuse(error, BadInput);
    if (l.run.traces.empty())
        return refuse("run " + l.run.info.runId +
                          " kept no trace ids: run it with --trace (the scenario's \"trace\": "
                          "true) to verify its tag",
                      BadInput);
    std::vector<std::string> ids = chooseTraces(l.run.traces, kMaxTraces); // in the order asked
    const std::size_t kept = ids.size();
    ids.resize(std::min<std::size_t>(kept, most));
    std::string prefix = url->target == "/" ? std::string() : url->target;
    while (!prefix.empty() && prefix.back() == '/')
        prefix.pop_back();
    const std::string address = (url->host.find(':') != std::string::npos ? "[" + url->host + "]" : url->host) + ":" +
                                std::to_string(url->port);
    TagCheck check;
    for (const std::string& id : ids) {
        const std::string request = "GET " + prefix + "/api/traces/" + id + " HTTP/1.1\r\nHost: " + url->hostHeader() +
                                    "\r\nAccept: application/json\r\nConnection: close\r\n\r\n";
        int status = 0;
        std::string body;
        if (!exchange(address, url->scheme == "https" ? caFile : std::string(), request, status, body, error))
            return refuse("cannot ask " + base + ": " + error, RunFailed);
        if (status == 404) {
            ++check.asked; // not found: its spans did not reach the tracing system (sampled out, or lost)
            continue;
        }
        if (status != 200)
            return refuse(base + " answered HTTP " + std::to_string(status) + " for trace " + id, RunFailed);
        if (!addTraceAnswer(body, l.run.info.runId, check, error))
            return refuse(base + ", trace " + id + ": " + error, RunFailed);
    }
    std::printf("run %s: %zu trace ids kept, %zu asked of %s, %zu found\n\n", l.run.info.runId.c_str(), kept,
                check.asked, base.c_str(), check.found);
    if (check.found == 0)
        return refuse("the tracing system holds none of the run's traces (sampled out, another system, or kept "
                      "elsewhere): nothing to verify",
                      RunFailed);
    std::fputs(tagCheckTable(check).c_str(), stdout);
    if (check.reachedEveryHop()) {
        std::printf("\nverdict: the stress tag reached every hop (%zu services)\n", check.services.size());
        return Passed;
    }
    std::string list;
    for (const std::string& name : check.untagged()) {
        const HopTally& t = check.services.at(name);
        list += (list.empty() ? "" : "; ") + name + " (" + std::to_string(t.spans - t.tagged) + " of " +
                std::to_string(t.spans) + " spans without it)";
    }
    std::printf("\nverdict: the stress tag did not reach: %s\n", list.c_str());
    return ThresholdFailed;
}

} // namespace stampede::cli
