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
    "  --max-error-rate PCT  also judge the run by error_rate < PCT (e.g. 1%) unless its thresholds\n"
    "                        judge the error rate already (default: the environment's\n"
    "                        STAMPEDE_MAX_ERROR_RATE; the workbench: Engines… of the project)\n"
    "  --breaker RULE        judged live every second: 'p99 > 300ms for 3x5s: stop' (3 windows of 5 s in a\n"
    "                        row; actions warn, degrade N%, stop, rollback; a stop ends the run, exit 1)\n"
    "                        (repeatable)\n"
    "  --rollback COMMAND    what a breaker's rollback runs on this machine after the plan's teardown:\n"
    "                        sh -c COMMAND with STAMPEDE_RUN_ID, STAMPEDE_SCENARIO, STAMPEDE_REASON set,\n"
    "                        at most 120 s; its outcome is an event of the run\n"
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
    "  --notify [KIND=]URL[,secret=S][,on=EVENTS]\n"
    "                        tell a webhook how the run goes (repeatable): a JSON POST at the start,\n"
    "                        at each breaker action, when thresholds fail and at the end; KIND:\n"
    "                        plain (default), slack, feishu (lark), dingtalk, wecom; secret: the bot's\n"
    "                        signing secret (feishu, dingtalk); on: start+breaker+threshold+end\n"
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
    "  --accept-agents ADDR  agents join by themselves (stampede-cli agent --join ADDR), heard every\n"
    "                        2 s: --agents joined (the default then) are they; --min-agents (default\n"
    "                        1) waits for them; with --elastic those that join later join the run.\n"
    "                        Off loopback it needs --token-file and --control-cert/--control-key\n"
    "  --agents-with K=V     only the agents started with --label K=V (repeatable: every one)\n"
    "  --elastic             look --agents up again every 10 s: an agent found then joins the run\n"
    "                        and takes shares from those that run the most, from the next second\n"
    "  --grow COMMAND        with --elastic: run COMMAND (sh -c, on this machine) to add agents when\n"
    "                        the busiest agent's CPU stays at --grow-at (default 90%) for\n"
    "                        --grow-after (default 10s); again no sooner than 60 s later. It gets\n"
    "                        STAMPEDE_AGENTS, STAMPEDE_AGENT_CPU, STAMPEDE_GROW_COUNT, STAMPEDE_RUN_ID\n"
    "  --shares N            split the run into N shares (default: one per agent, or one per core\n"
    "                        when the agents' usable cores differ; at most 1024); each agent runs\n"
    "                        a part by its cores (so that agents can join)\n"
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
        } else if (is("--rollback", "--rollback")) {
            if (!val("--rollback", o.rollbackCommand))
                return false;
        } else if (is("--max-error-rate", "--max-error-rate")) {
            if (!val("--max-error-rate", v))
                return false;
            o.maxErrorRate = v;
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
        } else if (is("--notify", "--notify")) {
            std::string spec;
            if (!val("--notify", spec))
                return false;
            o.notify.push_back(spec);
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
        } else if (is("--grow", "--grow")) {
            if (!val("--grow", o.growCommand))
                return false;
        } else if (is("--grow-at", "--grow-at")) {
            if (!val("--grow-at", o.growAt))
                return false;
        } else if (is("--grow-after", "--grow-after")) {
            if (!val("--grow-after", o.growAfter))
                return false;
        } else if (is("--accept-agents", "--accept-agents")) {
            if (!val("--accept-agents", o.acceptAgents))
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

} // namespace stampede::cli
