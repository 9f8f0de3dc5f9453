#pragma once
// JavaScript in the engine (SpiderMonkey 102, ES2020+): one runtime per
// worker thread, one realm (a global of its own) per virtual user, scripts
// compiled once per runtime and run in any of its realms. Every run is
// bounded in time (a watchdog interrupts a script past its budget: that run
// fails, the runtime goes on) and the runtime's heap in bytes. A realm has the
// language's standard classes only: no file, network, process or timer.
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace stampede::script {

struct ScriptLimits
{
    std::chrono::milliseconds budget{100}; // one run's time
    std::size_t heapBytes = 64u << 20;     // the runtime's GC heap
};

// What a run came to: its completion value as text, or why it failed.
struct ScriptOutcome
{
    bool ok = false;
    bool timedOut = false;    // past its budget (interrupted)
    bool outOfMemory = false; // past the heap limit
    std::string value;        // ok: the completion value, as String() gives it
    std::string error;        // not ok: the exception ("file:line: message"), or what stopped it
    unsigned line = 0;        // the exception's line (0: none)
};

// A Postman script as it is compiled: inside a function of its own, as
// Postman runs it (each run has fresh declarations, a top-level `return`
// ends it), on the same lines.
std::string pmScriptSource(std::string_view source);

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
    // Runs compiled script `script` in `realm`, within the budget.
    ScriptOutcome run(Realm& realm, std::size_t script);
    // Runs it as a Postman script: `context` is the run's JSON
    //   {"environment": {k: v}, "collectionVariables": {}, "globals": {}, "iterationData": {}, "variables": {},
    //    "info": {"requestName", "iteration"}, "request": {"method", "url", "headers": [[k, v]], "body"},
    //    "response": {"code", "status", "headers": [[k, v]], "body", "responseTime", "responseSize"}}
    // and `result` what the script left, as JSON: the same scopes, "tests": [{"name", "passed", "error"}],
    // "skip", "logs", "logsDropped" and the request as it is now (also when the script failed).
    ScriptOutcome runPm(Realm& realm, std::size_t script, const std::string& context, std::string& result);
    // Bytes of the runtime's GC heap in use.
    std::size_t heapBytes() const;

    struct Impl;

private:
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
