#pragma once
// A scenario turned into what the workers execute: requests compiled into
// templates (constants folded, the stress tag added, fully constant requests
// rendered once), parameter sources built, the load profile laid out, target
// hosts resolved. Every fault is reported with the field it concerns:
// "steps[1].request.url: unknown variable ${userId}".
#include "check/checks.h"
#include "core/bodycodec.h"
#include "core/breakerrule.h"
#include "core/clock.h"
#include "core/parametersource.h"
#include "core/template.h"
#include "core/threshold.h"
#include "grpc/protoschema.h"
#include "load/executor.h"
#include "load/stageprofile.h"
#include "load/thinktime.h"
#include "net/endpoint.h"
#include "net/outgoing.h"

#include <algorithm>
#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace stampede::v1 {
class Scenario;
}

namespace stampede {

struct PlanError
{
    std::string field;   // e.g. "steps[1].request.url"; empty for the file as a whole
    std::string message; // e.g. "unknown variable ${userId}"
    std::string text() const { return field.empty() ? message : field + ": " + message; }
};

// A gRPC step's method: the schema it comes from and the messages it takes
// and gives back.
struct GrpcMethodPlan
{
    ProtoSchemaPtr schema;
    std::string method; // package.Service/Method
    const google::protobuf::Descriptor* input = nullptr;
    const google::protobuf::Descriptor* output = nullptr;
    bool clientStreams = false, serverStreams = false; // a streaming method's (callStream set on its step)
};

// What an error of a step does (scenario field onError).
enum class OnError : std::uint8_t
{
    Continue,      // the next step, as if it had passed
    NextIteration, // the iteration ends (the default)
    StopUser,      // the virtual user makes no more iterations (arrivals: as NextIteration)
    StopRun        // the run stops
};

// A step's Postman scripts (plan/scriptplan.h): their text (each compiled
// once per worker), the request as written (what pm.request shows a
// pre-request script), and where the pm.test checks sit among the step's.
struct StepScriptPlan
{
    std::string pre, test;              // "" when the step has none
    std::string preName, testName;      // for errors: "steps[1].preRequestScript"
    std::uint32_t firstCheck = 0;       // checks[firstCheck..] are the test script's pm.test names
    std::vector<std::string> tests;     // their names, in that order
    bool otherTests = false;            // some are named by an expression: counted by name (NamedCheckCount)
    std::vector<std::uint16_t> sets;    // the variables the scripts set by name (extracted variables)
    std::vector<std::uint16_t> preSets; // those of them the pre-request script sets (before the step renders)
    std::string method, url, body;      // the request as written
    std::vector<std::pair<std::string, std::string>> headers;
    std::vector<std::pair<std::string, std::string>> form; // its form's fields, as written
    std::string formMode;                                  // "urlencoded" or "formdata" (Postman's), "" no form
    std::string description;                               // the step's (Postman's request description)
    std::string requestId; // pm.info.requestId: its Postman item's id, else one made for the run (as Postman does)
    // a call's (a gRPC step's; url its target and method; set: its answer is a call's): pm.request.methodPath
    // (package.Service.Method), the messages as written (headers: its metadata)
    std::string methodPath;
    std::vector<std::string> messages;
};

// A concern of a step's semantics that runs as a hook of the worker's loop (flow/stephook.h), in this order
// on an answer.
enum class FlowHookKind : std::uint8_t
{
    Cookies,    // the user's cookie jar (ScenarioPlan::cookies)
    Redirects,  // redirects followed as hops of the step (ScenarioPlan::followRedirects)
    Digest,     // the server's Digest challenge answered (PlannedStep::digest); after the others, which see a 401 first
    Group,      // groups timed as transactions (ScenarioPlan::groups): on every step of a plan that has groups
    Rendezvous, // users wait at the step's rendezvous (PlannedStep::rendezvousUsers): first, a held user begins
                // nothing else
    SharedRead, // the step's ${shared.KEY} read from the run's shared data as it begins (core/shareddata.h): first
                // of all, the user held until they are answered
};

// Digest authentication's fields as written (v1::DigestAuth), expanded when
// the request is rendered (RenderedRequest::digest, in this order) and
// answered by the step's Digest hook (flow/digest.h).
struct DigestPlan
{
    enum Field : std::uint8_t
    {
        User,
        Password,
        Realm,
        Nonce,
        Algorithm,
        Qop,
        Nc,
        Cnonce,
        Opaque
    };
    static constexpr std::size_t kFields = 9;
    std::array<Template, kFields> fields;
    bool retry = true; // sent again on a challenge (else the 401 is the answer)
    bool isConstant() const
    {
        for (const Template& t : fields)
            if (!t.isConstant())
                return false;
        return true;
    }
};

struct PlannedStep
{
    std::string name;
    std::string folder; // a collection run's: the folders it is in ("Users / Admin"), for reports
    std::string method;
    std::string url;         // as written, for reports
    Endpoint endpoint;       // named by the compile; its address looked up by resolveTargets (resolve/targets.h)
    std::string targetField; // the field that names its server ("steps[0].request.url"): where a lookup fails
    std::string host;        // the URL's host, port and scheme: for cookies and redirects
    std::uint16_t port = 0;
    bool secure = false;
    // A collection run's URL whose scheme and host a variable gives, set by a script or extracted (newman resolves
    // them as it sends): `head`'s request line holds the whole URL; the renderer splits it, adds Host unless the
    // user wrote one (`runtimeHost`) and finds its server (RenderedRequest::endpoint); `endpoint` stays unnamed.
    bool runtimeOrigin = false;
    bool runtimeHost = false;
    std::shared_ptr<TlsContext> runtimeTls; // for such a URL that is https
    Template head;                          // request line and headers, without Content-Length and the final CRLF
    Template body;
    // Basic authorization with per-iteration values: "user:password" expanded
    // and encoded when rendered, after the head (HTTP/1.1) and into
    // h2Headers[authH2] (HTTP/2). Otherwise the Authorization is in `head`.
    Template basicAuth;
    bool basicPerIteration = false;
    std::size_t authH2 = 0;
    std::shared_ptr<const DigestPlan> digest; // Digest authentication (no Authorization in the head)
    bool hasBody = false;
    bool noResponseBody = false; // HEAD
    bool fixed = false;          // no per-iteration values: `fixedBytes` is the whole request
    std::string fixedBytes;
    Nanos timeout = 10 * kNanosPerSecond;
    ThinkTime think; // pause after this step's answer
    // The HTTP/2 form of the same request: the pseudo-headers (:method,
    // :scheme, :authority, :path) first, then headers with lower-case names.
    std::vector<std::pair<std::string, Template>> h2Headers;
    bool h2Fixed = false; // no header value or body varies per iteration
    // Set for a gRPC call: `body` is then the request's JSON (rendered per
    // iteration and converted to the message), or, when fixed, the framed
    // message itself. Always HTTP/2.
    std::shared_ptr<const GrpcMethodPlan> grpc;
    std::shared_ptr<const WsPlan> ws;   // set for a WebSocket step (protocol WebSocket)
    std::shared_ptr<const SsePlan> sse; // set for an event stream step (protocol EventStream)
    // A streaming gRPC call's (protocol Grpc): `body` is then its messages out, each framed, one after the other.
    std::shared_ptr<const CallStreamPlan> callStream;
    // What the worker knows of the step's protocol: its session's (net/outgoing.h), and the codec of a body that
    // goes in another form than written (a gRPC message: JSON rendered, framed protobuf sent; null: as rendered).
    Protocol protocol = Protocol::Http;
    BodyCodecPtr codec;
    // Steps to the same server share an index: HTTP/2 keeps its connections per server.
    std::uint32_t endpointIndex = 0;
    // Judged on each answer (a failed one fails the step as `check`), and
    // values taken from it into the user's extracted variables.
    std::vector<Check> checks;
    std::vector<Extractor> extractors;
    std::shared_ptr<const StepScriptPlan> scripts; // null: the step has no script
    unsigned needs = kNeedsNothing; // what the checks, extractors, cookies and redirects read of the answer
    int shadow = -1; // replay's diffAgainst: the step that sends each of this step's requests to the second server
    std::vector<FlowHookKind> hooks; // its hooks, in order (empty: a plain step, the loop calls none)
    // The step uses extracted ${names} (their variable indices): it is
    // rendered when it is sent, not when its iteration starts, and is not
    // sent (an `extract` error) while one of them is unset.
    std::vector<std::uint16_t> extracted;
    // What an error does, how often it is tried again first, and how many
    // times the step is sent in a row (scenario fields onError, retry, repeat).
    OnError onError = OnError::NextIteration;
    std::uint32_t retries = 0;
    Nanos backoff = 0;
    std::uint32_t repeat = 1;
    int group = -1; // the group (transaction) it belongs to, by index into ScenarioPlan::groups
    // A rendezvous: users wait here until this many have arrived (0: none), or the timeout passed.
    std::uint32_t rendezvousUsers = 0;
    Nanos rendezvousTimeout = 5 * kNanosPerSecond;
};

enum class HttpVersion
{
    Http1, // HTTP/1.1
    Http2  // h2c with prior knowledge (http://) or h2 by ALPN (https://)
};

struct PlannedVariable
{
    std::string name;
    ParameterSourcePtr source; // null for an extracted variable
    bool used = false;         // referenced by some step; unused ones are not drawn
    bool extracted = false;    // set from answers by a step's `extract`, per virtual user
    // ${shared.KEY} (extracted as well: each user's own copy): read from the run's shared data each time a step
    // that uses it begins (FlowHookKind::SharedRead); its name is "shared.KEY".
    bool shared = false;
    // An extracted variable that shadows a scalar variable of its name (an
    // environment value, a constant, a generator): that variable's index,
    // whose value is used until this user or iteration extracts one; -1: none.
    int fallback = -1;
    std::int16_t fallbackColumn = -1; // of the iteration data (a column of its row), or -1
    VarRef fallbackRef() const { return {std::uint16_t(fallback), fallbackColumn}; }
    // Postman's iteration data: a CSV source whose columns are names of their own (${column})
    bool iterationData = false;
    // A constant's Postman scope (0 globals, 1 the collection's, 2 an environment's or the scenario's): where a
    // script finds it, and what a script's set in a scope below it does not replace.
    std::uint8_t scope = 2;
    // A collection run's stand-in for a name not (yet) set: "{{name}}", sent as newman sends it; scripts do
    // not see it (for them the name is unset).
    bool literal = false;
    // An account pool (a data set checked out per iteration): how long an iteration waits for a free row.
    Nanos checkoutWait = 10 * kNanosPerSecond;
};

struct ReplayPlan; // load/replayload.h

// The largest scenario a run accepts (docs/command-line.md, "Limits"); past them, a fault of the field.
// steps in a scenario: each keeps exact latency histograms per second (up to
// 0.4 MB a step for each second in flight), so 100 steps cost the controller
// about 170 MB at most
constexpr std::uint32_t kMaxSteps = 100;
constexpr std::uint32_t kMaxRedirects = 20; // hops followed per step
constexpr std::size_t kMaxJsonDepth = 64;   // arrays and objects nested in a scenario file

// One of the target's own metrics, read each second by the controller.
struct ServerMetricPlan
{
    std::string name;
    bool prometheus = false; // asked of a Prometheus server (query), else scraped (series, labels)
    std::string url;         // the server's base URL, or the exposition endpoint's
    std::string query;
    std::string series;
    std::vector<std::pair<std::string, std::string>> labels;
    bool rate = false; // a counter's per-second rate
};

// A name a threshold or a breaker rule gives, and the metrics it stands for.
struct MeasuredName
{
    enum class Kind
    {
        Step,    // steps[index]
        Group,   // groups[index]
        Scenario // a plan's scenario: steps[index] to steps[index + count - 1], merged
    };
    std::string name;
    Kind kind = Kind::Step;
    std::uint32_t index = 0;
    std::uint32_t count = 1;
};

struct ScenarioPlan
{
    std::string name;
    std::vector<std::string> inputFiles; // every file the compile read (data sets, protos, traffic, certificates)
    std::string runId;
    std::vector<PlannedStep> steps;
    std::vector<std::string> groups; // transactions, in order of first appearance (steps[i].group)
    // Each group's first step (a group's steps are contiguous).
    std::vector<std::uint32_t> groupFirstSteps() const
    {
        std::vector<std::uint32_t> first(groups.size(), 0);
        for (std::size_t i = steps.size(); i-- > 0;)
            if (steps[i].group >= 0 && std::size_t(steps[i].group) < first.size())
                first[std::size_t(steps[i].group)] = std::uint32_t(i);
        return first;
    }
    std::vector<PlannedVariable> variables;
    LoadExecutorPtr load; // the load model (load/executor.h): its pacer, slots and plan
    Nanos duration = 10 * kNanosPerSecond;
    std::uint32_t connections = 50; // the pool: connections (arrivals) or the peak of users
    std::uint32_t threads = 1;
    HttpVersion http = HttpVersion::Http1; // one for every step of the scenario
    // http left at auto, every step over TLS: the resolve step asks the first server (ALPN) whether it speaks h2.
    bool alpnDecides = false;
    std::uint32_t streams = 1;       // HTTP/2: concurrent streams per connection
    std::uint32_t endpointCount = 1; // distinct servers the steps go to
    Nanos connectTimeout = 5 * kNanosPerSecond;
    std::vector<Threshold> thresholds;
    std::string stressHeader; // empty when the stress tag is off
    // The stress tag's value as sent: the run id, or in a `baggage` header
    // the W3C member "stress_test=<run id>" (a request's own baggage goes
    // in a header of its own beside it, which W3C allows).
    std::string stressValue;
    bool trace = false; // a W3C traceparent on every request (trace id per iteration, span per request)
    // Names no variable, data set or script gives (a collection run): sent as "{{name}}", as newman sends them.
    std::vector<std::string> literalNames;
    // Hosts that did not resolve (a collection run): why, each once; their requests fail as connect errors.
    std::vector<std::string> unresolvedHosts;
    bool testsVerdict = false; // judged as newman's exit code: every test passed, no script or request failed
    // The run's shared data is used (${shared.KEY}, a script's pm.shared): a store for the run is kept (by the
    // controller when agents run it) and asked.
    bool sharedData = false;
    // A replay with trace: new trace ids, not the recorded traceparents' (copies get ids derived from them).
    bool newTraceIds = false;
    // the live breaker (control/breaker.h): rules, and with recover the
    // seconds without a violation before a degraded load climbs back
    std::vector<BreakerRule> breaker;
    std::vector<ServerMetricPlan> serverMetrics;
    Nanos breakerCooldown = 10 * kNanosPerSecond;
    bool breakerRecover = false;
    // Levels (control/breaker.h): how many rules trip together says warn, degrade (by this percent) or stop.
    bool breakerEscalate = false;
    double breakerEscalateDegrade = 50;
    bool cookies = false;              // a cookie jar per user (per iteration in the open model)
    std::uint32_t followRedirects = 0; // hops per step; 0: redirects are answers like any other
    // The per-iteration values (not extracted ones) that steps rendered when
    // sent read: saved per slot when its iteration starts.
    std::vector<VarRef> savedRefs;
    // A replay's requests, their servers and their plan per second (its executor's); null for other loads.
    const ReplayPlan* replay() const;
    // A plan of several scenarios (plan/testplan.h): each compiled as a
    // scenario file, run side by side; `steps` and `groups` above are all of
    // theirs in order (named "SCENARIO/STEP"), each scenario's from `places`.
    std::vector<ScenarioPlan> scenarios;
    struct ScenarioPlace
    {
        std::uint32_t firstStep = 0;
        std::uint32_t firstGroup = 0;
        Nanos startAfter = 0; // its load starts this long after the run
    };
    std::vector<ScenarioPlace> places;

