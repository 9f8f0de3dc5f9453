#include "runservice.h"

#include "core/shareddata.h"

#include "output/notify.h"
#include "report/baseline.h"
#include "rollbackcommand.h"

#include "resolve/scriptsyntax.h"
#include "resolve/targets.h"

#include "core/cpubudget.h"

#include "plan/testplan.h"

#include <cmath>

#include "plan/replaystep.h"

#include "plan/checkplan.h"
#include "serverscraper.h"

#include "bundle/bundlefile.h"
#include "bundle/environment.h"
#include "core/textfile.h"
#include "localpool.h"
#include "namedtests.h"
#include "store/projectstore.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <mutex>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <thread>

namespace stampede {

// The run's record in the store; touched only on the store's thread.
class RunService::Record
{
public:
    explicit Record(ProjectStore& store) : log(store), path(store.path()) {}
    RunLog log;
    std::string path;
    std::int64_t row = 0;
    // The first write that failed: the run stops there (its record is what it is judged by).
    void fail(const std::string& why)
    {
        std::lock_guard lock(m_mutex);
        if (m_failed.empty())
            m_failed = why.empty() ? std::string("the project's store refused a write") : why;
    }
    std::string failed() const
    {
        std::lock_guard lock(m_mutex);
        return m_failed;
    }

private:
    mutable std::mutex m_mutex;
    std::string m_failed;
};

namespace {
// What a second of a run takes in the project: a row per step (and per
// engine besides the merged one), generously.
constexpr std::uint64_t kRecordBytesPerStepSecond = 2048;

std::string megabytes(std::uint64_t bytes)
{
    return std::to_string((bytes + 512 * 1024) / (1024 * 1024)) + " MiB";
}

// Whether the disk of the project at `path` holds a minute of a run's record
// (else the run is refused before it starts, with `error`).
bool roomForAMinute(const std::string& path, std::size_t steps, std::uint64_t engines, std::string& error)
{
    const std::string dir = path.substr(0, path.rfind('/') + 1);
    const std::uint64_t minute =
        60 * kRecordBytesPerStepSecond * std::max<std::size_t>(1, steps) * (engines > 1 ? engines + 1 : 1);
    struct statvfs fs;
    if (::statvfs(dir.empty() ? "." : dir.c_str(), &fs) != 0)
        return true; // not known: the writes will tell
    const std::uint64_t free = std::uint64_t(fs.f_bavail) * fs.f_frsize;
    if (free >= minute)
        return true;
    error = "cannot record the run: the project's disk has " + megabytes(free) +
            " free, and a minute of this run needs about " + megabytes(minute);
    return false;
}
// Every input file is read once, into `bundle` (what the engines run), and the plan is compiled from it as an
// agent compiles it (what the controller judges is what the engines ran, even if a file changes meanwhile); local
// engines' servers are then looked up (remote agents ask them themselves). A fault: the scenario as written is
// compiled to name every one as the user wrote it ("users.csv line 3", not the bundle's inline data; its files are
// read again only then). Nullopt with `errors`.
std::optional<ScenarioPlan> bundleAndCompile(const RunRequest& request, v1::Bundle& bundle,
                                             std::vector<PlanError>& errors)
{
    PlanOptions po;
    po.baseDir = request.baseDir;
    const bool local = request.engines.agents.empty();
    if (local)
        po.reflection = serverReflection();
    std::string bundleError;
    const bool bundled = makeBundle(request.scenario, request.baseDir, request.source, bundle, bundleError);
    auto plan = bundled ? compileScenario(bundle.scenario(), po, errors) : std::nullopt;
    if (bundled && !checkScriptSyntax(bundle.scenario(), errors))
        plan.reset();
    if (!plan) {
        std::vector<PlanError> asWritten;
        const bool compiles = compileScenario(request.scenario, po, asWritten).has_value();
        if (!(checkScriptSyntax(request.scenario, asWritten) && compiles) && !asWritten.empty())
            errors = std::move(asWritten);
        else if (!bundled)
            errors.push_back({"", bundleError});
        return std::nullopt;
    }
    if (local && !resolveTargets(*plan, errors))
        return std::nullopt;
    for (const std::string& file : filesNamedIn(request.scenario)) // what the bundle read
        plan->inputFiles.push_back(pathUnder(request.baseDir, file));
    return plan;
}
} // namespace

RunService::~RunService() = default;

bool addErrorBudget(v1::Scenario& scenario, const std::string& maxErrorRate, std::string& error)
{
    std::string why;
    const auto budget = Threshold::parse("error_rate < " + maxErrorRate, why);
    if (!budget || maxErrorRate.empty() || maxErrorRate.back() != '%' || !(budget->limit > 0) || budget->limit > 1) {
        error = "the error rate at most: \"" + maxErrorRate +
                "\" is not a percentage above 0 and at most 100, such "
                "as 1%";
        return false;
    }
    for (const auto& t : scenario.thresholds())
        if (const auto parsed = Threshold::parse(t.expr(), why);
            parsed && parsed->metric == Threshold::Metric::ErrorRate && parsed->step.empty())
            return true; // the scenario judges it itself
    scenario.add_thresholds()->set_expr(budget->expr);
    return true;
}

std::unique_ptr<RunService> RunService::prepare(RunRequest request, std::vector<std::string>& errors)
{
    if (std::string error;
        !request.maxErrorRate.empty() && !addErrorBudget(request.scenario, request.maxErrorRate, error)) {
        errors.push_back(error);
        return nullptr;
    }
    std::unique_ptr<RunService> s(new RunService);
    // By default, local engines fit the CPUs this process may use (its
    // affinity and cgroup quota, not the machine's cores): one engine per NUMA
    // node, its threads sharing the node's CPUs. Remote agents: one thread each.
    if (request.engines.agents.empty() && !request.engines.localEngines) {
        const CpuBudget budget = cpuBudget();
        request.engines.localEngines = budget.nodes;
        if (!request.scenario.threads())
            request.scenario.set_threads(std::max(1u, budget.cpus / budget.nodes));
    }
    if (!request.scenario.threads())
        request.scenario.set_threads(1); // one thread per engine: the pool brings the parallelism
    std::vector<PlanError> planErrors;
    auto plan = bundleAndCompile(request, s->m_bundle, planErrors);
    if (!plan) {
        for (const auto& e : planErrors)
            errors.push_back(e.text());
        return nullptr;
    }
    s->m_plan = std::move(*plan);
    for (std::size_t k = 0; k < s->m_plan.scenarios.size() && k < s->m_plan.places.size(); ++k)
        s->m_scenarios.push_back({s->m_plan.scenarios[k].name, s->m_plan.places[k].firstStep,
                                  std::uint32_t(s->m_plan.scenarios[k].steps.size()),
                                  double(s->m_plan.places[k].startAfter) / 1e9,
                                  double(s->m_plan.scenarios[k].duration) / 1e9});
    const std::vector<std::string> stepNames = s->m_plan.measuredNames(); // steps, and "group NAME"s
    if (const auto step = Breaker::unknownStep(request.breaker, stepNames)) {
        errors.push_back("--breaker: no step is named \"" + *step + "\"");
        return nullptr;
    }
    if (request.capacity) {
        std::string why = CapacitySearch::invalid(*request.capacity);
        if (why.empty() && (!s->m_plan.load || s->m_plan.load->model() != LoadModel::Open))
            why = s->m_plan.load ? "a capacity search runs the open model (shapeForCapacity())"
                                 : "a capacity search runs one scenario, not a plan of several";
        for (const Threshold& t : request.capacity->slos)
            if (why.empty() && !t.step.empty() &&
                std::find(stepNames.begin(), stepNames.end(), t.step) == stepNames.end())
                why = "--slo \"" + t.expr + "\": no step is named \"" + t.step + "\"";
        if (!why.empty()) {
            errors.push_back(why);
            return nullptr;
        }
        s->m_capacity = std::make_unique<CapacitySearch>(*request.capacity, stepNames);
    }
    for (const auto& w : flowWarnings(s->m_plan))
        s->m_warnings.push_back(w.text());
    std::vector<std::string> sourceErrors;
    ServerScraper::preflight(s->m_plan.serverMetrics, sourceErrors, s->m_warnings);
    if (!sourceErrors.empty()) {
        errors.insert(errors.end(), sourceErrors.begin(), sourceErrors.end());
        return nullptr;
    }
    std::string error, pem;
    // the agents' CA must be readable: never a silent fallback to the system's CAs
    if (!request.controller.caFile.empty() && !readWholeFile(request.controller.caFile, pem, error)) {
        errors.push_back("the agents' CA \"" + request.controller.caFile + "\" cannot be read: " + error);
        return nullptr;
    }
    std::string asWritten = request.scenarioJson;
    if (redactSecrets(asWritten, secretValues(request.scenario)))
        request.scenarioJson.clear();   // a secret written in it: recorded from the scenario, masked
    if (request.scenarioJson.empty()) { // as it ran, without a replay's requests (its set or file is named)
        v1::Scenario recorded = request.scenario;
        withoutReplayData(recorded);
        maskSecrets(recorded); // --var values, an environment's secrets: never in the record
        (void)google::protobuf::util::MessageToJsonString(recorded, &request.scenarioJson, {});
    }
    if (request.controller.control)
        s->m_control = request.controller.control;
    request.controller.control = s->m_control;
    s->m_request = std::move(request);
    if (std::string why; s->m_request.engines.agents.empty() && !s->fitsFileLimit(why)) {
        errors.push_back(why);
        return nullptr;
    }
    if (!s->openOutputs(errors))
        return nullptr;
    return s;
}

bool RunService::openOutputs(std::vector<std::string>& errors)
{
    if (m_request.outputs.size() > kMaxOutputs) {
        errors.push_back("at most " + std::to_string(kMaxOutputs) + " outputs (--out) per run");
        return false;
    }
    for (const std::string& text : m_request.outputs) {
        OutputSpec spec;
        std::string error;
        if (!parseOutputSpec(text, spec, error)) {
            errors.push_back(error);
            return false;
        }
        auto output = makeOutput(spec);
        if (!output->open(m_plan, error)) {
            errors.push_back(error);
            return false;
        }
        m_outputs.push_back(std::move(output));
    }
    return openNotifier(errors);
}

bool RunService::openNotifier(std::vector<std::string>& errors)
{
    std::vector<NotifyTarget> targets;
    std::string error;
    for (const std::string& text : m_request.notify) {
        NotifyTarget t;
        if (!parseNotifySpec(text, t, error)) {
            errors.push_back(error);
            return false;
        }
        targets.push_back(std::move(t));
    }
    if (!scenarioNotifyTargets(m_bundle.scenario(), targets, error)) {
        errors.push_back(error);
        return false;
    }
    if (targets.empty())
        return true;
    if (targets.size() > kMaxNotifyTargets) {
        errors.push_back("at most " + std::to_string(kMaxNotifyTargets) +
                         " notification targets per run (--notify "
                         "and the scenario's notify)");
        return false;
    }
    auto notifier = std::make_unique<Notifier>(std::move(targets));
    m_notifier = notifier.get();
    if (!notifier->open(m_plan, error)) {
        errors.push_back(error);
        return false;
    }
    m_outputs.push_back(std::move(notifier));
    return true;
}

void RunService::recordNotifyTries(const std::function<void(const RunEvent&)>& record)
{
    if (m_notifier)
        for (const RunEvent& e : m_notifier->takeEvents())
            record(e);
}

// Each connection is a file descriptor: a local engine must be allowed as
// many as its share (the agents raise their soft limit to the hard one).
bool RunService::fitsFileLimit(std::string& why) const
{
    rlimit limit{};
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_max == RLIM_INFINITY)
        return true;
    const unsigned engines = localEngineCount();
    const std::uint64_t perEngine = (std::uint64_t(m_plan.connections) + engines - 1) / engines;
    constexpr std::uint64_t kSpare = 64; // the agent's own files, its gRPC server
    if (perEngine + kSpare <= limit.rlim_max)
        return true;
    why = std::to_string(m_plan.connections) + " connections on " + std::to_string(engines) + " local engine" +
          (engines == 1 ? "" : "s") + " need " + std::to_string(perEngine + kSpare) +
          " open files each; this system allows " + std::to_string(limit.rlim_max) +
          " (raise it with ulimit -n, or use more engines)";
    return false;
}

