#pragma once
// What a run counts: per step and per second, latency measured from the
// intended start (corrected for coordinated omission) and from the actual send
// (service time), completions, errors by class, late and dropped arrivals, bytes.
#include "core/utf8.h"
#include "latencyhistogram.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

enum class ErrorClass : std::uint8_t
{
    Connect,
    Reset,
    Timeout,
    Http4xx,
    Http5xx,
    Protocol,
    Tls,     // the TLS handshake failed (certificate not accepted, no common protocol...)
    Grpc,    // a gRPC call ended with a status other than OK (counted by code too)
    Check,   // the answer came, and one of the step's checks failed on it (counted per check too)
    Extract, // the step uses a ${name} this user has not extracted: not sent
    Render,  // a value (from data, an extraction, a recording) its place in the request refuses: not sent
    Script,  // a step's script threw, or ran past its time or memory (a pre-request script's: not sent)
    Count
};
constexpr std::size_t kErrorClassCount = std::size_t(ErrorClass::Count);
// Stable names, as in the summary JSON: connect, reset, timeout, http_4xx, http_5xx, protocol, tls, grpc,
// check, extract, render, script.
std::string_view errorClassName(ErrorClass c);
// gRPC status codes 0 (OK) to 16 (UNAUTHENTICATED).
constexpr std::size_t kGrpcCodeCount = 17;
// OK, CANCELLED, ... UNAUTHENTICATED; "CODE_n" for others.
std::string grpcCodeName(int code);
// The same for 0 to 16, "" for others.
std::string_view grpcCodeView(int code);

struct StepCounters
{
    std::uint64_t sent = 0;     // requests written to a connection
    std::uint64_t requests = 0; // requests that completed (answered, or failed)
    std::uint64_t errors = 0;   // of which failed, by class below
    std::array<std::uint64_t, kErrorClassCount> errorsByClass{};
    std::uint64_t late = 0;    // arrivals that waited for a free connection
    std::uint64_t dropped = 0; // arrivals refused because the backlog was full
    std::uint64_t bytesIn = 0;
    std::uint64_t bytesOut = 0;
    // connections set up: TCP connect time, and TLS handshakes (resumed ones counted apart)
    std::uint64_t connects = 0;
    std::uint64_t connectNanos = 0;
    std::uint64_t handshakes = 0;
    std::uint64_t handshakesResumed = 0;
    std::uint64_t handshakeNanos = 0;
    std::uint64_t handshakeMaxNanos = 0;
    std::uint64_t goaways = 0;   // HTTP/2 GOAWAY frames received (counted on the first step)
    std::uint64_t redirects = 0; // redirect hops followed (each hop is also a request of its step)
    // Digest challenges answered: the step sent again with their answer (each challenge's 401 is also a request)
    std::uint64_t authChallenges = 0;
    // requests the step's scripts sent with pm.sendRequest (not the step's own), and of them those without an answer
    std::uint64_t scriptRequests = 0;
    std::uint64_t scriptRequestErrors = 0;
    // requests sent again on a fresh connection: the kept-alive one they went
    // out on had been closed by the server (EOF or reset before any answer)
    std::uint64_t retriedOnIdleClose = 0;
    // requests sent again because the server said it had not processed them
    // (HTTP/2: REFUSED_STREAM, or a stream past a GOAWAY's last); each at most
    // once (net/http2session.h), so a request goes out at most twice a try
    std::uint64_t resentUnprocessed = 0;
    // answers nobody asked for (net/sessionlistener.h onStray): each is a
    // `protocol` error of its connection, counted in `errors` without a request
    std::uint64_t stray = 0;
    // tries of a step with a retry that failed and were tried again: not in
    // `requests` or `errors` (only the last try counts)
    std::uint64_t retries = 0;
    // users released from this step's rendezvous, and of them those released
    // by its timeout (not enough came in time)
    std::uint64_t rendezvous = 0;
    std::uint64_t rendezvousTimeouts = 0;
    // a stream step's messages: a WebSocket step's sent and received, an event stream's events received (each
    // conversation's, answered or not)
    std::uint64_t messagesSent = 0;
    std::uint64_t messagesReceived = 0;
    // gRPC calls that ended with a status other than OK, by code (codes past
    // 16 count as UNKNOWN); their sum is errorsByClass[Grpc].
    std::array<std::uint64_t, kGrpcCodeCount> grpcCodes{};

