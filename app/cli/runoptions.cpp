#include "runoptions.h"

#include <algorithm>

#include "bundle/bundlefile.h"
#include "bundle/environment.h"
#include "bundle/newmanrun.h"
#include "bundle/projectscenario.h"
#include "cli.h"
#include "core/durationtext.h"
#include "core/number.h"
#include "core/text.h"
#include "core/textfile.h"
#include "plan/scenarioplan.h"

#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/scenario.pb.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

namespace stampede::cli {

const char* kRunUsage =
    "Usage: stampede-cli run SCENARIO.json|BUNDLE.stbundle [--env NAME] [OPTIONS]\n"
    "       stampede-cli run PROJECT.stampede@SCENARIO [--env NAME] [OPTIONS]\n"
    "       stampede-cli run PROJECT.stampede@COLLECTION[/FOLDER] [--iterations N] [-c USERS] [OPTIONS]\n"
    "       stampede-cli run --url URL [--connections C] [--rate R] [--duration 10s] [OPTIONS]\n"
    "       stampede-cli run --grpc HOST:PORT --proto F.proto --call pkg.Service/Method --data JSON\n"
    "                        [--rate R | --connections C] [OPTIONS]\n"
    "\n"
    "Runs a scenario file (proto3 JSON of stampede.v1.Scenario), a bundle, a\n"
    "project's scenario by name (read-only: the workbench may hold the project;\n"
    "--project P saves the run in it), or a quick load\n"
    "against one URL: without --rate a closed model of C virtual users, one\n"
    "connection each, no think time (like wrk); with --rate an open model at R\n"
    "requests per second over a pool of C connections, latency measured from each\n"
    "request's intended start (coordinated omission corrected).\n"
    "\n"
    "A project's collection or folder runs as newman runs it: its requests in order\n"
    "(folders depth first), as written, with the project's environment; every\n"
    "request is sent whatever failed before it (--bail: the run stops at the first\n"
    "failure); the run fails (exit 1) when a test or a script failed or a request\n"
    "could not be made or answered, as newman's exit code (an HTTP status alone is\n"
    "no failure). By one virtual user for one iteration unless -c USERS,\n"
    "--iterations N (per user, at most 1000000), -d (a time instead) or --rate (an\n"
    "open model over -c connections) say otherwise. A NAME that is both a scenario\n"
    "and a collection, or several, is refused, naming them.\n"
    "\n"
    "A collection run takes newman's files beside it:\n"
    "  -e, --environment F   a Postman environment export: its values instead of the project's\n"
    "                        environment (UTF-8 or UTF-16; disabled values left out)\n"
    "  -g, --globals F       a Postman globals export: values below the collection's own\n"
    "  --iteration-data F    a CSV (header row) or JSON (array of objects) file: a row an\n"
    "                        iteration, {{column}} above the environment, pm.iterationData in\n"
    "                        scripts; its rows are the iterations unless --iterations says\n"
    "  --env-var NAME=VALUE  an environment value over the file's (repeatable)\n"
    "  --global-var NAME=VALUE  a global value (repeatable)\n"
    "  --delay-request D     a pause between two requests: milliseconds as newman's (200)\n"
    "                        or a duration (1.5s)\n"
    "  --no-default-header NAME  leave out one of the headers newman sends on every request\n"
    "                        (Accept: */*, Accept-Encoding: gzip, deflate, br, Cache-Control:\n"
    "                        no-cache, Postman-Token: a fresh uuid, Connection: keep-alive)\n"
    "\n"
    "Quick mode:\n"
    "  --url URL             target (http://host:port/path)\n"
    "  -c, --connections C   virtual users (closed) or pool size (open); default 50\n"
    "  -r, --rate R          open model: requests per second\n"
    "  -d, --duration D      run time, e.g. 10s, 500ms, 2m; default 10s\n"
    "  -m, --method M        HTTP method; default GET (POST when --body is given)\n"
    "  -H, --header 'K: V'   a request header (repeatable)\n"
    "  -b, --body TEXT       request body\n"
    "  --timeout D           per-request timeout; default 10s\n"
    "\n"
    "gRPC quick mode (a unary call, over HTTP/2):\n"
    "  --grpc TARGET         host:port or http://host:port (h2c), https://host:port (TLS)\n"
    "  --proto F             a .proto file defining the method (repeatable); imports are\n"
    "                        looked for beside it, in --import-path, then the well-known types\n"
    "  --import-path D       another directory for imports (repeatable)\n"
    "  --reflection          fetch the descriptors from the server (gRPC server reflection)\n"
    "  --call M              the method: package.Service/Method\n"
    "  --data JSON           the request message as JSON, may hold ${var}; default {}\n"
    "  -H 'key: value'       metadata (repeatable); --timeout D is the deadline (default 10s)\n"
    "\n"
    "HTTP version (both modes):\n"
    "  --http 1.1|2          with http://, 2 is h2c with prior knowledge; with https://,\n"
    "                        ALPN decides unless forced (default: 1.1 for http://, ALPN for https://)\n"
    "  --streams M           HTTP/2: requests in flight per connection (default 1)\n"
    "\n"
    "TLS (https URLs; both modes, over the scenario's own settings):\n"
    "  -k, --insecure        do not verify the server's certificate (verified by default)\n"
    "  --cacert F            verify servers against the CA certificate(s) in F (PEM)\n"
    "  --cert F --key K      present this client certificate (PEM) and key\n"
    "  --server-name NAME    SNI and the name verified, instead of the URL's host\n"
    "  --no-tls-resume       a full handshake on every new connection (as new clients make),\n"
    "                        instead of resuming the session of the connection before\n"
    "  --own-tls-records     TLS 1.3 records sealed and opened by the engine's own record layer\n"
    "                        past OpenSSL's handshake (the same ciphers, about 7 % less CPU);\n"
    "                        OpenSSL's record layer is the default (--openssl-records says so)\n"
    "\n"
    "Both modes:\n"
    "  -t, --threads T       worker threads of each engine; default: the CPUs it may use (its\n"
    "                        affinity and cgroup quota) over the engines\n"
    "  --threshold EXPR      pass/fail condition, e.g. 'p99 < 200ms', 'error_rate < 0.1%' (repeatable)\n"
    "  --breaker RULE        judged live every second: 'p99 > 300ms for 3x5s: stop' (3 windows of 5 s in a\n"
    "                        row; actions warn, degrade N%, stop; a stop ends the run, exit 1) (repeatable)\n"
    "  --var NAME=VALUE      bind ${NAME} to a constant, overriding the scenario (repeatable)\n"
    "  --stress-header NAME  header that carries the run's stress tag; default X-Stress-Tag\n"
    "  --no-stress-tag       do not send the stress tag header\n"
    "  --trace               a W3C traceparent on every request and gRPC call: a trace id per\n"
    "                        iteration of a virtual user, a span id per request (as trace: true)\n"
    "  --mock [RULES.json]   start the embedded mock server on a free loopback port for\n"
    "                        this run and bind ${mock_url} to its base URL\n"
    "  --env NAME            a bundle's or a project's environment: its values become constants\n"
    "                        (a project's scenario takes the workbench's current one by default)\n"
    "  --summary-json FILE   write the summary as JSON (format in docs/reports.md)\n"
    "  --out KIND=TARGET     also send the figures, live, to (repeatable):\n"
    "                          prometheus=HOST:PORT  a /metrics endpoint for Prometheus to scrape\n"
    "                                                (stampede_requests_total{step}, ...)\n"
    "                          prometheus-rw=URL     every second pushed to a remote write receiver\n"
    "                                                (http://127.0.0.1:9090/api/v1/write)\n"
    "                          jsonl=FILE            every second as a JSON line, written to FILE.part\n"
    "                                                as it goes and renamed FILE at the end\n"
    "  -q, --quiet           no per-second status line\n"
    "  --project FILE        save the run, second by second, in this project (*.stampede)\n"
    "  --report FILE         save the run in a new standalone report file (*.streport)\n"
    "\n"
    "Engines (the load never runs in this process: it runs on agents):\n"
    "  --engines N           start N local agents on loopback (default: one per NUMA node of the\n"
    "                        CPUs it may use: one on a machine of one node)\n"
    "  --agents A,B,...      use running agents instead (see stampede-cli agent): host:port,\n"
    "                        dns:NAME:PORT (every A/AAAA record of NAME, as a Kubernetes headless\n"
    "                        Service gives one per pod) or file:PATH (one host:port per line)\n"
    "  --min-agents N        wait (at most 60 s, looking names up again each second) until N of them\n"
    "                        answer, and run on those that do\n"
    "  --agents-with K=V     only the agents started with --label K=V (repeatable: every one)\n"
    "  --elastic             look --agents up again every 10 s: an agent found then joins the run\n"
    "                        and takes shares from those that run the most, from the next second\n"
    "  --shares N            split the run into N shares (default: one per agent, at most 1024);\n"
    "                        each agent runs an even part of them (so that agents can join)\n"
    "  --token-file F        the agents' token (remote agents)\n"
    "  --ca F                verify the agents' TLS certificates against this CA (PEM)\n"
    "  --on-agent-loss P     when an agent is lost mid-run: rebalance (its share to the\n"
    "                        survivors from that moment on; the default for open and\n"
    "                        replay plans), abort (the default for the others) or continue\n"
    "  --dead-man S          agents stop by themselves when this controller is silent S s (default 3)\n"
    "  --agent-tls-name N    with --ca: check the agents' certificates for the name N (a\n"
    "                        Kubernetes Service's, with --agents dns:) instead of each address\n"
    "  --control ADDR        serve a control endpoint (HTTP): GET /v1/status, POST /v1/pause,\n"
    "                        /v1/resume, /v1/scale {\"factor\": 0.5}|{\"rate\": 800}, /v1/stop\n"
    "                        (stampede-cli control ADDR ...); off loopback it needs --token-file\n"
    "                        and --control-cert C --control-key K (TLS), as agents do\n"
    "  --pin-engines         bind local agent i to CPU i (for benchmarks)\n"
    "\n"
    "A status line per second goes to stderr; the summary table to stdout.\n"
    "Exit codes: 0 passed, 1 a threshold failed, 2 bad input, 3 the run could not be carried out\n"
    "(it could not start, was stopped by Ctrl-C or SIGTERM, lost an engine, or completed no request).\n";

bool readFile(const std::string& path, std::string& out)
{
    std::string why;
    return readWholeFile(path, out, why);
}

namespace {

bool durationArg(const std::string& text, const char* flag, Nanos& out, std::string& error)
{
    const auto d = parseDuration(text);
    if (!d) {
        error = std::string(flag) + ": \"" + text + "\" is not a duration (e.g. 10s, 500ms, 2m)";
        return false;
    }
    if (*d <= 0) {
        error = std::string(flag) + ": must be positive (got " + text + ")";
        return false;
    }
    // the same bounds as a scenario file's (core/number.h)
    const std::int64_t max =
        std::string(flag) == "--timeout" ? RunLimits::kTimeoutSeconds : RunLimits::kDurationSeconds;
    if (*d > max * kNanosPerSecond) {
        error = std::string(flag) + ": " + text + " is out of range (at most " + std::to_string(max / 3600) + " h)";
        return false;
    }
    out = *d;
    return true;
}

} // namespace

bool parseArgs(const std::vector<std::string>& args, Options& o, std::string& error, bool& help)
{
    // In quick mode a .json after --mock is its rules (there is no scenario file to take it for).
    const bool quickMode = std::any_of(args.begin(), args.end(), [](const std::string& a) {
        return a == "--url" || a == "--grpc" || a.rfind("--url=", 0) == 0 || a.rfind("--grpc=", 0) == 0;
    });
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        auto is = [&](const char* s, const char* l) {
            return a == s || (l && (a == l || a.rfind(std::string(l) + "=", 0) == 0));
        };
        auto val = [&](const char* name, std::string& out, bool allowEmpty = false) {
            return r.value(name, out, error, allowEmpty);
        };
        if (a == "-h" || a == "--help") {
            help = true;
            return true;
        }
        std::string v;
        if (is("--url", "--url")) {
            if (!val("--url", o.url))
                return false;
        } else if (is("--grpc", "--grpc")) {
            if (!val("--grpc", o.grpcTarget))
                return false;
        } else if (is("--proto", "--proto")) {
            if (!val("--proto", v))
                return false;
            o.protos.push_back(v);
        } else if (is("--import-path", "--import-path")) {
            if (!val("--import-path", v))
                return false;
            o.importPaths.push_back(v);
        } else if (a == "--reflection") {
            o.reflection = true;
        } else if (is("--call", "--call")) {
            if (!val("--call", o.call))
                return false;
        } else if (is("--data", "--data")) {
            if (!val("--data", o.data))
                return false;
            o.dataSet = true;
        } else if (is("--iterations", "--iterations")) {
            if (!val("--iterations", o.iterations))
                return false;
        } else if (a == "--bail") {
            o.bail = true;
        } else if (is("--delay-request", "--delay-request")) {
            if (!val("--delay-request", o.delayRequest))
                return false;
        } else if (is("--no-default-header", "--no-default-header")) {
            std::string v;
            if (!val("--no-default-header", v))
                return false;
            o.noDefaultHeaders.push_back(v);
        } else if (is("-e", "--environment")) {
            if (!val(a == "-e" ? "-e" : "--environment", o.environmentFile))
                return false;
        } else if (is("-g", "--globals")) {
            if (!val(a == "-g" ? "-g" : "--globals", o.globalsFile))
                return false;
        } else if (is("--iteration-data", "--iteration-data")) {
            if (!val("--iteration-data", o.iterationDataFile))
                return false;
        } else if (is("--env-var", "--env-var") || is("--global-var", "--global-var")) {
            const bool env = a.rfind("--env-var", 0) == 0;
            if (!val(env ? "--env-var" : "--global-var", v))
                return false;
            if (v.find('=') == std::string::npos || v.front() == '=') {
                error = std::string(env ? "--env-var" : "--global-var") + ": NAME=VALUE (got \"" + v + "\")";
                return false;
            }
            (env ? o.envVars : o.globalVars).push_back(v);
        } else if (is("-c", "--connections")) {
            if (!val(a == "-c" ? "-c" : "--connections", o.connections))
                return false;
        } else if (is("-r", "--rate")) {
            if (!val(a == "-r" ? "-r" : "--rate", o.rate))
                return false;
        } else if (is("-d", "--duration")) {
            if (!val(a == "-d" ? "-d" : "--duration", o.duration))
                return false;
        } else if (is("-t", "--threads")) {
            if (!val(a == "-t" ? "-t" : "--threads", o.threads))
                return false;
        } else if (is("-m", "--method")) {
            if (!val(a == "-m" ? "-m" : "--method", o.method))
                return false;
        } else if (is("-H", "--header")) {
            if (!val(a == "-H" ? "-H" : "--header", v))
                return false;
            o.headers.push_back(v);
        } else if (is("-b", "--body")) {
            if (!val(a == "-b" ? "-b" : "--body", o.body, true)) // an empty body is a body
                return false;
            o.bodySet = true;
        } else if (is("--timeout", "--timeout")) {
            if (!val("--timeout", o.timeout))
                return false;
        } else if (is("--http", "--http")) {
            if (!val("--http", o.http))
                return false;
        } else if (is("--streams", "--streams")) {
            if (!val("--streams", o.streams))
                return false;
        } else if (a == "-k" || a == "--insecure") {
            o.insecure = true;
        } else if (a == "--no-tls-resume") {
            o.noTlsResume = true;
        } else if (a == "--openssl-records") {
            o.opensslRecords = true;
        } else if (a == "--own-tls-records") {
            o.ownTlsRecords = true;
        } else if (is("--cacert", "--cacert")) {
            if (!val("--cacert", o.caCert))
                return false;
        } else if (is("--cert", "--cert")) {
            if (!val("--cert", o.clientCert))
                return false;
        } else if (is("--key", "--key")) {
            if (!val("--key", o.clientKey))
                return false;
        } else if (is("--server-name", "--server-name")) {
            if (!val("--server-name", o.serverName))
                return false;
        } else if (is("--breaker", "--breaker")) {
            if (!val("--breaker", v))
                return false;
            o.breakers.push_back(v);
        } else if (is("--threshold", "--threshold")) {
            if (!val("--threshold", v))
                return false;
            o.thresholds.push_back(v);
        } else if (is("--var", "--var")) {
            if (!val("--var", v))
                return false;
            o.vars.push_back(v);
        } else if (is("--stress-header", "--stress-header")) {
            if (!val("--stress-header", o.stressHeader))
                return false;
        } else if (a == "--no-stress-tag") {
            o.noStressTag = true;
        } else if (a == "--trace") {
            o.trace = true;
        } else if (a == "--mock" || a.rfind("--mock=", 0) == 0) {
            o.mock = true;
            if (a.size() > 7)
                o.mockRules = a.substr(7);
            else if (r.pos + 1 < args.size() && args[r.pos + 1].rfind("-", 0) != 0 && args[r.pos + 1].size() > 5 &&
                     args[r.pos + 1].substr(args[r.pos + 1].size() - 5) == ".json" &&
                     (!o.scenarioFile.empty() || quickMode))
                o.mockRules = args[++r.pos];
        } else if (is("--env", "--env")) {
            if (!val("--env", o.env))
                return false;
        } else if (is("--out", "--out")) {
            std::string spec;
            if (!val("--out", spec))
                return false;
            o.outputs.push_back(spec);
        } else if (is("--summary-json", "--summary-json")) {
            if (!val("--summary-json", o.summaryJson))
                return false;
        } else if (is("--engines", "--engines")) {
            if (!val("--engines", o.engines))
                return false;
        } else if (is("--agents", "--agents")) {
            if (!val("--agents", o.agents))
                return false;
        } else if (is("--min-agents", "--min-agents")) {
            if (!val("--min-agents", o.minAgents))
                return false;
        } else if (a == "--elastic") {
            o.elastic = true;
        } else if (is("--shares", "--shares")) {
            if (!val("--shares", o.shares))
                return false;
        } else if (is("--agents-with", "--agents-with")) {
            std::string label;
            if (!val("--agents-with", label))
                return false;
            o.agentsWith.push_back(label);
        } else if (is("--token-file", "--token-file")) {
            if (!val("--token-file", o.tokenFile))
                return false;
        } else if (is("--ca", "--ca")) {
            if (!val("--ca", o.caFile))
                return false;
        } else if (is("--on-agent-loss", "--on-agent-loss")) {
            if (!val("--on-agent-loss", o.onAgentLoss))
                return false;
        } else if (is("--dead-man", "--dead-man")) {
            if (!val("--dead-man", o.deadMan))
                return false;
        } else if (is("--agent-tls-name", "--agent-tls-name")) {
            if (!val("--agent-tls-name", o.agentTlsName))
                return false;
        } else if (is("--control", "--control")) {
            if (!val("--control", o.control))
                return false;
        } else if (is("--control-cert", "--control-cert")) {
            if (!val("--control-cert", o.controlCert))
                return false;
        } else if (is("--control-key", "--control-key")) {
            if (!val("--control-key", o.controlKey))
                return false;
        } else if (is("--project", "--project")) {
            if (!val("--project", o.projectFile))
                return false;
        } else if (is("--report", "--report")) {
            if (!val("--report", o.reportFile))
                return false;
        } else if (a == "--pin-engines") {
            o.pinEngines = true;
        } else if (a == "-q" || a == "--quiet") {
            o.quiet = true;
        } else if (!a.empty() && a[0] == '-') {
            error = "unknown option \"" + a + "\" (see stampede-cli run --help)";
            return false;
        } else if (o.scenarioFile.empty()) {
            o.scenarioFile = a;
        } else {
            error = "unexpected argument \"" + a + "\"";
            return false;
        }
    }
    return true;
}

