#pragma once
// The summary of a run as users and CI pipelines read it: the table printed at
// the end, and the stable JSON written by --summary-json (documented in the
// docs/reports.md; new keys may be added, existing ones keep their meaning).
#include "capacity.h"
#include "core/text.h"
#include "metrics/runmetrics.h"
#include "metrics/timeline.h"
#include "plan/scenarioplan.h"

#include <array>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace stampede {

struct LatencySummary
{
    double p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0, max = 0; // milliseconds
    double min = 0, mean = 0;
    static LatencySummary of(const LatencyHistogram& h);
};

struct MetricsSummary
{
    std::string name;
    std::string folder; // a step of a collection run: the folders it is in ("Users / Admin"; "" at the top)
    std::uint64_t requests = 0;
    std::uint64_t errors = 0;
    std::array<std::uint64_t, kErrorClassCount> errorsByClass{};
    double rate = 0;        // completed requests per second
    double messageRate = 0; // stream messages (and events) received per second
    std::uint64_t late = 0;
    std::uint64_t dropped = 0;
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
    LatencySummary latency;           // from the intended start
    LatencySummary serviceTime;       // from the actual send
    LatencySummary sendLag;           // paced models (open, replay): from the intended start to the send
    LatencySummary firstByte;         // from the request's write (after connect, handshake) to the first bytes
    std::uint64_t firstBytes = 0;     // answers whose first byte was timed
    LatencySummary messageLatency;    // stream steps: a message's send to its reply
    std::uint64_t messageReplies = 0; // replies timed so
    std::uint64_t paced = 0;          // requests whose send lag was measured
    std::uint64_t connects = 0;       // connections set up
    double connectMeanMs = 0;         // TCP connect time
    // TCP connect, full and resumed TLS handshake times; each only where its
    // engines timed every one (an older engine sends the counts alone)
    std::optional<LatencySummary> connect, handshake, resumed;
    std::uint64_t handshakes = 0; // TLS handshakes, of which resumed
    std::uint64_t handshakesResumed = 0;
    double handshakeMeanMs = 0;
    double handshakeMaxMs = 0;
    std::uint64_t goaways = 0;                             // HTTP/2
    std::array<std::uint64_t, kGrpcCodeCount> grpcCodes{}; // gRPC calls not OK, by status code
    std::uint64_t answered = 0;                            // responses that arrived (the latency figures' samples)
    std::uint64_t redirects = 0;                           // redirect hops followed
    std::uint64_t authChallenges = 0;                      // Digest challenges answered (the step sent again)
    std::uint64_t scriptRequests = 0;                      // pm.sendRequest's requests (not the step's)
    std::uint64_t scriptRequestErrors = 0;                 // of them, those without an answer
    std::uint64_t retriedOnIdleClose = 0; // requests sent again after the server closed their kept-alive connection
    std::uint64_t resentUnprocessed = 0;  // requests sent again because the server had not processed them (HTTP/2)
    std::uint64_t stray = 0;              // answers nobody asked for: protocol errors without a request
    std::uint64_t retries = 0;            // tries a step's retry sent again (not in requests)
    std::uint64_t rendezvous = 0;         // users released from a rendezvous
    std::uint64_t rendezvousTimeouts = 0; // of them, released by its timeout
    std::uint64_t messagesSent = 0;       // a WebSocket step's messages sent
    std::uint64_t messagesReceived = 0;   // and received
    // Requests that completed without an error.
    std::uint64_t succeeded() const
    {
        // a redirect's hop and a challenge's 401 go on to the step's answer: neither is a request that succeeded
        const std::uint64_t failed = errors - std::min(errors, stray) + redirects + authChallenges;
        return requests - std::min(requests, failed);
    }
    // Checks judged: "step/check" with the answers that passed and failed them.
    struct CheckSummary
    {
        std::string name;
        std::uint64_t passed = 0;
        std::uint64_t failed = 0;
        std::string message; // why it failed, as the first failure said it ("" when it did not, or not known)
    };
    std::vector<CheckSummary> checks;
    // The target's own metrics (server:NAME): the mean of what was read (a
    // whole run's in `total`, a window's for the breaker); absent: never read.
    std::map<std::string, double> server;
    // The busiest agent's CPU over the run (its mean) or a breaker's window, a
    // share of its cores; -1: not known (no agent reported it).
    double agentCpu = -1;
    // The share of check judgements that passed (0..1); -1 when none was judged.
    double checkPassRate() const;
    // A fraction (0..1), as thresholds hold it; shown everywhere as a percentage.
    double errorRate() const { return requests ? double(errors) / double(requests) : 0.0; }
    double errorRatePct() const { return errorRate() * 100; }
};

// The share of `t`'s checks that passed in `m` (every check, or those named
// t.check: a step's own "NAME", the run's "STEP/NAME"); -1 when none was judged.
double checkRate(const Threshold& t, const MetricsSummary& m);

struct ThresholdResult
{
    std::string expr;
    bool passed = false;
    double value = 0;
    std::string note;     // why it failed without a value to judge: "no data: ..."
    bool percent = false; // error_rate: `value` is a fraction, shown as a percentage
    std::string unit;     // of `value` otherwise: "ms" (latencies), "/s" (rates), "" (counts, server metrics)
};

// What a threshold measured, in the units it was written in: "0.4 %", "44.66 ms", "400 /s", its note when it
// had nothing to judge. Every report says it so (the workbench, HTML).
std::string measuredText(const ThresholdResult& t);

