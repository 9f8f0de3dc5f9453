#include "runsetup.h"

#include "control/agentdiscovery.h"

#include "load/closedload.h"

#include "bundle/environment.h"
#include "bundle/projectscenario.h"
#include "output/runoutput.h"

#include "cli.h"
#include "core/durationtext.h"
#include "core/number.h"
#include "core/textfile.h"
#include "plan/scenarioplan.h"

#include "stampede/v1/scenario.pb.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>

namespace stampede::cli {

namespace {

bool startMock(const Options& o, CliRun& run, std::string& error, int& exitCode)
{
    std::shared_ptr<MockRuleSet> rules = MockRuleSet::defaults();
    exitCode = BadInput;
    if (!o.mockRules.empty()) {
        std::string json;
        if (!readFile(o.mockRules, json)) {
            error = "cannot read mock rules \"" + o.mockRules + "\"";
            return false;
        }
        const std::size_t slash = o.mockRules.rfind('/');
        std::string why;
        rules = MockRuleSet::fromJson(json, why, slash == std::string::npos ? "." : o.mockRules.substr(0, slash));
        if (!rules) {
            error = o.mockRules + ": " + why;
            return false;
        }
    }
    run.mock = std::make_unique<MockServer>(rules, 1);
    std::string why;
    if (!run.mock->start("127.0.0.1:0", why)) {
        error = "mock server: " + why;
        exitCode = RunFailed;
        return false;
    }
    setConstant(run.request.scenario, "mock_url", run.mock->baseUrl());
    std::fprintf(stderr, "mock server listening on %s\n", run.mock->baseUrl().c_str());
    return true;
}

// The agents --agents names (looked up, awaited with --min-agents), those
// with the labels of --agents-with.
bool findAgents(const Options& o, ControllerOptions& co, std::vector<std::string>& agents, std::string& error,
                const std::shared_ptr<AgentRegistry>& joined)
{
    std::vector<std::string> specs;
    std::stringstream ss(o.agents.empty() && joined ? std::string("joined") : o.agents);
    for (std::string a; std::getline(ss, a, ',');)
        if (!a.empty())
            specs.push_back(a);
    if (specs.empty()) {
        error = "--agents: \"" + o.agents + "\" names no agent (give host:port, separated by commas)";
        return false;
    }
    std::uint64_t n = 0;
    SteadyClock steady;
    if (!o.minAgents.empty() || joined) {
        if (o.minAgents.empty())
            std::fprintf(stderr, "waiting (at most 60 s) for an agent to join\n");
        if ((!o.minAgents.empty() && !parseWhole(o.minAgents, "--min-agents", 1, kMaxAgents, n, error)) ||
            !awaitAgents(specs, o.minAgents.empty() ? 1 : std::size_t(n), 60 * kNanosPerSecond, agents, error, steady,
                         joined.get()))
            return false;
    } else if (!expandAgents(specs, agents, error)) {
        return false;
    }
    std::map<std::string, std::string> wanted;
    for (const std::string& text : o.agentsWith) {
        std::string key, value;
        if (!parseAgentLabel(text, key, value, error)) {
            error = "--agents-with: " + error;
            return false;
        }
        wanted[key] = value;
    }
    if (o.elastic) // looked up again during the run: those that answer (with the labels) may join
        co.discover = [specs, wanted, token = co.token, ca = co.caFile, tlsName = co.tlsName, joined] {
            std::vector<std::string> found, chosen;
            std::string why;
            if (!expandAgents(specs, found, why, joined.get()))
                return found;
            found = answeringAgents(found, kNanosPerSecond);
            if (wanted.empty() || !agentsWithLabels(found, wanted, token, ca, chosen, why, tlsName))
                return wanted.empty() ? found : std::vector<std::string>{};
            return chosen;
        };
    if (wanted.empty())
        return true;
    std::vector<std::string> chosen;
    if (!agentsWithLabels(agents, wanted, co.token, o.caFile, chosen, error, co.tlsName))
        return false;
    agents = std::move(chosen);
    return true;
}

// --accept-agents: where agents join by themselves, served from now to the run's end.
bool acceptAgents(const Options& o, CliRun& run, const std::string& token, std::string& error)
{
    if (o.acceptAgents.empty())
        return true;
    if (!o.engines.empty()) {
        error = "--accept-agents takes agents that join: give it without --engines";
        return false;
    }
    run.joined = std::make_shared<AgentRegistry>(std::make_shared<SteadyClock>());
    run.joinServer = std::make_unique<ControlServer>();
    std::shared_ptr<AgentRegistry> registry = run.joined;
    if (!run.joinServer->start(
            {o.acceptAgents, token, o.controlCert, o.controlKey},
            [registry](const ControlRequest& rq) { return registry->handle(rq); }, error)) {
        error = "--accept-agents: " + error;
        return false;
    }
    std::fprintf(stderr, "accepting agents on %s (stampede-cli agent --join %s)\n", run.joinServer->address().c_str(),
                 run.joinServer->address().c_str());
    return true;
}

bool chooseEngines(const Options& o, CliRun& run, std::string& error)
{
    RunRequest& rq = run.request;
    if (!o.agents.empty() && !o.engines.empty()) {
        error = "give --engines (local agents) or --agents (running agents), not both";
        return false;
    }
    ControllerOptions& co = rq.controller;
    if (o.onAgentLoss == "abort")
        co.onAgentLoss = AgentLossPolicy::Abort;
    else if (o.onAgentLoss == "continue")
        co.onAgentLoss = AgentLossPolicy::Continue;
    else if (o.onAgentLoss == "rebalance")
        co.onAgentLoss = AgentLossPolicy::Rebalance;
    else if (!o.onAgentLoss.empty()) {
        error = "--on-agent-loss: \"" + o.onAgentLoss + "\" is not abort, continue or rebalance";
        return false;
    }
    std::uint64_t n = 0;
    if (!o.deadMan.empty()) {
        if (!parseWhole(o.deadMan, "--dead-man", 1, RunLimits::kDeadManSeconds, n, error))
            return false;
        co.deadManSeconds = unsigned(n);
    }
    co.caFile = o.caFile;
    std::string pem, why;
    if (!o.caFile.empty() && !readWholeFile(o.caFile, pem, why)) { // never a fallback to the system's CAs
        error = "--ca: cannot read \"" + o.caFile + "\": " + why;
        return false;
    }
    if (!o.caFile.empty() && pem.find("-----BEGIN CERTIFICATE-----") == std::string::npos) {
        error = "--ca: \"" + o.caFile + "\" holds no PEM certificate";
        return false;
    }
    co.tlsName = o.agentTlsName;
    if (!o.agentTlsName.empty() && o.caFile.empty()) {
        error = "--agent-tls-name checks the agents' TLS certificates: give --ca too";
        return false;
    }
    // the agents' token, and the control endpoint's
    if (!o.tokenFile.empty() && !readTokenFile(o.tokenFile, co.token, why)) {
        error = "--token-file: cannot read a token from \"" + o.tokenFile + "\": " + why;
        return false;
    }
    if (!acceptAgents(o, run, co.token, error))
        return false;
    rq.engines.pin = o.pinEngines;
    if (!o.shares.empty()) {
        if (!parseWhole(o.shares, "--shares", 1, kMaxShares, n, error))
            return false;
        co.shares = std::uint32_t(n);
    }
    if (o.elastic && o.agents.empty() && !run.joined) {
        error = "--elastic looks --agents up again during the run: give --agents (dns:NAME:PORT or file:PATH)";
        return false;
    }
    if (!o.growCommand.empty() && !o.elastic) {
        error = "--grow adds agents that join only with --elastic: give --elastic and --agents (dns:NAME:PORT or "
                "file:PATH) where the new agents appear";
        return false;
    }
    if (o.growCommand.empty() && (!o.growAt.empty() || !o.growAfter.empty())) {
        error = "--grow-at and --grow-after say when --grow COMMAND runs: give --grow";
        return false;
    }
    rq.grow.command = o.growCommand;
    if ((!o.growAt.empty() && !parseGrowLevel(o.growAt, rq.grow.cpuLevel, error)) ||
        (!o.growAfter.empty() && !parseGrowSeconds(o.growAfter, rq.grow.seconds, error)))
        return false;
    if (o.agents.empty() && !run.joined) {
        if (!o.engines.empty() && !parseWhole(o.engines, "--engines", 1, RunLimits::kEngines, n, error))
            return false;
        rq.engines.localEngines = o.engines.empty() ? 0 : unsigned(n);
        return true;
    }
    if (!findAgents(o, co, rq.engines.agents, error, run.joined))
        return false;
    const std::size_t found = rq.engines.agents.size();
    if (o.elastic || co.shares > found)
        std::fprintf(stderr, "agents: %zu found, the run split into %zu shares%s\n", found,
                     std::max<std::size_t>(found, co.shares),
                     o.elastic ? "; looked up again every 10 s (--elastic): an agent found then takes shares" : "");
    return true;
}

} // namespace

bool openStore(const Options& o, CliRun& run, std::string& error)
{
    if (!o.projectFile.empty() && !o.reportFile.empty()) {
        error = "give --project or --report, not both";
        return false;
    }
    std::string why;
    if (!o.reportFile.empty()) {
        run.store = ProjectStore::create(o.reportFile, why);
        if (!run.store)
            error = "--report: " + why;
    } else if (!o.projectFile.empty()) {
        run.store = ProjectStore::openOrCreate(o.projectFile, why);
        if (!run.store)
            error = "--project: " + why;
    }
    return error.empty();
}

// --out files are not inputs, nor the summary, nor each other.
static bool checkOutputs(const Options& o, std::vector<std::string> inputs, std::string& error)
{
    inputs.push_back(o.summaryJson);
    for (const std::string& text : o.outputs) {
        OutputSpec spec;
        if (!parseOutputSpec(text, spec, error))
            return false;
        if (spec.kind != OutputSpec::Kind::Jsonl)
            continue;
        for (const std::string& file : {spec.target, spec.target + ".part"})
            if (const std::string* in = overwritesInput(file, inputs)) {
                error = "--out \"" + text + "\" would overwrite " + *in + "; it is left as it is";
                return false;
            }
        inputs.push_back(spec.target);
    }
    return true;
}

bool outputsSpareInputs(const Options& o, const std::vector<std::string>& planInputs, std::string& error)
{
    if (const std::string* in = overwritesInput(o.summaryJson, planInputs)) {
        error =
            "--summary-json \"" + o.summaryJson + "\" is an input of the scenario (" + *in + "); it is left as it is";
        return false;
    }
    return checkOutputs(o, planInputs, error);
}

bool setUpRun(const Options& o, CliRun& run, std::string& error, int& exitCode)
{
    exitCode = BadInput;
    std::vector<std::string> inputs = {o.scenarioFile, o.projectFile, o.reportFile, o.mockRules, o.tokenFile,
                                       o.caFile,       o.caCert,      o.clientCert, o.clientKey};
    inputs.insert(inputs.end(), o.protos.begin(), o.protos.end());
    if (std::string project, name; splitProjectScenario(o.scenarioFile, project, name))
        inputs.push_back(project);
    if (const std::string* in = overwritesInput(o.summaryJson, inputs)) {
        error = "--summary-json \"" + o.summaryJson + "\" is an input (" + *in + "); it is left as it is";
        return false;
    }
    if (OutputPath where; !o.summaryJson.empty() && !resolveOutput(o.summaryJson, where, error)) {
        error = "--summary-json: " + error; // found now, not after the run
        return false;
    }
    if (!checkOutputs(o, inputs, error))
        return false;
    RunRequest& rq = run.request;
    rq.outputs = o.outputs;
    rq.notify = o.notify;
    rq.rollbackCommand = o.rollbackCommand;
    rq.maxErrorRate = o.maxErrorRate;
    if (const char* env = std::getenv("STAMPEDE_MAX_ERROR_RATE"); rq.maxErrorRate.empty() && env)
        rq.maxErrorRate = env; // a machine's (a CI runner's) default
    if (!buildScenario(o, rq, error) || !chooseEngines(o, run, error))
        return false;
    for (const auto& text : o.breakers) {
        auto rule = BreakerRule::parse(text, error);
        if (!rule) {
            error = "--breaker " + error;
            return false;
        }
        rq.breaker.push_back(std::move(*rule));
    }
    if (o.mock && !startMock(o, run, error, exitCode))
        return false;
    rq.source = o.scenarioFile.empty() ? "quick" : o.scenarioFile;
    return true;
}

namespace {

// "open model, 10 s" / "closed model, 3 iterations per user (at most 1 h)" / "replay model, 2 s"
std::string loadText(const ScenarioPlan& p)
{
    const LoadModel model = p.load->model();
    const auto* perUser = dynamic_cast<const IterationsExecutor*>(p.load.get());
    const std::uint32_t iterations = perUser ? perUser->iterations() : 0;
    return std::string(model == LoadModel::Replay ? "replay"
                       : p.load->slotIsUser()     ? "closed"
                                                  : "open") +
           " model, " +
           (iterations ? std::to_string(iterations) + " iteration" + (iterations == 1 ? "" : "s") +
                             " per user (at most " + formatDuration(p.duration) + ")"
                       : formatDuration(p.duration));
}

} // namespace

void CliSink::started(const std::vector<std::string>& agents)
{
    const ScenarioPlan& p = m_plan;
    const std::string protocol =
        p.http == HttpVersion::Http2
            ? (p.steps.front().grpc ? "gRPC " + p.steps.front().grpc->method + " over " : std::string()) + "HTTP/2 (" +
                  std::to_string(p.streams) + " stream" + (p.streams == 1 ? "" : "s") + " per connection)"
            : "HTTP/1.1";
    const std::string engines = std::to_string(agents.size()) + " engine" + (agents.size() == 1 ? "" : "s");
    const std::string tag = p.stressHeader.empty() ? "off" : p.stressHeader + ": " + p.runId;
    if (p.scenarios.empty()) {
        const bool users = p.load->slotIsUser();
        std::fprintf(stderr, "run %s: %s, %s, %s x %u thread%s, %u %s, stress tag %s\n", p.runId.c_str(),
                     protocol.c_str(), loadText(p).c_str(), engines.c_str(), p.threads, p.threads == 1 ? "" : "s",
                     p.connections, users ? "users" : "connections", tag.c_str());
        return;
    }
    std::fprintf(stderr, "run %s: plan \"%s\" of %zu scenarios, %s, %s, stress tag %s\n", p.runId.c_str(),
                 p.name.c_str(), p.scenarios.size(), formatDuration(p.duration).c_str(), engines.c_str(), tag.c_str());
    for (std::size_t k = 0; k < p.scenarios.size(); ++k) {
        const ScenarioPlan& sc = p.scenarios[k];
        std::fprintf(stderr, "  %s: %s from %s, %u %s\n", sc.name.c_str(), loadText(sc).c_str(),
                     formatDuration(p.places[k].startAfter).c_str(), sc.connections,
                     sc.load->slotIsUser() ? "users" : "connections");
    }
}

void CliSink::second(const LiveSecond& second)
{
    const SecondSummary& s = second.summary;
    m_second = s.second;
    if (m_quiet)
        return;
    std::fprintf(stderr, "[%4us] rate %8llu/s  p50 %8.2f ms  p99 %8.2f ms  errors %llu  late %llu  dropped %llu\n",
                 s.second, static_cast<unsigned long long>(s.requests), s.p50Ms, s.p99Ms,
                 static_cast<unsigned long long>(s.errors), static_cast<unsigned long long>(s.late),
                 static_cast<unsigned long long>(s.dropped));
}

void CliSink::recordingFailed(const std::string& error)
{
    std::fprintf(stderr, "stampede-cli run: cannot record second %u: %s: the run stops\n", m_second, error.c_str());
}

} // namespace stampede::cli