bool grpcStep(const Options& o, v1::GrpcRequest& g, std::string& error);
bool buildHttpStep(const Options& o, v1::HttpRequest& rq, std::string& error);
bool applyCommonFlags(const Options& o, v1::Scenario& s, std::string& error);

// A subcommand's own scenario with the options that apply to it.
bool preparedScenario(const Options& o, v1::Scenario& s, std::string& baseDir, std::string& error)
{
    if (!o.url.empty() || !o.rate.empty() || !o.method.empty() || o.bodySet || !o.headers.empty() ||
        !o.timeout.empty() || !o.grpcTarget.empty() || !o.call.empty() || o.dataSet || !o.protos.empty()) {
        error = "the requests and their pace are the recording's: --url, --rate, --method, --body, --header, "
                "--timeout and the gRPC options do not apply";
        return false;
    }
    s = *o.prepared;
    baseDir = o.preparedBaseDir;
    std::uint64_t c = 0;
    if (!o.connections.empty()) {
        if (!parseWhole(o.connections, "--connections", 1, RunLimits::kConnections, c, error))
            return false;
        s.set_connections(std::uint32_t(c));
    }
    if (!o.duration.empty()) {
        Nanos d;
        if (!durationArg(o.duration, "--duration", d, error))
            return false;
        *s.mutable_duration() = durationOf(d);
    }
    return applyCommonFlags(o, s, error);
}