unsigned RunService::localEngineCount() const
{
    const unsigned wanted = std::max(1u, m_request.engines.localEngines); // prepare() chose it when not given
    // every engine needs at least one connection (open) or user (closed) per thread, in each scenario
    unsigned cap = std::max(1u, m_plan.connections / std::max(1u, m_plan.threads));
    for (const ScenarioPlan& sc : m_plan.scenarios)
        cap = std::min(cap, std::max(1u, sc.connections / std::max(1u, sc.threads)));
    return std::min(wanted, cap);
}

// The thresholds and breaker rules judged against the scenario's history, resolved from the runs in `store`
// (report/baseline.h); the scenario as recorded says the values they judged by.
bool RunService::resolveBaselines(ProjectStore* store, std::string& error)
{
    std::vector<Threshold*> all;
    for (Threshold& t : m_plan.thresholds)
        all.push_back(&t);
    for (BreakerRule& r : m_plan.breaker)
        all.push_back(&r.when);
    for (BreakerRule& r : m_request.breaker)
        all.push_back(&r.when);
    std::vector<std::pair<Threshold*, std::string>> asked;
    for (Threshold* t : all)
        if (t->baseline && !t->baseline->resolved)
            asked.emplace_back(t, t->expr);
    if (asked.empty())
        return true;
    if (!store) {
        error = "threshold \"" + asked.front().second +
                "\": a baseline is made of the scenario's runs in its project: run it in one (--project FILE, or "
                "PROJECT.stampede@NAME)";
        return false;
    }
    if (!stampede::resolveBaselines(all, *store, m_plan.name, error))
        return false;
    // the record says what each judged by (its text as written, or as protobuf writes it: < and > escaped)
    const auto escaped = [](std::string text) {
        for (const auto& [c, with] : {std::pair{'<', "\\u003c"}, std::pair{'>', "\\u003e"}})
            for (std::size_t at; (at = text.find(c)) != std::string::npos;)
                text.replace(at, 1, with);
        return text;
    };
    for (const auto& [t, before] : asked)
        for (const std::string& from : {jsonString(before), escaped(jsonString(before))})
            for (std::size_t at; (at = m_request.scenarioJson.find(from)) != std::string::npos;)
                m_request.scenarioJson.replace(at, from.size(), jsonString(t->expr));
    return true;
}

