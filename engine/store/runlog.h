#pragma once
// Runs in a project (or a standalone report file, which is a project holding
// runs): written as they happen, one transaction a second, so that a crash of
// the controller loses at most the last second; the run is then found marked
// "interrupted" when the file is opened again.
#include "metrics/runmetrics.h"
#include "metrics/timeline.h"

#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

struct sqlite3;

namespace stampede {

class ProjectStore;
class SqlStatement;

struct RunInfo
{
    std::int64_t id = 0;
    std::string runId; // the stress tag value
    std::string name;
    std::string started; // ISO 8601, UTC
    std::string ended;
    std::string status;           // running, completed, aborted, interrupted
    std::uint32_t lastSecond = 0; // the last second in its timeline (the tail of answers after its end included)
    double durationS = 0;         // how long it ran: its summary's duration_s once finished, else lastSecond
    // The verdict stored with its summary when it finished (1 passed, 0 did
    // not, -1 none: it never finished), and why it did not pass.
    int passed = -1;
    std::string reason;
    std::string unjudged; // what the verdict did not judge (RunSummary::unjudged)
    std::string verdict;  // in words (verdictText): its summary's, else made from status, passed and reason
};

// One second of one step (step -1: all steps together), without its histograms.
struct SecondRow
{
    std::uint32_t second = 0;
    int step = -1;
    std::string agent;                 // empty: merged over the agents
    std::uint32_t openConnections = 0; // step -1 rows only
    std::uint32_t activeUsers = 0;
    StepCounters counters;
    double p50Ms = 0, p90Ms = 0, p95Ms = 0, p99Ms = 0, p999Ms = 0, maxMs = 0;
    double minMs = 0, meanMs = 0;
    // step -1 rows: the engine's health (an agent's own; merged, the busiest)
    double cpu = 0; // a share of its cores, 0..1
    std::uint64_t rssBytes = 0;
    double loopLagMs = 0;
    std::vector<CheckCount> checks;       // by the step's check index
    std::map<std::string, double> server; // step -1 rows: the target's own metrics read in the second
};

// A plan's scenario as a run keeps it: its steps, and when and how long its load ran as planned.
struct RunScenario
{
    std::string name;
    std::uint32_t firstStep = 0;
    std::uint32_t steps = 0;
    double startAfterS = 0;
    double durationS = 0;
};

struct SavedRun
{
    RunInfo info;
    std::string scenarioJson; // the scenario as it ran
    std::string environmentJson;
    std::vector<std::string> agents;
    std::vector<std::string> stepNames;
    std::vector<std::vector<std::string>> checkNames;    // per step, its checks' names
    std::vector<std::vector<std::string>> checkMessages; // per step, why each check failed (also in total.steps)
    std::vector<SecondRow> rows; // by second, then step; step -1 rows are the totals of a second
    // Groups (transactions): their names, and their seconds (`step` is the
    // group's index in groupNames) and whole-run metrics (total.groups).
    std::vector<std::string> groupNames;
    std::vector<std::uint32_t> groupFirstSteps; // each group's first step (which scenario's seconds it ran in)
    std::vector<SecondRow> groupRows;
    std::vector<RunScenario> scenarios;  // a plan's
    std::vector<SecondRow> scenarioRows; // their seconds (`step` is the scenario's index)
    // The same, per agent (by second, then step; `agent` names it); empty when one engine ran.
    std::vector<SecondRow> agentRows;
    std::vector<ErrorSample> samples; // by step, class, then second
    std::vector<TraceSample> traces;  // a run with trace: trace ids kept (run_traces), by step, then second
    IntervalMetrics total;            // per step, over the whole run (histograms merged exactly)
    std::vector<RunEvent> events;
    std::string summaryJson; // the final summary, when the run finished
};

constexpr int kRunSamplesPerClass = 5;
// A run keeps at most this many trace ids of each step (the first seconds' few: kTracesPerStep a second).
constexpr int kRunTracesPerStep = 100;

// One second made ready for the store: percentiles computed and histograms
// serialized, which any thread may do, so that writing is only SQL.
struct PreparedSecond
{
    struct Row
    {
        int step = -1;
        StepCounters counters;
        std::vector<CheckCount> checks;
        std::array<double, 6> percentilesMs{}; // p50, p90, p95, p99, p99.9, max
        double minMs = 0, meanMs = 0;
        std::string latency, service; // serialized histograms
    };
    std::uint32_t second = 0;
    std::string agent;
    std::vector<Row> rows;
    std::uint32_t openConnections = 0;
    std::uint32_t activeUsers = 0;
    EngineHealth health;                  // the engine's (an agent's part) or the busiest's (the merged second)
    std::map<std::string, double> server; // the target's own metrics of the second (the merged row only)
    std::vector<ErrorSample> samples;
    std::vector<TraceSample> traces; // the merged row only
};

class RunLog
{
public:
    explicit RunLog(ProjectStore& store) : m_store(store) {}

    // Starts a run record; returns its id (0 on failure, with error()).
    std::int64_t begin(const std::string& runId, const std::string& name, const std::string& scenarioJson,
                       const std::string& environmentJson, const std::vector<std::string>& agents,
                       const std::vector<std::string>& stepNames,
                       const std::vector<std::vector<std::string>>& checkNames = {},
                       const std::vector<std::string>& groupNames = {}, const std::vector<RunScenario>& scenarios = {},
                       const std::vector<std::uint32_t>& groupFirstSteps = {});
    // One second of the run (every step, and their total as step -1; each
    // group as a row of index steps + its index), in one
    // transaction, with its error samples (the first kRunSamplesPerClass of
    // each step and class are kept). `agent` empty: merged over the agents.
    bool appendSecond(std::int64_t run, const IntervalMetrics& second, const std::string& agent = {});
    // A plan's `scenarios` get rows too, after the groups: their steps merged (histograms exactly).
    static PreparedSecond prepare(const IntervalMetrics& second, const std::string& agent = {},
                                  const std::vector<RunScenario>& scenarios = {});
    // Prepared seconds (the merged one and each agent's part), in one transaction.
    bool write(std::int64_t run, const std::vector<PreparedSecond>& parts);
    // The agents' names, once they are known.
    bool setAgents(std::int64_t run, const std::vector<std::string>& agents);
    bool addEvent(std::int64_t run, const RunEvent& event);
    // status: completed or aborted.
    bool finish(std::int64_t run, const std::string& status, const std::string& summaryJson);
    // Step `step`'s checks' names, when the run came to know more of them (tests named at run time).
    bool setCheckNames(std::int64_t run, std::size_t step, const std::vector<std::string>& names);
    // Why each of step `step`'s checks failed, the first time (by check index; "" for one that did not).
    bool setCheckMessages(std::int64_t run, std::size_t step, const std::vector<std::string>& messages);

    std::vector<RunInfo> runs() const;
    std::optional<SavedRun> load(std::int64_t run) const;
    // The run with this run id (the stress tag), or the newest when empty.
    std::optional<std::int64_t> find(const std::string& runId) const;
    const std::string& error() const { return m_error; }

private:
    bool writeTraces(sqlite3* db, std::int64_t run, const PreparedSecond& p);
    bool writable();
    bool writeRow(SqlStatement& s, std::int64_t run, const PreparedSecond& p, const PreparedSecond::Row& r);
    struct SecondColumns;
    static void addSecondRow(const SqlStatement& s, const SecondColumns& columns, SavedRun& r);

    ProjectStore& m_store;
    mutable std::string m_error;
};

} // namespace stampede