// A scenario file or a bundle (with --env, one of its environments applied).
bool fileScenario(const Options& o, v1::Scenario& s, std::string& baseDir, std::string& error)
{
    std::string json, why;
    if (!readWholeFile(o.scenarioFile, json, why)) {
        error = "cannot read scenario file \"" + o.scenarioFile + "\": " + why;
        return false;
    }
    if (looksLikeBundle(json)) {
        v1::Bundle bundle;
        if (!decodeBundle(json, bundle, error)) {
            error = o.scenarioFile + ": " + error;
            return false;
        }
        s = bundle.scenario();
        if (!o.env.empty()) {
            const v1::Environment* env = findEnvironment(bundle, o.env, error);
            if (!env)
                return false;
            applyEnvironment(s, *env);
        }
    } else if (!parseScenarioJson(json, s, error)) {
        error = o.scenarioFile + ": not a valid scenario: " + error;
        return false;
    } else if (!o.env.empty()) {
        error = "--env: a scenario file has no environments (a bundle or PROJECT.stampede@SCENARIO has)";
        return false;
    }
    const std::size_t slash = o.scenarioFile.rfind('/');
    baseDir = slash == std::string::npos ? "." : o.scenarioFile.substr(0, slash);
    return true;
}

// A collection run as newman runs one: one virtual user (-c users; with
// --rate an open model over -c connections), one iteration of its requests in
// order, or one per row of its iteration data (`dataRows`; --iterations N per
// user, or -d for a time instead).
bool collectionLoad(const Options& o, v1::Scenario& s, std::size_t dataRows, std::string& error)
{
    if (!o.url.empty() || !o.method.empty() || o.bodySet || !o.headers.empty() || !o.grpcTarget.empty() ||
        !o.call.empty() || o.dataSet || !o.protos.empty()) {
        error = "a collection's requests are its own: --url, --method, --body, --header and the gRPC options do "
                "not apply (the load flags -c, --rate, -d and --iterations do)";
        return false;
    }
    NewmanRun run;
    run.bail = o.bail;
    run.noDefaultHeaders = o.noDefaultHeaders;
    run.timed = !o.duration.empty();
    std::uint64_t c = 1, n = 0;
    if (!o.connections.empty() && !parseWhole(o.connections, "--connections", 1, RunLimits::kConnections, c, error))
        return false;
    run.users = std::uint32_t(c);
    if (!o.iterations.empty()) {
        if (!parseWhole(o.iterations, "--iterations", 1, RunLimits::kIterations, n, error))
            return false;
        run.iterations = n;
    }
    if (!o.delayRequest.empty()) { // newman's is a number of milliseconds; a duration reads as well
        const bool ms = o.delayRequest.find_first_not_of("0123456789") == std::string::npos;
        if (o.delayRequest != "0" &&
            !durationArg(ms ? o.delayRequest + "ms" : o.delayRequest, "--delay-request", run.delayRequest, error))
            return false;
    }
    if (!o.rate.empty()) {
        double rate;
        if (!parseDecimal(o.rate, "--rate", 0.001, RunLimits::kRate, rate, error))
            return false;
        run.rate = rate;
    }
    return shapeNewmanRun(s, run, dataRows, error);
}