bool RunService::begin(const RunRecording& recording, std::string& error)
{
    if (!resolveBaselines(recording.store, error))
        return false;
    if (!recording.store)
        return true;
    m_recording = recording;
    const std::uint64_t engines =
        m_request.engines.agents.empty() ? localEngineCount() : m_request.engines.agents.size();
    if (!roomForAMinute(recording.store->path(), m_plan.steps.size(), engines, error))
        return false;
    m_record = std::make_shared<Record>(*recording.store);
    std::vector<std::string> steps;
    std::vector<std::vector<std::string>> checks;
    for (const auto& st : m_plan.steps) {
        steps.push_back(st.name);
        checks.emplace_back();
        for (const auto& c : st.checks)
            checks.back().push_back(c.name);
    }
    m_record->row = m_record->log.begin(m_plan.runId, m_plan.name, m_request.scenarioJson, "{}", {}, steps, checks,
                                        m_plan.groups, m_scenarios, m_plan.groupFirstSteps());
    if (!m_record->row) {
        error = "cannot record the run: " + m_record->log.error();
        return false;
    }
    if (m_recording.onStoreThread)
        m_recording.store->setAutoCheckpoint(false); // checkpoints come from the run's thread
    if (m_notifier)                                  // what a notification names: where the run is kept
        m_notifier->setReport(recording.store->path() + " (run " + m_plan.runId + ")");
    return true;
}

