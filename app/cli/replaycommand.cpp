// `stampede-cli replay`: recorded traffic (an access log, a HAR file or a
// project's traffic set) replayed at its own timing, sped up, amplified and
// masked, on the run path (engine/run/replaystep.h) with the run's options.
#include "cli.h"
#include "runoptions.h"
#include "runsetup.h"

#include "core/number.h"
#include "core/text.h"
#include "store/projectstore.h"
#include "traffic/replayplan.h"
#include "traffic/trafficfile.h"
#include "traffic/trafficstore.h"

#include "stampede/v1/scenario.pb.h"

#include <cstdio>
#include <fstream>

namespace stampede::cli {

namespace {

const char* kReplayUsage =
    "Usage: stampede-cli replay TRAFFIC --target URL [--speed X] [--amplify N] [--offset SPEC ...]\n"
    "                           [--mask RULE ...] [--format F] [--host HOST=URL ...] [--loop] [OPTIONS]\n"
    "\n"
    "Sends recorded requests at their own timing: request i at start + (t_i - t_0) / speed,\n"
    "its latency measured from that intended time. Across engines and threads a client's\n"
    "requests stay on one of them, in order.\n"
    "\n"
    "  TRAFFIC               an access log (plain or gzip'd), a HAR 1.2 file (*.har), or\n"
    "                        PROJECT.stampede@NAME: a traffic set stored by `stampede-cli import`\n"
    "  --target URL          the server the requests go to, http(s)://host:port (with --mock: the mock)\n"
    "  --host HOST=URL       a recorded host's requests go to URL instead (repeatable)\n"
    "  --speed X             time compressed X times (2: twice as fast), above 0, at most 1000; default 1\n"
    "  --amplify N           each request sent N times (1 to 100); copies 1.. take the offsets\n"
    "  --offset SPEC         how a copy is told apart: query:NAME+N (N x copy added to the number),\n"
    "                        json:KEY+N, header:NAME+N, or FIELD:NAME~SUFFIX (${copy} is the copy's\n"
    "                        number, ${$stressTag} the run's tag, ${$guid}, ${$randomInt}... a fresh\n"
    "                        value for each copy) (repeatable)\n"
    "  --mask RULE           for a file: masked before anything is sent, as `stampede-cli import --mask`\n"
    "  --format F            for a log: nginx (default), har, or an nginx log_format\n"
    "  --loop                start over at the end, until --duration\n"
    "  --include-path REGEX  only requests whose path (before '?') this matches; --exclude-path REGEX:\n"
    "                        none it matches\n"
    "  --method M            only requests of this method (repeatable)\n"
    "  --status S            only requests whose recorded answer was S: 200, 5xx or 500-599 (repeatable)\n"
    "  --sample PERCENT      this share of the requests selected (above 0, at most 100), the same ones\n"
    "                        every run\n"
    "  --set-header 'N: V'   header N set to V on every request, replacing a recorded one (repeatable)\n"
    "  --remove-header N     header N taken off every request (repeatable)\n"
    "  --rewrite-host HOST   the Host header sent instead of the recorded one\n"
    "  --trace               a W3C traceparent on every request: a recorded one's trace id is kept\n"
    "                        (amplified copies get their own, derived from it, the same every run),\n"
    "                        the span id is new; --new-trace-ids: new trace ids for every request\n"
    "  --diff-against URL    send each request to this second server too, once the target answered it,\n"
    "                        and compare the answers (a check \"same as first\" of its step): status,\n"
    "                        headers (not date, server, content-length, etag and the like), the body\n"
    "                        as JSON when both are (objects by key), else byte for byte\n"
    "  --diff-ignore X       left out of that comparison: a JSON path ($.ts, $.items[*].id) or\n"
    "                        header:NAME (repeatable)\n"
    "  --diff-tolerance T    numbers equal within this share of the larger: 1% or 0.01\n"
    "  --compare-recorded    judge each answer against its record: its status must be the recorded\n"
    "                        one (a check \"recorded status\" of each server's step, counted pass/fail;\n"
    "                        a request recorded without a status is not judged)\n"
    "  --client-key KEY      query:NAME or header:NAME: whose requests stay on one engine thread, in\n"
    "                        order (default: the recorded client address)\n"
    "  --duration D          the run's length; default: the traffic's, compressed by the speed\n"
    "  --connections N       the connection pool (default 50); requests that find it busy wait (late)\n"
    "  --summary-json FILE   the summary, with \"replay\" and each second's \"planned\"\n"
    "\n"
    "Every option of `stampede-cli run` applies too (--engines, --agents, TLS, --http, --threads,\n"
    "--threshold, --breaker, --project, --mock, ...), except those that make requests (--url,\n"
    "--rate, --method, --body, --header, gRPC).\n"
    "\n"
    "Exit codes: 0 the run passed, 1 a threshold failed (or the breaker stopped it), 2 bad input\n"
    "(a speed <= 0, an unknown $variable in a log_format, an offset on a key the traffic never\n"
    "has, ...), 3 the run could not be carried out.\n";

int refuse(const std::string& error, int code)
{
    std::fprintf(stderr, "stampede-cli replay: %s\n", error.c_str());
    return code;
}

struct ReplayArgs
{
    std::string target, format, clientKey, includePath, excludePath, rewriteHost, diffAgainst, diffTolerance;
    std::vector<std::string> offsets, masks, hosts, methods, statuses, setHeaders, removeHeaders, diffIgnore;
    std::optional<double> speed, sample;
    std::optional<std::uint32_t> amplify;
    bool loop = false, newTraceIds = false, compareRecorded = false;
};

// Takes the replay's own options out of `args`; the rest are the run's.
bool takeOwnOptions(std::vector<std::string>& args, ReplayArgs& a, std::string& error, bool& help)
{
    std::vector<std::string> rest;
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& arg = args[r.pos];
        auto is = [&](const std::string& flag) { return arg == flag || arg.rfind(flag + "=", 0) == 0; };
        std::string v;
        if (arg == "-h" || arg == "--help") {
            help = true;
            return true;
        }
        if (arg == "--loop" || arg == "--new-trace-ids" || arg == "--compare-recorded") {
            (arg == "--loop" ? a.loop : arg == "--new-trace-ids" ? a.newTraceIds : a.compareRecorded) = true;
            continue;
        }
        const char* flags[] = {"--target",       "--format",      "--offset",        "--mask",
                               "--host",         "--speed",       "--amplify",       "--client-key",
                               "--method",       "--status",      "--include-path",  "--exclude-path",
                               "--set-header",   "--sample",      "--remove-header", "--rewrite-host",
                               "--diff-against", "--diff-ignore", "--diff-tolerance"};
        const char* flag = nullptr;
        for (const char* f : flags)
            if (is(f))
                flag = f;
        if (!flag) {
            rest.push_back(arg);
            continue;
        }
        if (!r.value(flag, v, error))
            return false;
        const std::string f = flag;
        if (f == "--target")
            a.target = v;
        else if (f == "--diff-against")
            a.diffAgainst = v;
        else if (f == "--diff-ignore")
            a.diffIgnore.push_back(v);
        else if (f == "--diff-tolerance")
            a.diffTolerance = v;
        else if (f == "--format")
            a.format = v;
        else if (f == "--offset")
            a.offsets.push_back(v);
        else if (f == "--mask")
            a.masks.push_back(v);
        else if (f == "--host")
            a.hosts.push_back(v);
        else if (f == "--client-key")
            a.clientKey = v;
        else if (f == "--method")
            a.methods.push_back(v);
        else if (f == "--status")
            a.statuses.push_back(v);
        else if (f == "--include-path")
            a.includePath = v;
        else if (f == "--exclude-path")
            a.excludePath = v;
        else if (f == "--set-header")
            a.setHeaders.push_back(v);
        else if (f == "--remove-header")
            a.removeHeaders.push_back(v);
        else if (f == "--rewrite-host")
            a.rewriteHost = v;
        else if (f == "--sample") {
            double x = 0;
            if (!parseDecimal(v, "--sample", 0, 100, x, error))
                return false;
            if (x <= 0) {
                error = "--sample: a percentage above 0 (got " + v + ")";
                return false;
            }
            a.sample = x;
        } else if (f == "--speed") {
            double x = 0;
            if (!parseDecimal(v, "--speed", 0, kMaxReplaySpeed, x, error))
                return false;
            if (x <= 0) {
                error = "--speed: must be above 0 (got " + v + ")";
                return false;
            }
            a.speed = x;
        } else {
            std::uint64_t n = 0;
            if (!parseWhole(v, "--amplify", 1, kMaxAmplify, n, error))
                return false;
            a.amplify = std::uint32_t(n);
        }
    }
    args = std::move(rest);
    return true;
}

bool exists(const std::string& path)
{
    return bool(std::ifstream(path));
}

// The traffic's requests into the step: a project's set as its stored
// chunks, a file read (and masked) here once.
bool loadTraffic(const std::string& source, const ReplayArgs& a, v1::Replay& r, std::string& error)
{
    const std::size_t at = source.rfind('@');
    if (at != std::string::npos && !exists(source) && exists(source.substr(0, at))) {
        if (!a.masks.empty() || !a.format.empty()) {
            error = "--mask and --format are for files: a project's traffic set was read and masked when imported";
            return false;
        }
        auto store = ProjectStore::open(source.substr(0, at), error);
        if (!store) {
            error = source.substr(0, at) + ": " + error;
            return false;
        }
        TrafficStore traffic(*store);
        const std::string name = source.substr(at + 1);
        std::vector<std::string> chunks;
        const std::int64_t item = traffic.find(name);
        if (!item || !traffic.chunks(item, chunks)) {
            error = source.substr(0, at) + ": " + traffic.error();
            return false;
        }
        r.set_traffic(name);
        r.set_data(trafficSetOfChunks(chunks));
        return true;
    }
    TrafficImport in;
    std::string where;
    if (!readMaskedTrafficFile(source, a.format, a.masks, in, where, error)) {
        error = (where == "file" ? source : "--" + where.substr(0, where.find('['))) + ": " + error;
        return false;
    }
    for (const TrafficProblem& p : in.problems) // never dropped in silence; their text may be unmasked
        std::fprintf(stderr, "%s: line %llu: %s\n", source.c_str(), static_cast<unsigned long long>(p.line),
                     p.why.c_str());
    if (in.bad)
        std::fprintf(stderr, "%s: %llu of %llu lines could not be read and are not replayed\n", source.c_str(),
                     static_cast<unsigned long long>(in.bad), static_cast<unsigned long long>(in.lines));
    r.set_file(source);
    r.set_format(a.format);
    r.set_data(encodeTrafficSet(in.records));
    return true;
}

bool makeScenario(const std::string& source, const ReplayArgs& a, v1::Scenario& s, std::string& error)
{
    s.set_name("replay " + source.substr(source.rfind('/') + 1));
    v1::Replay& r = *s.add_steps()->mutable_replay();
    if (!loadTraffic(source, a, r, error))
        return false;
    r.set_target(a.target);
    if (a.speed)
        r.set_speed(*a.speed);
    if (a.amplify)
        r.set_amplify(*a.amplify);
    r.set_loop(a.loop);
    r.set_client_key(a.clientKey);
    r.set_include_path(a.includePath);
    r.set_exclude_path(a.excludePath);
    for (const std::string& m : a.methods)
        r.add_methods(m);
    for (const std::string& st : a.statuses)
        r.add_statuses(st);
    if (a.sample)
        r.set_sample(*a.sample);
    for (const std::string& h : a.setHeaders) {
        const std::size_t colon = h.find(':');
        if (colon == std::string::npos || colon == 0) {
            error = "--set-header: \"" + h + "\" is not of the form \"Name: value\"";
            return false;
        }
        (*r.mutable_set_headers())[h.substr(0, colon)] = std::string(trimSpaces(std::string_view(h).substr(colon + 1)));
    }
    for (const std::string& h : a.removeHeaders)
        r.add_remove_headers(h);
    r.set_rewrite_host(a.rewriteHost);
    r.set_new_trace_ids(a.newTraceIds);
    r.set_compare_recorded(a.compareRecorded);
    r.set_diff_against(a.diffAgainst);
    for (const std::string& d : a.diffIgnore)
        r.add_diff_ignore(d);
    if (!a.diffTolerance.empty()) {
        std::string t = a.diffTolerance;
        const bool percent = t.back() == '%';
        if (percent)
            t.pop_back();
        double v = 0;
        if (!parseDecimal(t, "--diff-tolerance", 0, percent ? 100 : 1, v, error)) {
            error = "--diff-tolerance: \"" + a.diffTolerance + "\" is not a share (1% or 0.01)";
            return false;
        }
        r.set_diff_tolerance(percent ? v / 100 : v);
    }
    if (a.diffAgainst.empty() && (!a.diffIgnore.empty() || !a.diffTolerance.empty())) {
        error = "--diff-ignore and --diff-tolerance say how --diff-against compares: give --diff-against";
        return false;
    }
    for (const std::string& text : a.offsets) {
        const auto off = ReplayOffset::parse(text, error);
        if (!off) // the error names the offset
            return false;
        v1::ReplayOffset& o = *r.add_offsets();
        (off->field == ReplayOffset::Field::Query     ? o.mutable_query()
         : off->field == ReplayOffset::Field::JsonKey ? o.mutable_json_key()
                                                      : o.mutable_header())
            ->assign(off->key);
        o.set_add(off->add);
        o.set_suffix(off->suffix);
    }
    for (const std::string& h : a.hosts) {
        const std::size_t eq = h.find('=');
        if (eq == std::string::npos || eq == 0 || eq + 1 == h.size()) {
            error = "--host: \"" + h + "\" is not of the form HOST=http://server:port";
            return false;
        }
        (*r.mutable_hosts())[h.substr(0, eq)] = h.substr(eq + 1);
    }
    return true;
}

} // namespace