bool newmanFlags(const Options& o)
{
    return !o.environmentFile.empty() || !o.globalsFile.empty() || !o.iterationDataFile.empty() || !o.envVars.empty() ||
           !o.globalVars.empty() || !o.noDefaultHeaders.empty() || !o.delayRequest.empty();
}

// newman's files and values beside a collection (--environment, --globals, --iteration-data, --env-var,
// --global-var), read; false with `error` naming the file.
bool newmanInputs(const Options& o, NewmanInputs& in, std::string& error)
{
    const auto read = [&](const std::string& path, const char* flag, std::string& bytes) {
        std::string why;
        if (readWholeFile(path, bytes, why))
            return true;
        error = std::string(flag) + ": cannot read " + path + ": " + why;
        return false;
    };
    std::string bytes, why;
    for (auto [path, flag, out] : {std::tuple(&o.environmentFile, "--environment", &in.environment),
                                   std::tuple(&o.globalsFile, "--globals", &in.globals)}) {
        if (path->empty())
            continue;
        if (!read(*path, flag, bytes))
            return false;
        if (!readPostmanVariables(bytes, out->emplace(), why)) {
            error = std::string(flag) + ": " + *path + ": " + why;
            return false;
        }
    }
    if (!o.iterationDataFile.empty()) {
        if (!read(o.iterationDataFile, "--iteration-data", bytes))
            return false;
        if (!readIterationData(bytes, o.iterationDataFile, in.data.emplace(), why)) {
            error = "--iteration-data: " + o.iterationDataFile + ": " + why;
            return false;
        }
    }
    for (auto [from, to] : {std::pair(&o.envVars, &in.envVars), std::pair(&o.globalVars, &in.globalVars)})
        for (const std::string& v : *from)
            to->emplace_back(v.substr(0, v.find('=')), v.substr(v.find('=') + 1));
    return true;
}