void RunService::onStore(RunSink& sink, std::function<bool(RunLog&, std::int64_t)> write)
{
    if (!m_record || !m_record->row)
        return;
    auto job = [record = m_record, write = std::move(write), control = m_control, &sink] {
        if (write(record->log, record->row))
            return;
        // a second that cannot be kept stops the run: its record would not be the run
        record->fail(record->log.error());
        control->stop();
        sink.recordingFailed(record->log.error());
    };
    if (m_recording.onStoreThread)
        m_recording.onStoreThread(std::move(job));
    else
        job();
}

bool RunService::startEngines(LocalPool& pool, std::vector<std::string>& addresses, std::string& error)
{
    const EngineChoice& e = m_request.engines;
    if (!e.agents.empty()) {
        addresses = e.agents;
        return true;
    }
    if (!pool.start(e.executable, localEngineCount(), error, e.pin, e.niceness)) {
        error = "local pool: " + error;
        return false;
    }
    addresses = pool.addresses();
    m_request.controller.token = pool.token();
    m_request.controller.caFile.clear();
    return true;
}

namespace {
// Every scenario's load is paced (open arrivals, a replay): a lost agent's share can be carried by others.
bool pacedPlan(const ScenarioPlan& plan)
{
    if (plan.scenarios.empty())
        return plan.load && plan.load->paced();
    return std::all_of(plan.scenarios.begin(), plan.scenarios.end(),
                       [](const ScenarioPlan& sc) { return sc.load && sc.load->paced(); });
}
} // namespace

RunOutcome RunService::run(RunSink& sink)
{
    LocalPool pool;
    std::vector<std::string> addresses;
    std::string error;
    if (m_control->stopRequested())
        return fail(sink, "stopped before the engines started");
    if (!startEngines(pool, addresses, error))
        return fail(sink, error);
    if (m_plan.sharedData && !m_request.controller.shared) // one store for the setup, the load and the teardown
        m_request.controller.shared = std::make_shared<SharedStore>();
    if (m_request.controller.onAgentLoss == AgentLossPolicy::Default) // a paced plan keeps its rate: rebalance
        m_request.controller.onAgentLoss = pacedPlan(m_plan) ? AgentLossPolicy::Rebalance : AgentLossPolicy::Abort;
    Controller controller(addresses, m_request.controller);
    if (!controller.connect(error))
        return fail(sink, error);
    const std::vector<std::string> agents = controller.agentNames();
    onStore(sink, [agents](RunLog& log, std::int64_t row) { return log.setAgents(row, agents); });
    sink.started(agents);
    for (auto& out : m_outputs)
        out->started(agents);
    const v1::Scenario& plan = m_bundle.scenario();
    if (plan.setup_size()) {
        m_setup = runPhase(addresses.front(), false, 0, sink);
        if (!m_setup->ok) { // no load without what it needs: the run could not be carried out
            pool.stop();
            RunResult failed;
            failed.error = "setup failed: " + m_setup->why;
            failed.events = m_ownEvents;
            return conclude(sink, agents, std::move(failed));
        }
    }
    RunResult result = drive(controller, sink);
    const std::vector<std::string> all = controller.agentNames(); // with those that joined (--elastic)
    if (plan.teardown_size()) {                                   // after a stop or a breaker trip too
        m_teardown = runPhase(addresses.front(), true, double(result.elapsed) / 1e9, sink);
        result.events.push_back(m_ownEvents.back());
    }
    pool.stop();
    if (m_rollback && !m_request.rollbackCommand.empty()) // after the teardown, as the rollback asks
        result.events.push_back(rollBack(double(result.elapsed) / 1e9, sink));
    return conclude(sink, all, std::move(result));
}