struct RunSummary
{
    std::string runId;
    std::string scenario;
    bool passed = true;
    bool testsVerdict = false; // judged by its tests, as newman judges a collection: reports list each request
    double durationS = 0;
    MetricsSummary total;
    std::vector<MetricsSummary> steps;
    // Groups (transactions): per iteration that passed through one, its time
    // from its first step's start to its last step's end; `errors` counts the
    // iterations in which one of its steps failed.
    std::vector<MetricsSummary> groups;
    // A plan's scenarios: each its steps merged, its rate over the seconds it ran.
    std::vector<MetricsSummary> scenarios;
    std::vector<SecondSummary> timeline;
    std::vector<ThresholdResult> thresholds;
    // Requests failed and no threshold judges the run's error rate (error_rate of the whole run): what the verdict
    // did not judge, said beside it everywhere ("62.5 % of the requests failed; no threshold judges the error
    // rate"), so that thresholds on the answers that came cannot pass a run quietly. Empty otherwise; said only
    // beside a pass (a run that did not pass says why).
    std::string unjudged;
    std::vector<RunEvent> events;
    bool aborted = false;
    std::uint64_t sentAfterLoss = 0; // requests lost engines sent after the loss (not in `total`)
    // completed, stopped (asked to end early), aborted (an engine lost, by
    // policy), interrupted (the controller died): only a completed run passes.
    std::string status = "completed";
    std::string reason;               // set when the run itself failed: "stopped at 2.5 s of 20 s"
    std::vector<std::string> engines; // the agents that ran it
    std::vector<AgentReport> agents;  // what each carried and how it fared (a run of agents)
    // Warnings that do not fail the run but qualify its figures (the
    // generator, not the target, limited it).
    std::vector<std::string> warnings;
    double controllerCpuS = 0;              // CPU time of the controller process (not the agents)
    std::optional<CapacityResult> capacity; // a capacity search's answer (stampede-cli capacity)
    // A replay: its requests (one pass), speed and amplification; the
    // timeline's seconds then carry what was planned.
    struct Replay
    {
        std::uint64_t records = 0;
        double speed = 1;
        std::uint32_t amplify = 1;
        std::uint64_t planned = 0; // over the run
    };
    std::optional<Replay> replay;
    // A plan's setup and teardown: their steps once, on one engine.
    struct Phase
    {
        bool ok = false;
        std::uint64_t requests = 0;
        std::uint64_t errors = 0;
        double seconds = 0;
        std::vector<std::string> values; // the setup's names that took a value
        std::string why;                 // why it failed
    };
    std::optional<Phase> setup, teardown;
};

RunSummary summarizeRun(const ScenarioPlan& plan, const RunResult& result);
// A plan's scenario's place among the run's steps, and how long its load ran.
struct ScenarioSpan
{
    std::string name;
    std::uint32_t firstStep = 0;
    std::uint32_t steps = 0;
    double seconds = 0;
};
// Each scenario's summary (its steps merged), and its steps' and groups'
// rates over its own seconds (`groupFirstSteps`: where each group starts).
void summarizeScenarios(RunSummary& s, const std::vector<ScenarioSpan>& spans, const IntervalMetrics& total,
                        const std::vector<std::uint32_t>& groupFirstSteps);
// The built-in verdict of a completed run (no success; under 90 % of a paced plan; or, for a plan judged by
// its tests, judgeTests): part of summarizeRun.
void judgeAsPlanned(RunSummary& s, const ScenarioPlan& plan);
// newman's verdict (its exit code): a test that failed, a script that threw, a request not made or not
// answered (connect, reset, timeout, protocol, TLS, render, extract) fails the run, each counted in the
// reason; an HTTP status does not.
void judgeTests(RunSummary& s);
// One step's (or the total's) figures over `seconds` of run.
MetricsSummary summarizeMetrics(const std::string& name, const StepMetrics& m, double seconds);
// The summary's value of the metric a threshold is about.
double thresholdValue(const Threshold& t, const MetricsSummary& total);
// A step's checks (by name, in order) as counted in `m`, named "step/check".
std::vector<MetricsSummary::CheckSummary> checkSummaries(const std::string& step, const std::vector<std::string>& names,
                                                         const StepMetrics& m);
// The figures a threshold or a breaker rule names: the total (no name), a
// step ("login"), a group ("group checkout") or a plan's scenario ("order");
// null when nothing is so named.
const MetricsSummary* namedMetrics(const RunSummary& s, const std::string& name);
// Evaluates `thresholds` against s.total into s.thresholds; a failed one fails
// the run. A threshold on a metric without data (no request completed, or no
// response for a latency) fails, saying so: no data is never a pass.
void evaluateThresholds(RunSummary& s, const std::vector<Threshold>& thresholds);
// Sets status, reason and passed from the run's end (`planned` and `ran` in seconds).
void judgeRun(RunSummary& s, const std::string& status, double ran, double planned);
// A capacity search's verdict over the run's: it passes when the search
// concluded and found a rate that met every SLO.
void judgeCapacity(RunSummary& s, CapacityResult c);
// The verdict in one line, the same words in every place that says it (the summary's last line, the JSON's
// "verdict", the HTML, `report list`, the workbench's report and live header): "completed and passed";
// "completed and failed: threshold p99<5ms failed (29.82 ms); …" (each failed threshold in its units, then
// the run's own reason); "stopped when asked, at 2 s of 10 s"; "aborted: …"; "stopped by breaker: …";
// "interrupted: …". Derived from the judgement (passed, status, reason, thresholds), never a judgement itself.
std::string verdictText(const RunSummary& s);
std::string summaryToJson(const RunSummary& s);
// A number as the summary JSON writes it (three decimals).
std::string jsonNumber(double v);
// {"name": number, ...} of a second's or a run's server metrics.
std::string jsonNumbers(const std::map<std::string, double>& values);
// A fixed-width table: one row per step and a total row, then thresholds.
std::string summaryToTable(const RunSummary& s);

} // namespace stampede