    // What thresholds and breaker rules may name: each step, "group NAME" for
    // each group, and in a plan each scenario (all its steps).
    std::vector<MeasuredName> measured() const;
    std::vector<std::string> measuredNames() const
    {
        std::vector<std::string> names;
        for (const MeasuredName& m : measured())
            names.push_back(m.name);
        return names;
    }
    bool anyLate() const
    {
        return !savedRefs.empty() ||
               std::any_of(steps.begin(), steps.end(), [](const PlannedStep& s) { return !s.extracted.empty(); });
    }
};

// Why a plan over HTTP/1.1 cannot have streams (the compile's, or the resolve step's when ALPN settled on it).
inline constexpr const char* kStreamsAreHttp2 =
    "streams are HTTP/2's: set http to HTTP_2 (--http 2), or leave streams at 1";

struct ReflectionOptions; // grpc/reflection.h

struct PlanOptions
{
    std::string baseDir;                                        // CSV files are read relative to this
    std::string runId;                                          // the stress tag value; generated when empty
    std::vector<std::pair<std::string, std::string>> overrides; // --var name=value: constants that win
    // How a gRPC step's schema is asked of its server by reflection (resolve/targets.h: serverReflection());
    // unset: such a step is validated without it (fuzzing, editors, a controller whose agents ask). The compile
    // itself asks no server and looks no host up (resolveTargets does).
    using SchemaAsker = std::function<std::shared_ptr<ProtoSchema>(const ReflectionOptions& ask, std::string& error)>;
    SchemaAsker reflection;
    // A project's traffic set by name, encoded (traffic/trafficcodec.h); empty
    // when there is none. Unset: a replay must carry its requests (data) or a file.
    std::function<std::string(const std::string& name)> trafficSet;
};

// Parses the proto3 JSON of a scenario. On failure returns false with a message.
bool parseScenarioJson(const std::string& json, v1::Scenario& out, std::string& error);
// Validates and compiles. Returns nullopt when `errors` is not empty.
std::optional<ScenarioPlan> compileScenario(const v1::Scenario& scenario, const PlanOptions& options,
                                            std::vector<PlanError>& errors);
// The first value of each of the scenario's variables (${name}, a CSV's
// ${name.column} from its first row), for a request builder that resolves
// names as the run would; variables that are not valid are left out.
std::map<std::string, std::string> variableSamples(const v1::Scenario& scenario, const PlanOptions& options);
// A fresh run id: "st-" and 16 hex digits from the system's random source.
std::string newRunId();

} // namespace stampede