// The rollback's command, its outcome an event of the run.
RunEvent RunService::rollBack(double atS, RunSink& sink)
{
    const CommandOutcome done = runCommand(
        m_request.rollbackCommand,
        {{"STAMPEDE_RUN_ID", m_plan.runId}, {"STAMPEDE_SCENARIO", m_plan.name}, {"STAMPEDE_REASON", m_breakerStop}},
        m_request.rollbackTimeout);
    RunEvent e;
    e.atS = atS;
    e.kind = "rollback";
    e.detail = "--rollback: " + done.text();
    onStore(sink, [e](RunLog& log, std::int64_t row) { return log.addEvent(row, e); });
    sink.event(e);
    return e;
}

RunSummary::Phase RunService::runPhase(const std::string& address, bool teardown, double atS, RunSink& sink)
{
    v1::Bundle bundle = m_bundle; // files inlined, the setup's values injected
    *bundle.mutable_scenario() = phaseScenario(m_bundle.scenario(), teardown);
    ControllerOptions options = m_request.controller;
    options.control = std::make_shared<RunControl>(); // a stop of the load does not stop the teardown
    Controller c({address}, options);
    RunSummary::Phase p;
    SteadyClock steady;
    const Clock& clock = options.clock ? *options.clock : steady; // the controller's, as its own decisions
    const Nanos began = clock.now();
    std::string error;
    RunResult r;
    if (c.connect(error))
        r = c.run(bundle, m_plan.runId + (teardown ? "-teardown" : "-setup"),
                  std::size_t(bundle.scenario().steps_size()), {});
    else
        r.error = error;
    p.seconds = double(clock.now() - began) / 1e9;
    const StepMetrics total = r.total.total();
    p.requests = total.counters.requests;
    p.errors = total.counters.errors;
    for (const auto& [name, value] : r.values)
        p.values.push_back(name);
    std::vector<std::string> missing;
    if (!teardown)
        for (const std::string& name : setupNames(m_bundle.scenario()))
            if (!r.values.count(name))
                missing.push_back(name);
    p.why = !r.ok              ? (r.error.empty() ? std::string("the engine did not run it") : r.error)
            : p.requests == 0  ? "no request completed"
            : p.errors         ? std::to_string(p.errors) + " of " + std::to_string(p.requests) + " requests failed"
            : !missing.empty() ? "${" + missing.front() + "} took no value"
                               : "";
    p.ok = p.why.empty();
    if (!teardown && p.ok)
        injectValues(*m_bundle.mutable_scenario(), r.values);
    std::string detail = std::to_string(p.requests) + " request" + (p.requests == 1 ? "" : "s") + " in " +
                         std::to_string(std::llround(p.seconds * 1000)) + " ms";
    if (!p.values.empty()) {
        detail += "; values:";
        for (const std::string& v : p.values)
            detail += " " + v;
    }
    const RunEvent e{atS, std::string(teardown ? "teardown" : "setup") + (p.ok ? "" : "_failed"),
                     "",  p.ok ? detail : p.why + " (" + detail + ")",
                     0,   0};
    m_ownEvents.push_back(e);
    onStore(sink, [e](RunLog& log, std::int64_t row) { return log.addEvent(row, e); });
    sink.event(e);
    return p;
}

namespace {
// What the engines send passes through here before it is shown, saved or
// exported: a secret's value (a server echoing a token, a script's
// console.log) as "***".
void redactMetrics(IntervalMetrics& m, const std::vector<std::string>& secrets)
{
    for (ErrorSample& s : m.samples) {
        redactSecrets(s.head, secrets);
        redactSecrets(s.body, secrets);
        redactSecrets(s.detail, secrets);
    }
    for (ConsoleLine& line : m.console)
        redactSecrets(line.text, secrets);
}

void redactCallbacks(Controller::Callbacks& cb, const std::vector<std::string>& secrets)
{
    auto clean = [secrets](IntervalMetrics& m) { redactMetrics(m, secrets); };
    if (cb.onSecond)
        cb.onSecond = [inner = cb.onSecond, clean](const IntervalMetrics& m, const SecondSummary& s) {
            IntervalMetrics copy = m;
            clean(copy);
            inner(copy, s);
        };
    if (cb.onAgentSecond)
        cb.onAgentSecond = [inner = cb.onAgentSecond, clean](std::size_t agent, const IntervalMetrics& m) {
            IntervalMetrics copy = m;
            clean(copy);
            inner(agent, copy);
        };
    if (cb.onEvent)
        cb.onEvent = [inner = cb.onEvent, secrets](const RunEvent& e) {
            RunEvent copy = e;
            redactSecrets(copy.detail, secrets);
            inner(copy);
        };
}
} // namespace