// A project's scenario (or collection, or folder) by name, read-only, with an environment applied.
bool projectScenario(const Options& o, const std::string& project, const std::string& name, v1::Scenario& s,
                     std::string& baseDir, std::string& error, bool quickFlags)
{
    if (!o.env.empty() && !o.environmentFile.empty()) {
        error = "--env NAME (the project's) or --environment FILE (a Postman export), not both";
        return false;
    }
    ProjectScenario p;
    if (!loadProjectScenario(project, name, o.env, p, error, o.environmentFile.empty()))
        return false;
    if (p.collection) {
        NewmanInputs in;
        std::vector<std::string> warnings;
        if (!newmanInputs(o, in, error))
            return false;
        applyNewmanInputs(p.scenario, in, warnings);
        for (const std::string& w : warnings)
            std::fprintf(stderr, "warning: %s\n", w.c_str());
        if (in.environment)
            p.environment = in.environment->name.empty() ? o.environmentFile : in.environment->name;
        if (!collectionLoad(o, p.scenario, in.data ? in.data->rows : 0, error))
            return false;
    } else if (quickFlags || !o.iterations.empty() || o.bail || newmanFlags(o)) {
        error = quickFlags       ? "give either a scenario or --url with its quick-mode options, not both"
                : o.bail         ? "--bail: for a collection (a scenario's steps say it with \"onError\")"
                : newmanFlags(o) ? "--environment, --globals, --iteration-data, --env-var, --global-var, "
                                   "--delay-request and --no-default-header: for a collection"
                                 : "--iterations: for a collection, or a scenario's own \"iterations\"";
        return false;
    }
    s = std::move(p.scenario);
    baseDir = p.baseDir;
    std::fprintf(stderr, "%s@%s: %s\n", project.c_str(), name.c_str(),
                 p.environment.empty()
                     ? (p.collection ? "the collection's variables, no environment" : "no environment")
                     : ("environment \"" + p.environment + "\"").c_str());
    return true;
}