    void merge(const StepCounters& o);
    void addError(ErrorClass c)
    {
        ++errors;
        ++errorsByClass[std::size_t(c)];
    }
    void addGrpcError(int code)
    {
        addError(ErrorClass::Grpc);
        ++grpcCodes[code > 0 && std::size_t(code) < kGrpcCodeCount ? std::size_t(code) : 2];
    }
    // An answer whose status its protocol calls an error (net's Answer::statusError), by its class and code.
    void addStatusError(ErrorClass c, int code)
    {
        if (c == ErrorClass::Grpc)
            addGrpcError(code);
        else
            addError(c);
    }
};

// Every scalar counter of StepCounters under its stable name (the project
// store's column, the control protocol's key). Merging, sending, storing and
// loading go through this list: a new counter is one line here, plus its
// column in the project file's migration (engine/store/projectstore.cpp).
struct CounterField
{
    const char* name;
    std::uint64_t StepCounters::*field;
    bool peak = false; // merged as the larger of the two (a maximum), else added
};
inline constexpr CounterField kCounterFields[] = {
    {"sent", &StepCounters::sent},
    {"requests", &StepCounters::requests},
    {"errors", &StepCounters::errors},
    {"late", &StepCounters::late},
    {"dropped", &StepCounters::dropped},
    {"bytes_in", &StepCounters::bytesIn},
    {"bytes_out", &StepCounters::bytesOut},
    {"connects", &StepCounters::connects},
    {"connect_nanos", &StepCounters::connectNanos},
    {"handshakes", &StepCounters::handshakes},
    {"handshakes_resumed", &StepCounters::handshakesResumed},
    {"handshake_nanos", &StepCounters::handshakeNanos},
    {"handshake_max_nanos", &StepCounters::handshakeMaxNanos, true},
    {"goaways", &StepCounters::goaways},
    {"redirects", &StepCounters::redirects},
    {"auth_challenges", &StepCounters::authChallenges},
    {"script_requests", &StepCounters::scriptRequests},
    {"script_request_errors", &StepCounters::scriptRequestErrors},
    {"retried_on_idle_close", &StepCounters::retriedOnIdleClose},
    {"resent_unprocessed", &StepCounters::resentUnprocessed},
    {"stray_answers", &StepCounters::stray},
    {"retries", &StepCounters::retries},
    {"rendezvous", &StepCounters::rendezvous},
    {"rendezvous_timeouts", &StepCounters::rendezvousTimeouts},
    {"messages_sent", &StepCounters::messagesSent},
    {"messages_received", &StepCounters::messagesReceived},
};

// The most checks (and extractors) a step may have (docs/command-line.md, "Limits").
constexpr std::size_t kMaxChecksPerStep = 50;

// One check's answers judged: by the check's index within its step.
struct CheckCount
{
    std::uint64_t passed = 0;
    std::uint64_t failed = 0;
};

// A test a step's script ran under a name its plan could not know (named by an expression, as Postman's
// `tests["id is " + id]`): counted by that name; the controller gives each name a check index of the step
// after the plan's (RunTracker), so that past the engines it is a check like any other.
struct NamedCheckCount
{
    std::string name;
    CheckCount count;
    std::string message; // the first failure's (see StepMetrics::checkMessages)
};
// The most such names a step counts apart (in an engine's second, and in a run); the rest are counted
// together under kOtherTests.
constexpr std::size_t kMaxNamedTests = 40;
constexpr std::size_t kMaxNamedTestLength = 1024;    // bytes of a name kept
constexpr std::size_t kMaxCheckMessageLength = 1024; // bytes of a failure's message kept
inline constexpr std::string_view kOtherTests = "(other tests)";