RunResult RunService::drive(Controller& controller, RunSink& sink)
{
    const auto& names = controller.agentNames();
    const bool checkpoints = m_record && m_recording.onStoreThread;
    // Percentiles and serialization happen here; the store's thread only writes SQL.
    auto parts = std::make_shared<std::vector<PreparedSecond>>();
    ServerScraper scraper(m_plan.serverMetrics);
    std::map<std::string, double> serverNow; // the target's metrics as read at the end of the second
    std::map<std::uint32_t, std::map<std::string, double>> serverBySecond;
    Controller::Callbacks cb;
    if (names.size() > 1 || m_request.controller.discover) // each agent's own seconds, when there are several
        cb.onAgentSecond = [&](std::size_t agent, const IntervalMetrics& part) {
            parts->push_back(RunLog::prepare(part, names[agent], m_scenarios));
        };
    NamedTests named(m_plan);
    cb.onSecond = [&](const IntervalMetrics& second, const SecondSummary& summary) {
        serverNow = scraper.latest();
        parts->push_back(RunLog::prepare(second, {}, m_scenarios));
        parts->back().server = serverNow;
        std::shared_ptr<const std::vector<PreparedSecond>> ready = std::move(parts);
        parts = std::make_shared<std::vector<PreparedSecond>>();
        SecondSummary withServer = summary;
        withServer.server = serverNow;
        withServer.planned = plannedRequests(m_plan, second.second);
        if (!serverNow.empty())
            serverBySecond[second.second] = serverNow;
        LiveSecond live{withServer, ready, named.names(), {}};
        for (const StepMetrics& m : second.steps)
            live.checkMessages.push_back(m.checkMessages);
        sink.second(live);
        for (auto& out : m_outputs)
            out->second(withServer, ready->back());
        onStore(sink, [ready](RunLog& log, std::int64_t row) { return log.write(row, *ready); }); // one transaction
        recordNotifyTries([&](const RunEvent& e) { // the tries of the notifications so far, as the run's events
            m_ownEvents.push_back(e);
            cb.onEvent(e);
        });
        if (checkpoints && second.second % 5 == 0) {
            std::string ignored; // a checkpoint that cannot happen now happens later
            ProjectStore::checkpoint(m_record->path, ignored);
        }
    };
    cb.onEvent = [&](const RunEvent& e) {
        if (e.kind == "agent_joined") // the run's agents, as saved, grow with it
            onStore(sink, [all = names](RunLog& log, std::int64_t row) { return log.setAgents(row, all); });
        onStore(sink, [e](RunLog& log, std::int64_t row) { return log.addEvent(row, e); });
        sink.event(e);
        for (auto& out : m_outputs)
            out->event(e);
    };
    Breaker breaker = makeBreaker();
    if (!breaker.empty() || !m_plan.serverMetrics.empty() || m_capacity)
        watchSeconds(cb, breaker, scraper, serverNow);
    GrowHook grow(m_request.grow, m_plan.runId, m_plan.name);
    watchGrowth(cb, grow, names);
    std::vector<RendezvousRule::Point> rendezvous;
    for (const PlannedStep& st : m_plan.steps)
        rendezvous.push_back({st.rendezvousUsers, st.rendezvousTimeout});
    controller.setRendezvous(std::move(rendezvous));
    const std::vector<std::string> secrets = secretValues(m_request.scenario);
    if (!secrets.empty())
        redactCallbacks(cb, secrets);
    scraper.start();
    controller.setSecondHook([&named](IntervalMetrics& second) { named.index(second); });
    RunResult result = controller.run(m_bundle, m_plan.runId, m_plan.steps.size(), cb);
    for (const RunEvent& e : grow.finish(double(result.elapsed) / 1e9)) { // a command still running is ended
        m_ownEvents.push_back(e);
        cb.onEvent(e);
    }
    scraper.stop();
    result.testNames = named.names();
    finishResult(result, secrets, serverBySecond);
    return result;
}

