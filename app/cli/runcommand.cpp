#include "cli.h"
#include "runoptions.h"

#include "bundle/bundlefile.h"
#include "control/controller.h"
#include "control/localpool.h"
#include "core/durationtext.h"
#include "core/textfile.h"
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

std::atomic<Controller*> g_controller{nullptr};
void onSignal(int)
{
    if (Controller* c = g_controller.load())
        c->stop();
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
            const std::size_t slash = o.mockRules.rfind('/');
            rules = MockRuleSet::fromJson(json, error, slash == std::string::npos ? "." : o.mockRules.substr(0, slash));
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
    std::fprintf(
        stderr, "run %s: %s, %s model, %s, %zu engine%s x %u thread%s, %u %s, stress tag %s\n", plan->runId.c_str(),
        plan->http == HttpVersion::Http2
            ? ((plan->steps.front().grpc ? "gRPC " + plan->steps.front().grpc->method + " over " : std::string()) +
               "HTTP/2 (" + std::to_string(plan->streams) + " stream" + (plan->streams == 1 ? "" : "s") +
               " per connection)")
                  .c_str()
            : "HTTP/1.1",
        plan->model == LoadModel::Open ? "open" : "closed", formatDuration(plan->duration).c_str(), addresses.size(),
        addresses.size() == 1 ? "" : "s", plan->threads, plan->threads == 1 ? "" : "s", plan->connections,
        plan->model == LoadModel::Open ? "connections" : "users",
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