struct StepMetrics
{
    StepCounters counters;
    LatencyHistogram latency;           // from the intended start
    LatencyHistogram serviceTime;       // from the actual send
    LatencyHistogram sendLag;           // paced models: from the intended start to the send
    LatencyHistogram firstByte;         // from the request's write (after connect, handshake) to the first bytes
    LatencyHistogram connect;           // new connections: the TCP connect
    LatencyHistogram handshake;         // new TLS connections: a full handshake
    LatencyHistogram resumed;           // new TLS connections: a handshake that resumed a session
    LatencyHistogram messageLatency;    // stream steps: a message's send to its reply (the n-th in to the n-th out)
    std::vector<CheckCount> checks;     // by check index (shorter when the last checks judged nothing)
    std::vector<NamedCheckCount> named; // tests of names the plan did not know (an engine's; see NamedCheckCount)
    // Why each check failed, as the first failure said it ("expected 404 to equal 200"; by check index, "" for
    // none or a check that did not fail): what newman's JUnit gives a failed case. One per check, whatever the
    // count: the first kept, at most kMaxCheckMessageLength bytes of valid UTF-8.
    std::vector<std::string> checkMessages;
    // A new connection: its TCP connect and, over TLS, its handshake (a full one, or one that resumed a session),
    // in nanoseconds (a negative time counts as 0).
    void addConnection(std::int64_t connect, std::int64_t handshake, bool tls, bool resumed);
    void merge(const StepMetrics& o)
    {
        counters.merge(o.counters);
        latency.merge(o.latency);
        serviceTime.merge(o.serviceTime);
        sendLag.merge(o.sendLag);
        firstByte.merge(o.firstByte);
        connect.merge(o.connect);
        handshake.merge(o.handshake);
        resumed.merge(o.resumed);
        messageLatency.merge(o.messageLatency);
        mergeChecks(o.checks);
        for (std::size_t i = 0; i < o.checkMessages.size(); ++i)
            noteMessage(i, o.checkMessages[i]);
        for (const NamedCheckCount& n : o.named) {
            NamedCheckCount& c = namedEntry(n.name);
            c.count.passed += n.count.passed;
            c.count.failed += n.count.failed;
            if (c.message.empty())
                c.message = n.message;
        }
    }
    // The count of a test named `name` (the last of kMaxNamedTests names, kOtherTests, gathers those past them).
    CheckCount& namedCount(std::string_view name) { return namedEntry(name).count; }
    NamedCheckCount& namedEntry(std::string_view name)
    {
        name = utf8Prefix(name, kMaxNamedTestLength);
        for (NamedCheckCount& n : named)
            if (n.name == name)
                return n;
        if (named.size() + 1 >= kMaxNamedTests)
            name = kOtherTests;
        for (NamedCheckCount& n : named)
            if (n.name == name)
                return n;
        named.push_back({std::string(name), {}, {}});
        return named.back();
    }
    // Keeps `message` as check `k`'s unless it has one.
    void noteMessage(std::size_t k, std::string_view message)
    {
        if (message.empty() || k >= kMaxChecksPerStep)
            return;
        if (checkMessages.size() <= k)
            checkMessages.resize(k + 1);
        if (checkMessages[k].empty())
            checkMessages[k] = utf8Prefix(message, kMaxCheckMessageLength);
    }
    void mergeChecks(const std::vector<CheckCount>& o)
    {
        if (checks.size() < o.size())
            checks.resize(o.size());
        for (std::size_t i = 0; i < o.size(); ++i) {
            checks[i].passed += o[i].passed;
            checks[i].failed += o[i].failed;
        }
    }
};

// One failed request kept as an example: what the server answered (status,
// head and the first KiB of the body) or why the transport failed.
struct ErrorSample
{
    std::uint32_t step = 0;
    std::uint32_t second = 0;
    ErrorClass errorClass = ErrorClass::Protocol;
    int status = 0;     // 0 for transport failures
    std::string head;   // status line and headers, as received
    std::string body;   // the first KiB of the body, as received
    std::string detail; // transport failures: what went wrong; a failed check: its name and what was seen
    std::string trace;  // the request's W3C trace id (a run with trace on): to look it up in the tracing system
};
constexpr std::size_t kSampleBodyLimit = 1024;
// At most this many samples per step and error class are kept for a second,
// and for a whole run.
constexpr std::size_t kSamplesPerClass = 3;

