#pragma once
// The one run path. `stampede-cli run` and the workbench's RunSession are thin
// callers of this: given a valid scenario, the engines (the local pool or
// running agents), the controller's options and where to record the run, it
// compiles the plan, caps the engines, starts the local pool, connects,
// records the run (begun, one transaction a second, each event as it happens,
// finished), drives the controller, and tells a sink what happens.
//
// Threads: prepare() and begin() on the caller's thread; run() blocks the
// run's own thread and calls the sink there. The project store belongs to one
// thread: every write to it goes through RunRecording::onStoreThread, in order.
// Live control (pause, resume, scale, stop) goes through control(), from any
// thread, never as a blocking call and never through a pointer that can dangle.
#include "breaker.h"
#include "capacitysearch.h"

#include "controller.h"
#include "growhook.h"
#include "output/runoutput.h"
#include "plan/scenarioplan.h"
#include "report/runsummary.h"
#include "runcontrol.h"
#include "store/runlog.h"
#include <map>

#include "stampede/v1/bundle.pb.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stampede {

class ProjectStore;
class ServerScraper;
class LocalPool;
class Notifier;

struct EngineChoice
{
    std::vector<std::string> agents;           // host:port of running agents; empty: the local pool
    unsigned localEngines = 0;                 // the local pool's size; 0: one per NUMA node (see prepare())
    std::string executable = "/proc/self/exe"; // what the local agents run (`EXE agent ...`)
    bool pin = false;                          // local agent i on CPU i
    int niceness = 0;                          // above 0: local agents yield the CPU to the caller
};

struct RunRecording
{
    ProjectStore* store = nullptr; // null: the run is not recorded
    // Runs a write on the store's thread, in order; null: inline on the run's
    // thread. When set, the write-ahead log is checkpointed from the run's
    // thread meanwhile (on a connection of its own), so the store's thread
    // only writes a second at a time.
    std::function<void(std::function<void()>)> onStoreThread;
};

// One completed second: its summary, and what the store writes (each agent's
// part when several ran, then the merged second, last).
struct LiveSecond
{
    SecondSummary summary;
    std::shared_ptr<const std::vector<PreparedSecond>> prepared;
    // Per step, the names its scripts' tests came under so far (their check indices follow the plan's checks),
    // and why each check failed in this second (by check index; "" where none did).
    std::vector<std::vector<std::string>> testNames;
    std::vector<std::vector<std::string>> checkMessages;
};

struct RunOutcome
{
    // completed, stopped (asked to end early: Stop, Ctrl-C), aborted (an agent
    // lost, by policy), failed (could not start)
    std::string status;
    std::string error; // failed: why
    std::vector<std::string> agents;
    RunResult result;
    RunSummary summary;
    std::vector<std::string> outputErrors; // an output (--out) that could not be kept as asked
};

// What happens, told on the run's thread.
class RunSink
{
public:
    virtual ~RunSink() = default;
    virtual void started(const std::vector<std::string>& /*agents*/) {}
    virtual void second(const LiveSecond& /*second*/) {}
    virtual void event(const RunEvent& /*event*/) {}
    virtual void finished(const RunOutcome& /*outcome*/) {}
    // A write to the store failed (on the store's thread): the run goes on.
    virtual void recordingFailed(const std::string& /*error*/) {}
};

struct RunRequest
{
    v1::Scenario scenario;    // overrides already applied as constants
    std::string baseDir;      // CSV and .proto files are read relative to this
    std::string source;       // the bundle's source name: the scenario file, "quick", "gui"
    std::string scenarioJson; // as recorded with the run; empty: the scenario's own JSON
    EngineChoice engines;
    ControllerOptions controller;
    std::vector<BreakerRule> breaker; // live rules (the command line's), judged every second
    // Set: a capacity search (the scenario shaped by shapeForCapacity()); the
    // search scales the load level by level and ends the run.
    std::optional<CapacityOptions> capacity;
    // Where the figures also go while the run goes on (output/runoutput.h):
    // "prometheus=HOST:PORT", "jsonl=FILE"; opened by prepare().
    std::vector<std::string> outputs;
    // Webhooks told how the run goes (output/notify.h): "[KIND=]URL[,secret=S][,on=start+end]", beside the
    // scenario's own "notify" list.
    std::vector<std::string> notify;
    // A breaker rule's rollback (or a plan's) runs this on the controller after the teardown
    // (control/rollbackcommand.h): `sh -c COMMAND`, at most rollbackTimeout.
    std::string rollbackCommand;
    Nanos rollbackTimeout = 120 * kNanosPerSecond;
    // Set (--grow COMMAND): run when the agents stay busy, to add agents that join (control/growhook.h).
    GrowOptions grow;
    // Set ("1%"): the run is also judged by `error_rate < 1%` unless the scenario's thresholds judge the run's
    // error rate already (a project's or the command line's default: no quiet pass for those who want none).
    std::string maxErrorRate;
};

