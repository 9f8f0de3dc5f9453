#include "cli.h"

#include "bundle/bundlefile.h"
#include "control/controller.h"
#include "control/localpool.h"
#include "core/durationtext.h"
#include "mock/mockserver.h"
#include "report/runsummary.h"
#include "run/runengine.h"
#include "run/scenarioplan.h"
#include "store/projectstore.h"
#include "store/runlog.h"

#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/scenario.pb.h"
#include <google/protobuf/util/json_util.h>

#include <atomic>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/resource.h>
#include <thread>

namespace stampede::cli {

namespace {

const char* kRunUsage =
    "Usage: stampede-cli run SCENARIO.json|BUNDLE.stbundle [OPTIONS]\n"
    "       stampede-cli run --url URL [--connections C] [--rate R] [--duration 10s] [OPTIONS]\n"
    "\n"
    "Runs a scenario file (proto3 JSON of stampede.v1.Scenario), or a quick load\n"
    "against one URL: without --rate a closed model of C virtual users, one\n"
    "connection each, no think time (like wrk); with --rate an open model at R\n"
    "requests per second over a pool of C connections, latency measured from each\n"
    "request's intended start (coordinated omission corrected).\n"
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
    "\n"
    "Both modes:\n"
    "  -t, --threads T       worker threads; default one per core\n"
    "  --threshold EXPR      pass/fail condition, e.g. 'p99 < 200ms', 'error_rate < 0.1%' (repeatable)\n"
    "  --var NAME=VALUE      bind ${NAME} to a constant, overriding the scenario (repeatable)\n"
    "  --stress-header NAME  header that carries the run's stress tag; default X-Stress-Tag\n"
    "  --no-stress-tag       do not send the stress tag header\n"
    "  --mock [RULES.json]   start the embedded mock server on a free loopback port for\n"
    "                        this run and bind ${mock_url} to its base URL\n"
    "  --summary-json FILE   write the summary as JSON (format in the README)\n"
    "  -q, --quiet           no per-second status line\n"
    "  --project FILE        save the run, second by second, in this project (*.stampede)\n"
    "  --report FILE         save the run in a new standalone report file (*.streport)\n"
    "\n"
    "Engines (the load never runs in this process: it runs on agents):\n"
    "  --engines N           start N local agents on loopback (default: one per core)\n"
    "  --agents A,B,...      use running agents at host:port instead (see stampede-cli agent)\n"
    "  --token-file F        the agents' token (remote agents)\n"
    "  --ca F                verify the agents' TLS certificates against this CA (PEM)\n"
    "  --on-agent-loss P     abort (default) or continue when an agent is lost mid-run\n"
    "  --dead-man S          agents stop by themselves when this controller is silent S s (default 15)\n"
    "  --pin-engines         bind local agent i to CPU i (for benchmarks)\n"
    "\n"
    "A status line per second goes to stderr; the summary table to stdout.\n"
    "Exit codes: 0 passed, 1 a threshold failed, 2 bad input, 3 the run could not be carried out.\n";

std::atomic<Controller*> g_controller{nullptr};
void onSignal(int)
{
    if (Controller* c = g_controller.load())
        c->stop();
}

bool readFile(const std::string& path, std::string& out)
{
    std::ifstream in(path, std::ios::binary);
    if (!in)
        return false;
    std::ostringstream ss;
    ss << in.rdbuf();
    out = ss.str();
    return true;
}

google::protobuf::Duration toProto(Nanos ns)
{
    google::protobuf::Duration d;
    d.set_seconds(ns / kNanosPerSecond);
    d.set_nanos(int(ns % kNanosPerSecond));
    return d;
}

struct Options
{
    std::string scenarioFile;
    std::string url;
    std::string connections, rate, duration, threads, method, body, timeout;
    bool bodySet = false;
    std::vector<std::string> headers, thresholds, vars;
    std::string stressHeader;
    bool noStressTag = false;
    bool mock = false;
    std::string mockRules;
    std::string summaryJson;
    bool quiet = false;
    std::string engines, agents, tokenFile, caFile, onAgentLoss, deadMan;
    bool pinEngines = false;
    std::string projectFile, reportFile;
    bool insecure = false;
    std::string http, streams;
    std::string caCert, clientCert, clientKey, serverName;
};

bool parseArgs(const std::vector<std::string>& args, Options& o, std::string& error, bool& help)
{
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        auto is = [&](const char* s, const char* l) {
            return a == s || (l && (a == l || a.rfind(std::string(l) + "=", 0) == 0));
        };
        auto val = [&](const char* name, std::string& out) { return r.value(name, out, error); };
        if (a == "-h" || a == "--help") {
            help = true;
            return true;
        }
        std::string v;
        if (is("--url", "--url")) {
            if (!val("--url", o.url))
                return false;
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
            if (!val(a == "-b" ? "-b" : "--body", o.body))
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
        } else if (a == "--mock" || a.rfind("--mock=", 0) == 0) {
            o.mock = true;
            if (a.size() > 7)
                o.mockRules = a.substr(7);
            else if (r.pos + 1 < args.size() && args[r.pos + 1].rfind("-", 0) != 0 && args[r.pos + 1].size() > 5 &&
                     args[r.pos + 1].substr(args[r.pos + 1].size() - 5) == ".json" && !o.scenarioFile.empty())
                o.mockRules = args[++r.pos];
        } else if (is("--summary-json", "--summary-json")) {
            if (!val("--summary-json", o.summaryJson))
                return false;
        } else if (is("--engines", "--engines")) {
            if (!val("--engines", o.engines))
                return false;
        } else if (is("--agents", "--agents")) {
            if (!val("--agents", o.agents))
                return false;
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

bool positiveNumber(const std::string& text, const char* flag, double& out, std::string& error, bool integer)
{
    char* end = nullptr;
    out = std::strtod(text.c_str(), &end);
    if (text.empty() || *end || !std::isfinite(out)) {
        error = std::string(flag) + ": \"" + text + "\" is not a number";
        return false;
    }
    if (out <= 0) {
        error = std::string(flag) + ": must be positive (got " + text + ")";
        return false;
    }
    if (integer && out != std::floor(out)) {
        error = std::string(flag) + ": must be a whole number (got " + text + ")";
        return false;
    }
    return true;
}

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
    out = *d;
    return true;
}

// Builds the scenario: from the file, or from the quick-mode flags; then the
// flags that apply to both.
bool buildScenario(const Options& o, v1::Scenario& s, std::string& baseDir, std::string& error)
{
    const bool quickFlags = !o.url.empty() || !o.rate.empty() || !o.connections.empty() || !o.method.empty() ||
                            o.bodySet || !o.headers.empty() || !o.timeout.empty();
    if (!o.scenarioFile.empty()) {
        if (quickFlags) {
            error = "give either a scenario file or --url with its quick-mode options, not both";
            return false;
        }
        std::string json;
        if (!readFile(o.scenarioFile, json)) {
            error = "cannot read scenario file \"" + o.scenarioFile + "\"";
            return false;
        }
        if (looksLikeBundle(json)) {
            v1::Bundle bundle;
            if (!decodeBundle(json, bundle, error)) {
                error = o.scenarioFile + ": " + error;
                return false;
            }
            s = bundle.scenario();
        } else if (!parseScenarioJson(json, s, error)) {
            error = o.scenarioFile + ": not a valid scenario: " + error;
            return false;
        }
        const std::size_t slash = o.scenarioFile.rfind('/');
        baseDir = slash == std::string::npos ? "." : o.scenarioFile.substr(0, slash);
        if (!o.duration.empty()) {
            Nanos d;
            if (!durationArg(o.duration, "--duration", d, error))
                return false;
            *s.mutable_duration() = toProto(d);
        }
    } else {
        if (o.url.empty()) {
            error = "nothing to run: give a scenario file or --url (see stampede-cli run --help)";
            return false;
        }
        s.set_name("quick");
        auto* step = s.add_steps();
        auto* rq = step->mutable_request();
        rq->set_url(o.url);
        rq->set_method(o.method.empty() ? (o.bodySet ? "POST" : "GET") : o.method);
        if (o.bodySet)
            rq->set_body(o.body);
        for (const auto& h : o.headers) {
            const std::size_t colon = h.find(':');
            if (colon == std::string::npos || colon == 0) {
                error = "--header: \"" + h + "\" is not of the form 'Name: value'";
                return false;
            }
            auto* hd = rq->add_headers();
            hd->set_name(h.substr(0, colon));
            std::string value = h.substr(colon + 1);
            while (!value.empty() && value.front() == ' ')
                value.erase(0, 1);
            hd->set_value(value);
        }
        if (!o.timeout.empty()) {
            Nanos t;
            if (!durationArg(o.timeout, "--timeout", t, error))
                return false;
            *rq->mutable_timeout() = toProto(t);
        }
        double c = 50;
        if (!o.connections.empty() && !positiveNumber(o.connections, "--connections", c, error, true))
            return false;
        if (!o.rate.empty()) {
            double rate;
            if (!positiveNumber(o.rate, "--rate", rate, error, false))
                return false;
            s.mutable_load()->mutable_open()->set_rate(rate);
            s.set_connections(std::uint32_t(c));
        } else {
            s.mutable_load()->mutable_closed()->set_users(std::uint32_t(c));
        }
        Nanos d = 10 * kNanosPerSecond;
        if (!o.duration.empty() && !durationArg(o.duration, "--duration", d, error))
            return false;
        *s.mutable_duration() = toProto(d);
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
        double m;
        if (!positiveNumber(o.streams, "--streams", m, error, true))
            return false;
        s.set_streams(std::uint32_t(m));
    }
    // TLS files named on the command line are read here (relative to the working
    // directory) and travel inline, as a bundle carries them.
    if (o.insecure)
        s.mutable_tls()->set_insecure(true);
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
        std::ifstream in(f.file, std::ios::binary);
        if (!in) {
            error = std::string(f.flag) + ": cannot read \"" + f.file + "\"";
            return false;
        }
        std::ostringstream ss;
        ss << in.rdbuf();
        *f.pem = ss.str();
        f.fileField->clear();
    }
    if (s.tls().ByteSizeLong() == 0)
        s.clear_tls();
    if (!o.threads.empty()) {
        double t;
        if (!positiveNumber(o.threads, "--threads", t, error, true))
            return false;
        s.set_threads(std::uint32_t(t));
    }
    for (const auto& t : o.thresholds)
        s.add_thresholds()->set_expr(t);
    if (o.noStressTag)
        s.mutable_stress_tag()->set_disabled(true);
    if (!o.stressHeader.empty())
        s.mutable_stress_tag()->set_header(o.stressHeader);
    return true;
}

} // namespace

int runCommand(const std::vector<std::string>& args)
{
    Options o;
    std::string error;
    bool help = false;
    if (!parseArgs(args, o, error, help)) {
        std::fprintf(stderr, "stampede-cli run: %s\n", error.c_str());
        return BadInput;
    }
    if (help) {
        std::fputs(kRunUsage, stdout);
        return Passed;
    }
    v1::Scenario scenario;
    PlanOptions planOptions;
    if (!buildScenario(o, scenario, planOptions.baseDir, error)) {
        std::fprintf(stderr, "stampede-cli run: %s\n", error.c_str());
        return BadInput;
    }
    for (const auto& v : o.vars) {
        const std::size_t eq = v.find('=');
        if (eq == std::string::npos || eq == 0) {
            std::fprintf(stderr, "stampede-cli run: --var: \"%s\" is not of the form NAME=VALUE\n", v.c_str());
            return BadInput;
        }
        planOptions.overrides.emplace_back(v.substr(0, eq), v.substr(eq + 1));
    }

    std::unique_ptr<MockServer> mock;
    if (o.mock) {
        std::shared_ptr<MockRuleSet> rules = MockRuleSet::defaults();
        if (!o.mockRules.empty()) {
            std::string json;
            if (!readFile(o.mockRules, json)) {
                std::fprintf(stderr, "stampede-cli run: cannot read mock rules \"%s\"\n", o.mockRules.c_str());
                return BadInput;
            }
            rules = MockRuleSet::fromJson(json, error);
            if (!rules) {
                std::fprintf(stderr, "stampede-cli run: %s: %s\n", o.mockRules.c_str(), error.c_str());
                return BadInput;
            }
        }
        mock = std::make_unique<MockServer>(rules, 1);
        if (!mock->start("127.0.0.1:0", error)) {
            std::fprintf(stderr, "stampede-cli run: mock server: %s\n", error.c_str());
            return RunFailed;
        }
        planOptions.overrides.emplace_back("mock_url", mock->baseUrl());
        std::fprintf(stderr, "mock server listening on %s\n", mock->baseUrl().c_str());
    }

    // Overrides become constants in the scenario itself, so that every engine sees them.
    for (const auto& [name, value] : planOptions.overrides) {
        v1::Variable* target = nullptr;
        for (auto& v : *scenario.mutable_variables())
            if (v.name() == name)
                target = &v;
        if (!target) {
            target = scenario.add_variables();
            target->set_name(name);
        }
        target->mutable_constant()->set_value(value);
    }
    planOptions.overrides.clear();
    const bool remote = !o.agents.empty();
    if (remote && !o.engines.empty()) {
        std::fprintf(stderr,
                     "stampede-cli run: give --engines (local agents) or --agents (running agents), not both\n");
        return BadInput;
    }
    if (!o.onAgentLoss.empty() && o.onAgentLoss != "abort" && o.onAgentLoss != "continue") {
        std::fprintf(stderr, "stampede-cli run: --on-agent-loss: \"%s\" is not abort or continue\n",
                     o.onAgentLoss.c_str());
        return BadInput;
    }
    if (!scenario.threads())
        scenario.set_threads(1); // one thread per engine: the pool brings the parallelism

    std::vector<PlanError> errors;
    planOptions.resolveHosts = !remote; // remote agents resolve the targets themselves
    auto plan = compileScenario(scenario, planOptions, errors);
    if (!plan) {
        for (const auto& e : errors)
            std::fprintf(stderr, "stampede-cli run: %s\n", e.text().c_str());
        return BadInput;
    }

    // The run is saved as it happens: in a project, or in a new report file.
    std::unique_ptr<ProjectStore> store;
    if (!o.projectFile.empty() && !o.reportFile.empty()) {
        std::fprintf(stderr, "stampede-cli run: give --project or --report, not both\n");
        return BadInput;
    }
    if (!o.reportFile.empty()) {
        store = ProjectStore::create(o.reportFile, error);
        if (!store) {
            std::fprintf(stderr, "stampede-cli run: --report: %s\n", error.c_str());
            return BadInput;
        }
    } else if (!o.projectFile.empty()) {
        std::ifstream exists(o.projectFile);
        store = exists ? ProjectStore::open(o.projectFile, error) : ProjectStore::create(o.projectFile, error);
        if (!store) {
            std::fprintf(stderr, "stampede-cli run: --project: %s\n", error.c_str());
            return BadInput;
        }
    }

    ControllerOptions co;
    co.abortOnAgentLoss = o.onAgentLoss != "continue";
    if (!o.deadMan.empty()) {
        double s;
        if (!positiveNumber(o.deadMan, "--dead-man", s, error, true)) {
            std::fprintf(stderr, "stampede-cli run: %s\n", error.c_str());
            return BadInput;
        }
        co.deadManSeconds = unsigned(s);
    }
    co.caFile = o.caFile;
    std::vector<std::string> addresses;
    LocalPool pool;
    if (remote) {
        std::stringstream ss(o.agents);
        for (std::string a; std::getline(ss, a, ',');)
            if (!a.empty())
                addresses.push_back(a);
        if (!o.tokenFile.empty()) {
            if (!readFile(o.tokenFile, co.token)) {
                std::fprintf(stderr, "stampede-cli run: --token-file: cannot read \"%s\"\n", o.tokenFile.c_str());
                return BadInput;
            }
            while (!co.token.empty() && (co.token.back() == '\n' || co.token.back() == ' '))
                co.token.pop_back();
        }
    } else {
        double n = std::max(1u, std::thread::hardware_concurrency());
        if (!o.engines.empty() && !positiveNumber(o.engines, "--engines", n, error, true)) {
            std::fprintf(stderr, "stampede-cli run: %s\n", error.c_str());
            return BadInput;
        }
        // every engine needs at least one connection (open) or user (closed) per thread
        const unsigned cap = std::max(1u, plan->connections / std::max(1u, plan->threads));
        const unsigned engines = std::min(unsigned(n), cap);
        if (!pool.start("/proc/self/exe", engines, error, o.pinEngines)) {
            std::fprintf(stderr, "stampede-cli run: local pool: %s\n", error.c_str());
            return RunFailed;
        }
        addresses = pool.addresses();
        co.token = pool.token();
    }
    v1::Bundle bundle;
    const std::string source = o.scenarioFile.empty() ? "quick" : o.scenarioFile;
    if (!makeBundle(scenario, planOptions.baseDir, source, bundle, error)) {
        std::fprintf(stderr, "stampede-cli run: %s\n", error.c_str());
        return BadInput;
    }
    Controller controller(addresses, co);
    if (!controller.connect(error)) {
        std::fprintf(stderr, "stampede-cli run: %s\n", error.c_str());
        return RunFailed;
    }
    g_controller = &controller;
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::fprintf(stderr, "run %s: %s, %s model, %s, %zu engine%s x %u thread%s, %u %s, stress tag %s\n",
                 plan->runId.c_str(),
                 plan->http == HttpVersion::Http2 ? ("HTTP/2 (" + std::to_string(plan->streams) + " stream" +
                                                     (plan->streams == 1 ? "" : "s") + " per connection)")
                                                        .c_str()
                                                  : "HTTP/1.1",
                 plan->model == LoadModel::Open ? "open" : "closed", formatDuration(plan->duration).c_str(),
                 addresses.size(), addresses.size() == 1 ? "" : "s", plan->threads, plan->threads == 1 ? "" : "s",
                 plan->connections, plan->model == LoadModel::Open ? "connections" : "users",
                 plan->stressHeader.empty() ? "off" : (plan->stressHeader + ": " + plan->runId).c_str());
    std::unique_ptr<RunLog> log;
    std::int64_t runRow = 0;
    if (store) {
        log = std::make_unique<RunLog>(*store);
        std::string scenarioJson;
        google::protobuf::util::JsonPrintOptions jo;
        (void)google::protobuf::util::MessageToJsonString(scenario, &scenarioJson, jo);
        std::vector<std::string> stepNames;
        for (const auto& st : plan->steps)
            stepNames.push_back(st.name);
        runRow = log->begin(plan->runId, plan->name, scenarioJson, "{}", controller.agentNames(), stepNames);
        if (!runRow) {
            std::fprintf(stderr, "stampede-cli run: cannot record the run: %s\n", log->error().c_str());
            return RunFailed;
        }
    }
    // With several engines, each one's part of a second is saved beside the merged second.
    std::vector<PreparedSecond> parts;
    const auto& agentNames = controller.agentNames();
    if (log && agentNames.size() > 1)
        controller.setAgentSecondCallback([&](std::size_t agent, const IntervalMetrics& part) {
            parts.push_back(RunLog::prepare(part, agentNames[agent]));
        });
    const RunResult result = controller.run(
        bundle, plan->runId, plan->steps.size(), [&](const IntervalMetrics& second, const SecondSummary& s) {
            if (log) {
                parts.push_back(RunLog::prepare(second));
                if (!log->write(runRow, parts))
                    std::fprintf(stderr, "stampede-cli run: cannot record second %u: %s\n", s.second,
                                 log->error().c_str());
                parts.clear();
            }
            if (o.quiet)
                return;
            std::fprintf(stderr,
                         "[%4us] rate %8llu/s  p50 %8.2f ms  p99 %8.2f ms  errors %llu  late %llu  dropped %llu\n",
                         s.second, static_cast<unsigned long long>(s.requests), s.p50Ms, s.p99Ms,
                         static_cast<unsigned long long>(s.errors), static_cast<unsigned long long>(s.late),
                         static_cast<unsigned long long>(s.dropped));
        });
    g_controller = nullptr;
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    pool.stop();
    if (!result.ok) {
        std::fprintf(stderr, "stampede-cli run: the run could not start: %s\n", result.error.c_str());
        return RunFailed;
    }
    RunSummary summary = summarizeRun(*plan, result);
    summary.engines = controller.agentNames();
    if (log) {
        for (const auto& e : result.events)
            log->addEvent(runRow, e);
        log->finish(runRow, result.aborted ? "aborted" : "completed", summaryToJson(summary));
        std::fprintf(stderr, "run saved in %s (run %s)\n", store->path().c_str(), plan->runId.c_str());
    }
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    summary.controllerCpuS = double(self.ru_utime.tv_sec + self.ru_stime.tv_sec) +
                             double(self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
    std::fputs(summaryToTable(summary).c_str(), stdout);
    std::fflush(stdout);
    if (!o.summaryJson.empty()) {
        std::ofstream out(o.summaryJson, std::ios::binary | std::ios::trunc);
        out << summaryToJson(summary);
        if (!out) {
            std::fprintf(stderr, "stampede-cli run: cannot write %s\n", o.summaryJson.c_str());
            return RunFailed;
        }
    }
    if (mock)
        mock->stop();
    if (result.aborted)
        return RunFailed;
    return summary.passed ? Passed : ThresholdFailed;
}

} // namespace stampede::cli