// A line a step's script wrote with console.log, kept for the run's events.
struct ConsoleLine
{
    std::uint32_t step = 0; // the run's place of the step
    std::string text;       // at most kConsoleLineBytes
};
// An engine keeps this many console lines a second (the first), and counts the rest.
constexpr std::size_t kConsoleLinesPerSecond = 10;
constexpr std::size_t kConsoleLineBytes = 1000;

// One second of a run (or a whole run): one StepMetrics per step.
// How a load generator (an engine process) fared in a second: whether it,
// rather than the target, limited the load.
struct EngineHealth
{
    double cpu = 0;             // the process's CPU time over the second, a share of the cores it may use (0..1)
    std::uint64_t rssBytes = 0; // resident memory at the end of the second
    std::int64_t loopLag = 0;   // nanoseconds: the longest any worker's event loop woke after the time it asked for
    bool known() const { return rssBytes != 0; }
    // The same second of another engine: the busiest, the largest, the slowest.
    void merge(const EngineHealth& o)
    {
        cpu = std::max(cpu, o.cpu);
        rssBytes = std::max(rssBytes, o.rssBytes);
        loopLag = std::max(loopLag, o.loopLag);
    }
};

// A request's trace id, kept (IntervalMetrics::traces).
struct TraceSample
{
    std::uint32_t step = 0;
    std::string trace; // 32 hex digits
};
// At most this many trace ids of a step are kept in a second (merged over the engines too).
constexpr std::size_t kTracesPerStep = 2;

struct IntervalMetrics
{
    std::uint32_t second = 0; // 1-based: second k covers [k-1, k) seconds after the start
    std::vector<StepMetrics> steps;
    // Groups (transactions): per iteration that passed through one, its time
    // from its first step's start to its last step's end (latency), counted
    // in `requests`, with `errors` when one of its steps failed. Not part of
    // the total: their requests are their steps'.
    std::vector<StepMetrics> groups;
    // Gauges at the end of the second, summed over workers and engines; in a
    // whole-run total, their peaks.
    std::uint32_t openConnections = 0;
    std::uint32_t activeUsers = 0; // closed model: users taking part; open model: iterations in flight
    // The engines' health: one engine's own; merged, the worst of each; in a
    // whole-run total, the peaks (and healthSeconds, cpuSum for the mean).
    EngineHealth health;
    std::uint32_t healthSeconds = 0;
    double cpuSum = 0;
    std::vector<ErrorSample> samples;
    // A run with trace: the trace ids of a few requests of each step in the
    // second (answered or not), so that the tracing system can be asked
    // after the run what their traces saw (`stampede-cli verify-tag`).
    std::vector<TraceSample> traces;
    void keepTrace(std::uint32_t step, std::string_view trace)
    {
        std::size_t mine = 0;
        for (const TraceSample& t : traces) {
            if (t.step == step && t.trace == trace)
                return; // an engine's again (a retry, a repeat): once
            mine += t.step == step;
        }
        if (mine < kTracesPerStep && !trace.empty())
            traces.push_back({step, std::string(trace)});
    }
    // Scripts' console lines (a second's, not a whole run's): the first
    // kConsoleLinesPerSecond, and how many more were written.
    std::vector<ConsoleLine> console;
    std::uint64_t consoleDropped = 0;
    // Keeps a line (cut to kConsoleLineBytes) or counts it.
    void addConsole(std::uint32_t step, std::string_view text);

    // Adds the same second of another worker or engine.
    void merge(const IntervalMetrics& o);
    // Adds a later second into a whole-run total (gauges keep their peak).
    void accumulate(const IntervalMetrics& o);
    StepMetrics total() const;
};
// Whether `samples` already holds kSamplesPerClass of this step and class.
bool sampleBudgetSpent(const std::vector<ErrorSample>& samples, std::uint32_t step, ErrorClass c);
using IntervalMetricsPtr = std::unique_ptr<IntervalMetrics>;

} // namespace stampede