int replayCommand(const std::vector<std::string>& given)
{
    std::vector<std::string> args = given;
    ReplayArgs a;
    std::string error;
    bool help = false;
    if (!takeOwnOptions(args, a, error, help) && !help)
        return refuse(error, BadInput);
    Options o;
    if (!help && !parseArgs(args, o, error, help))
        return refuse(error, BadInput);
    if (help) {
        std::fputs(kReplayUsage, stdout);
        return Passed;
    }
    if (o.scenarioFile.empty())
        return refuse("give the traffic to replay: an access log, a HAR file or PROJECT.stampede@SET", BadInput);
    if (a.target.empty() && a.hosts.empty() && !o.mock)
        return refuse("--target: give the server the requests go to (http://host:port), or --mock", BadInput);
    o.prepared = std::make_shared<v1::Scenario>();
    if (!makeScenario(o.scenarioFile, a, *o.prepared, error))
        return refuse(error, BadInput);
    const std::string source = o.scenarioFile;
    o.scenarioFile.clear();
    CliRun cli;
    int code = BadInput;
    if (!setUpRun(o, cli, error, code))
        return refuse(error, code);
    if (a.target.empty() && cli.mock) // --mock: the recording goes to the mock
        cli.request.scenario.mutable_steps(0)->mutable_replay()->set_target(cli.mock->baseUrl());
    cli.request.source = source;
    return carryOut(o, cli, "replay");
}

} // namespace stampede::cli