// The live breaker: the scenario's rules, then the command line's on top; levels when it escalates; the checks'
// names ("STEP/CHECK") its rules may name.
Breaker RunService::makeBreaker() const
{
    std::vector<BreakerRule> rules = m_plan.breaker;
    rules.insert(rules.end(), m_request.breaker.begin(), m_request.breaker.end());
    Breaker breaker(std::move(rules), m_plan.measured(), std::uint32_t(m_plan.breakerCooldown / kNanosPerSecond),
                    m_plan.breakerRecover);
    if (m_plan.breakerEscalate)
        breaker.escalate(m_plan.breakerEscalateDegrade);
    std::vector<std::vector<std::string>> checkNames;
    for (const PlannedStep& st : m_plan.steps) {
        checkNames.emplace_back();
        for (const Check& c : st.checks)
            checkNames.back().push_back(st.name + "/" + c.name);
    }
    breaker.setCheckNames(std::move(checkNames));
    return breaker;
}

// After each merged second: the target's metrics summed, a source's failure an event, the breaker's trips applied,
// the capacity search's next level.
void RunService::watchSeconds(Controller::Callbacks& cb, Breaker& breaker, ServerScraper& scraper,
                              const std::map<std::string, double>& serverNow)
{
    auto onSecond = cb.onSecond;
    cb.onSecond = [this, &cb, &breaker, &scraper, &serverNow, onSecond](const IntervalMetrics& second,
                                                                        const SecondSummary& summary) {
        onSecond(second, summary);
        const std::map<std::string, double>& server = serverNow;
        for (const auto& [name, value] : server) {
            m_serverSums[name].first += value;
            ++m_serverSums[name].second;
        }
        for (const std::string& p : scraper.takeProblems()) { // a source that fails is an event, not a failure
            m_ownEvents.push_back({double(second.second), "server_metric", "", p, 0, 0});
            cb.onEvent(m_ownEvents.back());
        }
        applyTrips(breaker.onSecond(second, server), second.second, cb.onEvent);
        if (m_capacity)
            searchCapacity(second, server, cb.onEvent);
    };
}

// The run's result as kept: secrets redacted, the target's metrics beside each second, the service's own events
// among the engines', in time order.
void RunService::finishResult(RunResult& result, const std::vector<std::string>& secrets,
                              const std::map<std::uint32_t, std::map<std::string, double>>& serverBySecond)
{
    for (RunEvent& e : result.events)
        redactSecrets(e.detail, secrets);
    redactMetrics(result.total, secrets);
    for (SecondSummary& t : result.timeline)
        if (auto it = serverBySecond.find(t.second); it != serverBySecond.end())
            t.server = it->second;
    result.events.insert(result.events.end(), m_ownEvents.begin(), m_ownEvents.end());
    std::stable_sort(result.events.begin(), result.events.end(),
                     [](const RunEvent& a, const RunEvent& b) { return a.atS < b.atS; });
}

void RunService::watchGrowth(Controller::Callbacks& cb, GrowHook& grow, const std::vector<std::string>& agents)
{
    if (m_request.grow.command.empty())
        return;
    cb.onSecond = [this, &cb, &grow, &agents, onSecond = cb.onSecond](const IntervalMetrics& second,
                                                                      const SecondSummary& summary) {
        onSecond(second, summary);
        for (const RunEvent& e : grow.onSecond(second.second, second.health.cpu, agents.size())) {
            m_ownEvents.push_back(e);
            cb.onEvent(e);
        }
    };
}

// What the breaker's trips of a second do: each is an event (saved, shown);
// degrade scales the load, stop ends the run as stopped by the breaker.
void RunService::applyTrips(const std::vector<BreakerTrip>& trips, std::uint32_t second,
                            const std::function<void(const RunEvent&)>& record)
{
    for (const BreakerTrip& t : trips) {
        RunEvent e;
        e.atS = double(second);
        e.kind = t.rule ? "breaker" : "breaker_recovered";
        e.detail = t.detail;
        m_ownEvents.push_back(e);
        record(e);
        // a capacity search sets the level itself: there a degrade only warns
        if ((!t.rule || t.rule->action == BreakerRule::Action::Degrade) && !m_capacity)
            m_control->scale(t.factor);
        if (t.rule && t.rule->action == BreakerRule::Action::Rollback && m_breakerStop.empty())
            m_rollback = true;
        if (t.rule &&
            (t.rule->action == BreakerRule::Action::Stop || t.rule->action == BreakerRule::Action::Rollback) &&
            m_breakerStop.empty()) {
            m_breakerStop = t.detail;
            m_control->stop();
        }
    }
}

// A capacity search's second: a level that ends (or settling) is an event;
// the next rate scales the load (the plan's rate is the start rate); a concluded search ends
// the run.
void RunService::searchCapacity(const IntervalMetrics& second, const std::map<std::string, double>& server,
                                const std::function<void(const RunEvent&)>& record)
{
    const std::optional<double> next = m_capacity->onSecond(second, server);
    for (CapacityEvent& e : m_capacity->takeEvents()) {
        m_ownEvents.push_back({double(second.second), std::move(e.kind), "", std::move(e.detail), 0, 0});
        record(m_ownEvents.back());
    }
    if (next)
        m_control->scale(*next / m_request.capacity->start);
    else if (m_capacity->done())
        m_control->stop();
}

