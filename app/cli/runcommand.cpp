// `stampede-cli run`: a thin caller of the run service (engine/control/runservice.h).
#include "cli.h"
#include "controlendpoint.h"
#include "runoptions.h"
#include "runsetup.h"

#include "core/textfile.h"
#include "report/runsummary.h"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sys/resource.h>
#include <unistd.h>

namespace stampede::cli {

namespace {

std::atomic<RunControl*> g_control{nullptr};
// The first Ctrl-C, SIGTERM or SIGHUP stops the run (it ends within a second,
// saved as stopped); a second one kills the process. The local engines ignore
// the signals their group gets (a terminal's Ctrl-C, `timeout`, systemd).
void onSignal(int sig)
{
    if (RunControl* c = g_control.load())
        c->stop(); // lock-free
    std::signal(sig, SIG_DFL);
}

int refuse(const char* command, const std::string& error, int code)
{
    std::fprintf(stderr, "stampede-cli %s: %s\n", command, error.c_str());
    return code;
}

double cpuSeconds()
{
    rusage self{};
    getrusage(RUSAGE_SELF, &self);
    return double(self.ru_utime.tv_sec + self.ru_stime.tv_sec) +
           double(self.ru_utime.tv_usec + self.ru_stime.tv_usec) / 1e6;
}

} // namespace

int runCommand(const std::vector<std::string>& args)
{
    Options o;
    std::string error;
    bool help = false;
    if (!parseArgs(args, o, error, help))
        return refuse("run", error, BadInput);
    if (help) {
        std::fputs(kRunUsage, stdout);
        return Passed;
    }
    CliRun cli;
    int code = BadInput;
    if (!setUpRun(o, cli, error, code))
        return refuse("run", error, code);
    return carryOut(o, cli, "run");
}

int carryOut(const Options& o, CliRun& cli, const char* command)
{
    std::string error;
    std::vector<std::string> errors;
    const std::string token = cli.request.controller.token; // the agents' rules: the control endpoint's too
    auto service = RunService::prepare(std::move(cli.request), errors);
    if (!service) {
        for (const auto& e : errors)
            std::fprintf(stderr, "stampede-cli %s: %s\n", command, e.c_str());
        return BadInput;
    }
    if (!outputsSpareInputs(o, service->plan().inputFiles, error))
        return refuse(command, error, BadInput);
    for (const auto& w : service->warnings())
        std::fprintf(stderr, "stampede-cli %s: warning: %s\n", command, w.c_str());
    if (!openStore(o, cli, error))
        return refuse(command, error, BadInput);
    CliSink lines(service->plan(), o.quiet);
    ControlEndpoint endpoint(service->plan(), service->control(), lines);
    if (!o.control.empty()) {
        if (!endpoint.start({o.control, token, o.controlCert, o.controlKey}, error))
            return refuse(command, "--control: " + error, BadInput);
        std::fprintf(stderr, "control endpoint on %s://%s\n", endpoint.tls() ? "https" : "http",
                     endpoint.address().c_str());
    }
    if (!service->resolveBaselines(cli.store.get(), error))
        return refuse(command, error, BadInput);
    if (!service->begin({cli.store.get(), {}}, error))
        return refuse(command, error, RunFailed);

    const std::shared_ptr<RunControl> control = service->control();
    g_control = control.get();
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGHUP, onSignal); // the terminal closed: stop and save, as Ctrl-C
    RunSink& sink = o.control.empty() ? static_cast<RunSink&>(lines) : endpoint;
    RunOutcome outcome = service->run(sink);
    // once all is said, the live outputs' final figures stay for their scrapers (--out prometheus's linger)
    struct Linger
    {
        RunService& service;
        ~Linger() { service.lingerOutputs(); }
    } linger{*service};
    g_control = nullptr;
    std::signal(SIGINT, SIG_DFL);
    std::signal(SIGTERM, SIG_DFL);
    std::signal(SIGHUP, SIG_DFL);
    if (outcome.status == "failed" && !outcome.result.ok)
        return refuse(command, "the run could not start: " + outcome.error, RunFailed);
    if (cli.store)
        std::fprintf(stderr, "run saved in %s (run %s)\n", cli.store->path().c_str(), service->plan().runId.c_str());

    outcome.summary.controllerCpuS = cpuSeconds();
    // the table goes to stdout, unless the summary's JSON does (`--summary-json -` | jq)
    OutputPath json;
    const bool jsonToStdout = !o.summaryJson.empty() && resolveOutput(o.summaryJson, json, error) &&
                              json.kind == OutputPath::Kind::Fd && json.fd == STDOUT_FILENO;
    std::fputs(summaryToTable(outcome.summary).c_str(), jsonToStdout ? stderr : stdout);
    std::fflush(stdout);
    if (!o.summaryJson.empty() && !writeOutput(o.summaryJson, summaryToJson(outcome.summary), error))
        return refuse(command, error, RunFailed);
    if (cli.mock)
        cli.mock->stop();
    for (const std::string& e : outcome.outputErrors)
        std::fprintf(stderr, "stampede-cli %s: %s\n", command, e.c_str());
    if (!outcome.outputErrors.empty()) // asked for, and not delivered: not a pass
        return RunFailed;
    // the target suffered, or a step's error stopped it as the scenario says: a verdict, like a failed threshold
    if (outcome.status == "stopped_by_breaker" || outcome.status == "stopped_by_step")
        return refuse(command, outcome.summary.reason, ThresholdFailed);
    // A run that did not run to its end, or sent nothing, was not carried out: never a pass.
    if (outcome.status != "completed")
        return refuse(command, "the run was not carried out to its end: " + outcome.summary.reason, RunFailed);
    if (outcome.summary.total.requests == 0)
        return refuse(command, "no request completed", RunFailed);
    return outcome.summary.passed ? Passed : ThresholdFailed;
}

} // namespace stampede::cli