// Adds `error_rate < maxErrorRate` to the scenario's thresholds unless one of them judges the run's error rate;
// false with `error` when `maxErrorRate` is not a percentage above 0 and at most 100.
bool addErrorBudget(v1::Scenario& scenario, const std::string& maxErrorRate, std::string& error);

class RunService
{
public:
    // Compiles the scenario and makes its bundle; null with every error when
    // it is not valid. Scenarios without threads get one thread per engine.
    static std::unique_ptr<RunService> prepare(RunRequest request, std::vector<std::string>& errors);
    ~RunService();

    // What the plan will do that its author may not mean (flowWarnings()).
    const std::vector<std::string>& warnings() const { return m_warnings; }
    const ScenarioPlan& plan() const { return m_plan; }
    // Local engines to start: the request's (by default, one per NUMA node), at most one per
    // connection (open) or user (closed) of each engine's threads.
    unsigned localEngineCount() const;
    // Records the run's start in the store (on the store's thread, before
    // run()); false with `error` when it cannot be recorded. Without it the
    // run is not recorded.
    bool begin(const RunRecording& recording, std::string& error);
    // The thresholds and breaker rules judged against the scenario's history ("p99 < baseline + 3 sigma",
    // report/baseline.h), resolved from its runs in `store` (begin() does it too); false with `error` when they
    // cannot be (no project, too few runs): bad input.
    bool resolveBaselines(ProjectStore* store, std::string& error);
    // Carries the run out; blocks until it ends. Call once.
    RunOutcome run(RunSink& sink);
    std::shared_ptr<RunControl> control() const { return m_control; }
    // After the run, before the process exits: what the live outputs still owe their readers (RunOutput::linger).
    void lingerOutputs()
    {
        for (auto& out : m_outputs)
            out->linger();
    }

private:
    RunService() = default;
    class Record;
    void onStore(RunSink& sink, std::function<bool(RunLog&, std::int64_t row)> write);
    bool startEngines(LocalPool& pool, std::vector<std::string>& addresses, std::string& error);
    bool fitsFileLimit(std::string& why) const;
    RunResult drive(Controller& controller, RunSink& sink);
    Breaker makeBreaker() const;
    void watchSeconds(Controller::Callbacks& cb, Breaker& breaker, ServerScraper& scraper,
                      const std::map<std::string, double>& serverNow);
    void finishResult(RunResult& result, const std::vector<std::string>& secrets,
                      const std::map<std::uint32_t, std::map<std::string, double>>& serverBySecond);
    // --grow: each merged second judged by `grow`, its events the run's.
    void watchGrowth(Controller::Callbacks& cb, GrowHook& grow, const std::vector<std::string>& agents);
    // A plan's setup (or teardown) on the engine at `address`: its summary, an event, and for the setup
    // its values in the bundle the load runs.
    RunSummary::Phase runPhase(const std::string& address, bool teardown, double atS, RunSink& sink);
    RunOutcome fail(RunSink& sink, const std::string& error);
    RunOutcome conclude(RunSink& sink, const std::vector<std::string>& agents, RunResult result);

    RunRequest m_request;
    RunRecording m_recording;
    ScenarioPlan m_plan;
    std::string m_breakerStop;         // set: a breaker rule stopped the run, saying which
    std::vector<RunEvent> m_ownEvents; // the breaker's and the server metrics' events
    std::optional<RunSummary::Phase> m_setup, m_teardown;
    std::vector<RunScenario> m_scenarios;                                 // a plan's: their steps, as runs keep them
    std::map<std::string, std::pair<double, std::uint64_t>> m_serverSums; // server metrics: sum and readings
    std::unique_ptr<CapacitySearch> m_capacity;
    void applyTrips(const std::vector<BreakerTrip>& trips, std::uint32_t second,
                    const std::function<void(const RunEvent&)>& record);
    void searchCapacity(const IntervalMetrics& second, const std::map<std::string, double>& server,
                        const std::function<void(const RunEvent&)>& record);
    std::vector<std::string> m_warnings;
    v1::Bundle m_bundle;
    std::shared_ptr<Record> m_record;
    std::vector<std::unique_ptr<RunOutput>> m_outputs;
    Notifier* m_notifier = nullptr; // among m_outputs, when the run notifies
    bool openOutputs(std::vector<std::string>& errors);
    bool openNotifier(std::vector<std::string>& errors);
    bool m_rollback = false; // a rule's rollback tripped
    RunEvent rollBack(double atS, RunSink& sink);

    // The notifications' tries since the last call, recorded as the run's events.
    void recordNotifyTries(const std::function<void(const RunEvent&)>& record);
    std::shared_ptr<RunControl> m_control = std::make_shared<RunControl>();
};

} // namespace stampede