// Builds the scenario: from the file, or from the quick-mode flags; then the
// flags that apply to both.
bool buildScenario(const Options& o, v1::Scenario& s, std::string& baseDir, std::string& error)
{
    const bool grpcFlags = !o.grpcTarget.empty() || !o.protos.empty() || !o.importPaths.empty() || o.reflection ||
                           !o.call.empty() || o.dataSet;
    const bool quickFlags = !o.url.empty() || !o.rate.empty() || !o.connections.empty() || !o.method.empty() ||
                            o.bodySet || !o.headers.empty() || !o.timeout.empty() || grpcFlags;
    if (o.prepared)
        return preparedScenario(o, s, baseDir, error);
    std::string project, name;
    if (newmanFlags(o) && !splitProjectScenario(o.scenarioFile, project, name)) {
        error = "--environment, --globals, --iteration-data, --env-var, --global-var, --delay-request and "
                "--no-default-header: for PROJECT.stampede@COLLECTION";
        return false;
    }
    if (o.bail && o.scenarioFile.empty()) {
        error = "--bail: for PROJECT.stampede@COLLECTION (a scenario's steps say it with \"onError\")";
        return false;
    }
    if (!o.scenarioFile.empty()) {
        if (splitProjectScenario(o.scenarioFile, project, name)) {
            if (!projectScenario(o, project, name, s, baseDir, error, quickFlags))
                return false;
        } else if (quickFlags || !o.iterations.empty() || o.bail) {
            error = quickFlags ? "give either a scenario file or --url with its quick-mode options, not both"
                    : o.bail   ? "--bail: for PROJECT.stampede@COLLECTION (a scenario's steps say it with \"onError\")"
                               : "--iterations: for PROJECT.stampede@COLLECTION, or a scenario's own \"iterations\"";
            return false;
        } else if (!fileScenario(o, s, baseDir, error)) {
            return false;
        }
        if (!o.duration.empty()) {
            Nanos d;
            if (!durationArg(o.duration, "--duration", d, error))
                return false;
            *s.mutable_duration() = durationOf(d);
        }
    } else {
        if (o.url.empty() && o.grpcTarget.empty()) {
            error = "nothing to run: give a scenario file, --url or --grpc (see stampede-cli run --help)";
            return false;
        }
        if (!o.env.empty()) {
            error = "--env: the quick mode has no environments (a bundle or PROJECT.stampede@SCENARIO has)";
            return false;
        }
        s.set_name("quick");
        auto* step = s.add_steps();
        if (!o.grpcTarget.empty() || grpcFlags) {
            if (!grpcStep(o, *step->mutable_grpc(), error))
                return false;
        } else if (!buildHttpStep(o, *step->mutable_request(), error)) {
            return false;
        }
        std::uint64_t c = 50;
        if (!o.connections.empty() && !parseWhole(o.connections, "--connections", 1, RunLimits::kConnections, c, error))
            return false;
        if (!o.rate.empty()) {
            double rate;
            if (!parseDecimal(o.rate, "--rate", 0.001, RunLimits::kRate, rate, error))
                return false;
            s.mutable_load()->mutable_open()->set_rate(rate);
            s.set_connections(std::uint32_t(c));
        } else {
            s.mutable_load()->mutable_closed()->set_users(std::uint32_t(c));
        }
        Nanos d = 10 * kNanosPerSecond;
        if (!o.duration.empty() && !durationArg(o.duration, "--duration", d, error))
            return false;
        *s.mutable_duration() = durationOf(d);
    }
    return applyCommonFlags(o, s, error);
}

