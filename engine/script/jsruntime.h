#pragma once
// JavaScript in the engine (SpiderMonkey 102, ES2020+): one runtime per
// worker thread, one realm (a global of its own) per virtual user, scripts
// compiled once per runtime and run in any of its realms; the pm API and
// CryptoJS run once per runtime in a shared, frozen realm of the users'
// compartment, whose code every user's pm calls. Every run is
// bounded in its thread's CPU time, not the wall's: a busy machine does not
// use it up (a watchdog interrupts a script past its budget: that run
// fails, the runtime goes on) and the runtime's heap in bytes. A realm has the
// language's standard classes only: no file, network, process or timer.
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace stampede::script {

struct ScriptLimits
{
    std::chrono::milliseconds budget{100}; // one run's CPU time (its thread's)
    std::size_t heapBytes = 64u << 20;     // the runtime's GC heap
    // What one run may add to the process's resident memory (the arrays and
    // strings SpiderMonkey keeps outside its GC heap included), as the
    // watchdog sees it every 10 ms.
    std::size_t runGrowthBytes = 128u << 20;
};

// What a run came to: its completion value as text, or why it failed.
struct ScriptOutcome
{
    bool ok = false;
    bool timedOut = false;    // past its budget (interrupted)
    bool outOfMemory = false; // past the heap limit, or the memory a run may add
    std::string value;        // ok: the completion value, as String() gives it
    std::string error;        // not ok: the exception ("file:line: message"), or what stopped it
    unsigned line = 0;        // the exception's line (0: none)
};

// A Postman script as it is compiled: the body of a function of its own, as
// Postman runs it (each run has fresh declarations, a top-level `return`
// ends it), on the same lines; the compiled script's value is that function,
// which runPm calls (with the global as `this`).
std::string pmScriptSource(std::string_view source);

// What a Postman script's run knows from the start.
struct PmFacts
{
    std::string_view requestName; // pm.info.requestName
    std::string_view requestId;   // pm.info.requestId
    std::uint64_t iteration = 0;  // pm.info.iteration
    bool request = false;         // a pre-request script: pm.request is the host's request()
    int code = -1;                // a test script: the answer's status (pm.response); -1: none
    std::string_view status;      // its reason phrase ("": the usual one for the code)
    double responseTime = 0;      // milliseconds
    std::uint64_t responseSize = 0;
    // a call protocol's answer (gRPC's): pm.response is Postman's gRPC response (statusCode, metadata, trailers,
    // messages), `status` the code's name
    bool call = false;
};

// Where a Postman script's run asks for what it reads, when it first reads
// it (one that reads no variable costs no variable's text), and tells what
// its tests and console said as it says it. Called only during runPm.
class PmHost
{
public:
    virtual ~PmHost() = default;
    // The variables: {"globals": {}, "collectionVariables": {}, "environment": {}, "variables": {},
    // "iterationData": {}}, each {name: value}.
    virtual void variables(std::string& json) = 0;
    // The request as written: {"method", "url", "headers": [[k, v]], "body"}.
    virtual void request(std::string& json) = 0;
    // The answer's headers: [[k, v]].
    virtual void responseHeaders(std::string& json) = 0;
    // The cookies the user's jar holds for the request's URL after the answer: [[name, value]].
    virtual void responseCookies(std::string& json) { json = "[]"; }
    // A gRPC answer's trailers: [[k, v]].
    virtual void responseTrailers(std::string& json) { json = "[]"; }
    // The answer's body (UTF-8; a malformed sequence reads as U+FFFD).
    virtual std::string_view responseBody() = 0;
    // What the script set (`value`), unset (`value` null) or cleared (`key`
    // null too) in scope `scope` (0 globals, 1 collectionVariables,
    // 2 environment, 3 variables), as it does it; a value that is not a
    // string comes as its JSON.
    virtual void change(int scope, const std::string_view* key, const std::string_view* value) = 0;
    // A pm.test: its name, whether it passed, the assertion's message.
    virtual void test(std::string_view name, bool passed, std::string_view error) = 0;
    // A console line (the first 100 of a run; the rest are not told).
    virtual void log(std::string_view line) = 0;
    // pm.sendRequest: the request `spec` ({"method", "url", "headers": [[k, v]], "body"}) sent, blocking, and
    // its answer as {"code", "status", "headers": [[k, v]], "body", "time", "size"} or {"error": why}.
    virtual void sendRequest(std::string_view /*spec*/, std::string& json)
    {
        json = "{\"error\":\"pm.sendRequest cannot send from here\"}";
    }
    // pm.shared: op `kind` (SharedOp::Kind: 0 get, 1 set, 2 increment, 3 push, 4 pop, 5 length, 6 remove) on the
    // run's shared data, blocking until answered: {"found", "value", "number"} or {"error": why}.
    virtual void shared(int /*kind*/, std::string_view /*key*/, std::string_view /*value*/, double /*by*/,
                        std::string& json)
    {
        json = "{\"error\":\"the run's shared data is only in a run\"}";
    }
};

class JsRuntime
{
public:
    explicit JsRuntime(const ScriptLimits& limits = {});
    ~JsRuntime();
    // The calling thread's runtime, made at its first use (SpiderMonkey takes
    // one context per thread: the engine's code uses this one, never its own),
    // its heap kThreadHeapBytes.
    static JsRuntime& thisThread();
    static constexpr std::size_t kThreadHeapBytes = std::size_t(1) << 30;
    JsRuntime(const JsRuntime&) = delete;
    JsRuntime& operator=(const JsRuntime&) = delete;

    // Compiles `source` once (named `name` in errors); nullopt with `error`
    // ("name:line: message") and `line` when it does not parse.
    std::optional<std::size_t> compile(std::string_view source, const std::string& name, std::string& error,
                                       unsigned* line = nullptr);

    // Whether `source` parses: "" when it does, else "name:line: message"
    // (and `line`); nothing is kept.
    std::string syntaxError(std::string_view source, const std::string& name, unsigned* line = nullptr);
    // Drops compiled script `script` (its number is not given again).
    void release(std::size_t script);

    class Realm;
    // A fresh global with the standard classes (a virtual user's).
    std::unique_ptr<Realm> newRealm();
    // Each run's CPU time from now on (the limits' budget at first); set on the runtime's own thread.
    void setBudget(std::chrono::milliseconds budget);
    // Runs compiled script `script` in `realm`, within the budget.
    ScriptOutcome run(Realm& realm, std::size_t script);
    // Runs it as a Postman script (pmScriptSource) with `facts`, asking
    // `host` for the rest when the script reads it; `result` is what the
    // script changed beside what it told the host as JSON, "" when nothing:
    //   {"skip": true,
    //    "request": {"method", "url", "headers": [[k, v]], "body"}, "resolved": {"url", "headers", "body"}  (when
    //    read)}
    // (also when the script failed: what it did until then). The outcome
    // has no `value` (a Postman script's run gives none).
    ScriptOutcome runPm(Realm& realm, std::size_t script, const PmFacts& facts, PmHost& host, std::string& result);
    // Bytes of the runtime's GC heap in use.
    std::size_t heapBytes() const;

    struct Impl;

private:
    static ScriptOutcome runEntered(Impl& d, Realm& realm, std::size_t script);
    std::unique_ptr<Impl> m_impl;
};

class JsRuntime::Realm
{
public:
    ~Realm();
    struct Impl;
    explicit Realm(std::unique_ptr<Impl> impl);
    Impl& impl() { return *m_impl; }

private:
    std::unique_ptr<Impl> m_impl;
};

} // namespace stampede::script