RunOutcome RunService::fail(RunSink& sink, const std::string& error)
{
    RunResult result;
    result.error = error;
    return conclude(sink, {}, std::move(result));
}

RunOutcome RunService::conclude(RunSink& sink, const std::vector<std::string>& agents, RunResult result)
{
    RunOutcome o;
    o.status = !result.ok ? "failed" : result.aborted ? "aborted" : result.stopped ? "stopped" : "completed";
    o.error = result.error;
    o.agents = agents;
    o.summary = summarizeRun(m_plan, result);
    o.summary.engines = agents;
    o.summary.setup = m_setup;
    o.summary.teardown = m_teardown;
    if (m_setup && !m_setup->ok) {
        o.summary.reason = result.error;
        o.summary.passed = false;
    }
    if (!m_serverSums.empty()) { // server:NAME thresholds judge the run's mean of each metric
        for (const auto& [name, sum] : m_serverSums)
            o.summary.total.server[name] = sum.first / double(sum.second);
        o.summary.thresholds.clear();
        o.summary.passed = o.summary.reason.empty();
        evaluateThresholds(o.summary, m_plan.thresholds);
    }
    if (!m_breakerStop.empty() && o.status == "stopped") { // not a stop someone asked for: a verdict
        o.status = "stopped_by_breaker";
        o.summary.status = o.status;
        o.summary.reason =
            (m_rollback ? "stopped and rolled back by breaker: " : "stopped by breaker: ") + m_breakerStop;
        o.summary.passed = false;
    }
    for (const RunEvent& e : result.events) // a step's error stopped it (onError: stopRun): a verdict
        if (e.kind == "stopped_by_step" && (o.status == "stopped" || o.status == "completed")) {
            o.status = "stopped_by_step";
            o.summary.status = o.status;
            o.summary.reason = "stopped by a step: " + e.detail;
            o.summary.passed = false;
            break;
        }
    if (m_capacity && result.ok) {
        m_capacity->interrupted(o.summary.reason.empty() ? "the run ended before the search did" : o.summary.reason);
        judgeCapacity(o.summary, m_capacity->result());
        o.status = o.summary.status;
    }
    if (const std::string failed = m_record ? m_record->failed() : std::string(); !failed.empty() && result.ok) {
        o.status = "failed"; // the run went, and its record did not: never a pass
        o.error = "cannot record: " + failed;
        o.summary.status = o.status;
        o.summary.reason = o.error;
        o.summary.passed = false;
    }
    o.result = std::move(result);
    for (auto& out : m_outputs)
        if (std::string error; !out->finish(o.summary, error))
            o.outputErrors.push_back(error);
    recordNotifyTries([&](const RunEvent& e) { // the end's notifications, tried once the verdict was known
        o.result.events.push_back(e);
        o.summary.events.push_back(e);
        onStore(sink, [e](RunLog& log, std::int64_t row) { return log.addEvent(row, e); });
        sink.event(e);
    });
    if (m_notifier) // said beside the verdict, never changing it
        for (const std::string& w : m_notifier->undelivered())
            o.summary.warnings.push_back(w);
    const bool started = o.result.ok;
    const std::string status = o.status == "failed" && !started ? "aborted" : o.status; // as the run is listed
    const std::string json = o.status == "failed" && !started ? "{}" : summaryToJson(o.summary);
    for (std::size_t i = 0; i < o.result.testNames.size() && i < m_plan.steps.size(); ++i)
        if (!o.result.testNames[i].empty()) { // the step's checks, with the names its scripts' tests came under
            std::vector<std::string> names;
            for (const Check& c : m_plan.steps[i].checks)
                names.push_back(c.name);
            names.insert(names.end(), o.result.testNames[i].begin(), o.result.testNames[i].end());
            onStore(sink, [i, names](RunLog& log, std::int64_t row) { return log.setCheckNames(row, i, names); });
        }
    for (std::size_t i = 0; i < o.result.total.steps.size() && i < m_plan.steps.size(); ++i)
        if (const auto& messages = o.result.total.steps[i].checkMessages; !messages.empty())
            onStore(sink,
                    [i, messages](RunLog& log, std::int64_t row) { return log.setCheckMessages(row, i, messages); });
    ProjectStore* store = m_recording.store;
    const bool restore = m_recording.onStoreThread != nullptr;
    onStore(sink, [status, json, store, restore](RunLog& log, std::int64_t row) {
        const bool ok = log.finish(row, status, json);
        if (restore)
            store->setAutoCheckpoint(true);
        return ok;
    });
    sink.finished(o);
    return o;
}

} // namespace stampede