namespace {

bool splitHeader(const std::string& h, const char* flag, std::string& name, std::string& value, std::string& error)
{
    const std::size_t colon = h.find(':');
    if (colon == std::string::npos || colon == 0) {
        error = std::string(flag) + ": \"" + h + "\" is not of the form 'Name: value'";
        return false;
    }
    name = h.substr(0, colon);
    value = h.substr(colon + 1);
    while (!value.empty() && value.front() == ' ')
        value.erase(0, 1);
    return true;
}

} // namespace

bool grpcStep(const Options& o, v1::GrpcRequest& g, std::string& error)
{
    if (!o.url.empty() || !o.method.empty() || o.bodySet) {
        error = "--grpc makes a gRPC call: --url, --method and --body are for HTTP (use --data for the message)";
        return false;
    }
    if (o.grpcTarget.empty()) {
        error = "--proto, --call and --data need --grpc HOST:PORT";
        return false;
    }
    if (o.call.empty()) {
        error = "--grpc needs --call package.Service/Method";
        return false;
    }
    if (o.protos.empty() && !o.reflection) {
        error = "--grpc needs the method's .proto file (--proto F) or --reflection";
        return false;
    }
    g.set_target(o.grpcTarget);
    g.set_method(o.call);
    g.set_data(o.dataSet ? o.data : "{}");
    g.set_reflection(o.reflection && o.protos.empty());
    for (const auto& p : o.protos)
        g.add_protos(p);
    for (const auto& d : o.importPaths)
        g.add_import_paths(d);
    for (const auto& h : o.headers) {
        std::string name, value;
        if (!splitHeader(h, "--header", name, value, error))
            return false;
        auto* md = g.add_metadata();
        md->set_name(name);
        md->set_value(value);
    }
    if (!o.timeout.empty()) {
        Nanos t;
        if (!durationArg(o.timeout, "--timeout", t, error))
            return false;
        *g.mutable_deadline() = durationOf(t);
    }
    return true;
}

bool buildHttpStep(const Options& o, v1::HttpRequest& rqRef, std::string& error)
{
    v1::HttpRequest* rq = &rqRef;
    rq->set_url(o.url);
    rq->set_method(o.method.empty() ? (o.bodySet ? "POST" : "GET") : o.method);
    if (o.bodySet)
        rq->set_body(o.body);
    for (const auto& h : o.headers) {
        std::string name, value;
        if (!splitHeader(h, "--header", name, value, error))
            return false;
        auto* hd = rq->add_headers();
        hd->set_name(name);
        hd->set_value(value);
    }
    if (!o.timeout.empty()) {
        Nanos t;
        if (!durationArg(o.timeout, "--timeout", t, error))
            return false;
        *rq->mutable_timeout() = durationOf(t);
    }
    return true;
}

bool applyCommonFlags(const Options& o, v1::Scenario& s, std::string& error)
{
    if (o.opensslRecords && o.ownTlsRecords) {
        error = "give --openssl-records (the default) or --own-tls-records, not both";
        return false;
    }
    if (!o.http.empty()) {
        if (o.http == "1.1" || o.http == "1")
            s.set_http(v1::HTTP_1_1);
        else if (o.http == "2")
            s.set_http(v1::HTTP_2);
        else {
            error = "--http: \"" + o.http + "\" is not 1.1 or 2";
            return false;
        }
    }
    if (!o.streams.empty()) {
        std::uint64_t m;
        if (!parseWhole(o.streams, "--streams", 1, RunLimits::kStreams, m, error))
            return false;
        s.set_streams(std::uint32_t(m));
    }
    // TLS files named on the command line are read here (relative to the working
    // directory) and travel inline, as a bundle carries them.
    if (o.insecure)
        s.mutable_tls()->set_insecure(true);
    if (o.noTlsResume)
        s.mutable_tls()->set_no_resumption(true);
    if (o.opensslRecords)
        s.mutable_tls()->set_openssl_records(true);
    if (o.ownTlsRecords)
        s.mutable_tls()->set_own_records(true);
    if (!o.serverName.empty())
        s.mutable_tls()->set_server_name(o.serverName);
    const struct
    {
        const char* flag;
        const std::string& file;
        std::string* pem;
        std::string* fileField;
    } tlsFiles[] = {{"--cacert", o.caCert, s.mutable_tls()->mutable_ca_pem(), s.mutable_tls()->mutable_ca_file()},
                    {"--cert", o.clientCert, s.mutable_tls()->mutable_cert_pem(), s.mutable_tls()->mutable_cert_file()},
                    {"--key", o.clientKey, s.mutable_tls()->mutable_key_pem(), s.mutable_tls()->mutable_key_file()}};
    for (const auto& f : tlsFiles) {
        if (f.file.empty())
            continue;
        if (!readFile(f.file, *f.pem)) {
            error = std::string(f.flag) + ": cannot read \"" + f.file + "\"";
            return false;
        }
        f.fileField->clear();
    }
    if (s.tls().ByteSizeLong() == 0)
        s.clear_tls();
    if (!o.threads.empty()) {
        std::uint64_t t;
        if (!parseWhole(o.threads, "--threads", 1, RunLimits::kThreads, t, error))
            return false;
        s.set_threads(std::uint32_t(t));
    }
    for (const auto& t : o.thresholds)
        s.add_thresholds()->set_expr(t);
    if (o.trace)
        s.set_trace(true);
    if (o.noStressTag)
        s.mutable_stress_tag()->set_disabled(true);
    if (!o.stressHeader.empty())
        s.mutable_stress_tag()->set_header(o.stressHeader);
    return true;
}

} // namespace stampede::cli
