#include "jsruntime.h"

#include "builtins.h"
#include "pmnatives.h"
#include "promisejobs.h"

#include <pthread.h>
#include <time.h>

#include <js/CharacterEncoding.h>
#include <js/CompilationAndEvaluation.h>
#include <js/CompileOptions.h>
#include <js/Conversions.h>
#include <js/ErrorReport.h>
#include <js/Exception.h>
#include <js/GlobalObject.h>
#include <js/Initialization.h>
#include <js/Interrupt.h>
#include <js/MemoryFunctions.h>
#include <js/RealmOptions.h>
#include <js/SavedFrameAPI.h>
#include <js/SourceText.h>
#include <js/String.h>
#include <js/experimental/JSStencil.h>
#include <jsapi.h>

#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace stampede::script {

namespace {

// The runtimes alive, over every thread. A thread's runtime goes with the thread's own end (its thread_local),
// which a thread pool may still be running while the process exits: JS_ShutDown waits for them first (it
// must come after the last context is destroyed). Never destroyed itself: a late thread may still count down.
struct LiveRuntimes
{
    std::mutex mutex;
    std::condition_variable gone;
    int count = 0;
};
LiveRuntimes& liveRuntimes()
{
    static auto* live = new LiveRuntimes;
    return *live;
}

// JS_Init once per process, before any runtime; JS_ShutDown at its end, once every runtime is gone (a thread
// that outlives the process' end by more than a second keeps SpiderMonkey up: the process ends with it).
struct Engine
{
    Engine() { ok = JS_Init(); }
    ~Engine()
    {
        LiveRuntimes& live = liveRuntimes();
        std::unique_lock lock(live.mutex);
        if (ok && live.gone.wait_for(lock, std::chrono::seconds(1), [&] { return live.count == 0; }))
            JS_ShutDown();
    }
    bool ok = false;
};

bool engineUp()
{
    static Engine engine;
    return engine.ok;
}

const JSClass kGlobalClass = {"global", JSCLASS_GLOBAL_FLAGS, &JS::DefaultGlobalClassOps, nullptr, nullptr, nullptr};

// A global with the standard classes: in a compartment and zone of its own
// (the runtime's shared realm), or (a user's realm) in the shared realm's
// compartment, where the pm API's code, and what the JIT made of it, is
// shared without wrappers between realms (each user's global, its standard
// classes and its script's code are its own).
JSObject* newGlobal(JSContext* cx, JSObject* shared = nullptr)
{
    JS::RealmOptions options;
    if (shared)
        options.creationOptions().setExistingCompartment(shared);
    else
        options.creationOptions().setNewCompartmentAndZone();
    JS::RootedObject global(cx, JS_NewGlobalObject(cx, &kGlobalClass, nullptr, JS::FireOnNewGlobalHook, options));
    if (!global)
        return nullptr;
    JSAutoRealm ar(cx, global);
    if (!JS::InitRealmStandardClasses(cx))
        return nullptr;
    return global;
}

} // namespace

struct JsRuntime::Realm::Impl
{
    JSContext* cx;
    JS::PersistentRootedObject global;
    std::vector<JS::PersistentRootedScript> scripts;  // per compiled script, instantiated here when first run
    std::vector<JS::PersistentRootedValue> functions; // per Postman script, its function here (undefined: not yet)
    JS::PersistentRootedValue call, end;              // the user's pm run and its end (__pmInstall's)
    Impl(JSContext* c, JSObject* g) : cx(c), global(c, g), call(c), end(c) {}
};

JsRuntime::Realm::Realm(std::unique_ptr<Impl> impl) : m_impl(std::move(impl)) {}
JsRuntime::Realm::~Realm() = default;

struct JsRuntime::Impl
{
    ScriptLimits limits;
    JSContext* cx = nullptr;
    // The shared realm: where scripts are compiled, and where the preludes (CryptoJS, btoa, atob; pm) ran
    // once, their code shared by every user's realm; `install` gives a user's global its pm.
    std::unique_ptr<JS::PersistentRootedObject> home;
    std::unique_ptr<JS::PersistentRootedValue> install;
    std::vector<RefPtr<JS::Stencil>> stencils;
    std::vector<std::string> names;
    // The watchdog: a run is not waited on (no lock, no wake-up per run). It
    // looks every 10 ms while runs come (the heap then, and the budget at its
    // deadline), and sleeps when none has come for a second.
    std::mutex mutex;
    std::condition_variable wake;
    bool quit = false;
    std::atomic<std::int64_t> runStart{0}; // steady nanoseconds of the run going on (0: none)
    // The budget is the run's thread's CPU time, not the wall's: a busy machine that takes the CPU away from
    // a script does not make it run out of its time (the thread's clock, read by the watchdog).
    clockid_t cpuClock = CLOCK_THREAD_CPUTIME_ID;
    std::atomic<std::int64_t> cpuStart{0};               // the thread's CPU nanoseconds when the run started
    std::atomic<std::int64_t> budgetNanos{0};            // limits.budget, as the watchdog reads it
    std::atomic<std::int64_t> interruptFor{-1};          // the run whose budget passed
    std::atomic<bool> overHeap{false};                   // past the heap limit
    std::atomic<std::int64_t> grewFor{-1};               // the run past the resident memory a run may add
    std::atomic<bool> parked{false};                     // the watchdog sleeps until a run starts
    PmRun pm;                                            // the runPm going on (its natives' view of it)
    std::unique_ptr<JS::PersistentRootedObject> modules; // the sandbox modules' global (modulesGlobal)
    int holds = 0;                                       // a module loading: its time is not the run's (holdBudget)
    std::int64_t heldAt = 0, heldCpu = 0;
    std::unique_ptr<PromiseJobs> jobs; // what a run's promises queued, run before it ends
    static constexpr std::chrono::milliseconds kTick{10};
    std::thread watchdog;

    std::int64_t cpuNanos() const
    {
        timespec ts{};
        clock_gettime(cpuClock, &ts);
        return std::int64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
    }
    static std::int64_t nowNanos()
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
            .count();
    }
    // The process's resident bytes (0: unknown).
    static std::size_t residentBytes()
    {
        FILE* f = std::fopen("/proc/self/statm", "r");
        unsigned long size = 0, resident = 0;
        const bool read = f && std::fscanf(f, "%lu %lu", &size, &resident) == 2;
        if (f)
            std::fclose(f);
        static const long page = sysconf(_SC_PAGESIZE);
        return read ? std::size_t(resident) * std::size_t(page) : 0;
    }
    void watch()
    {
        int idle = 0;
        std::size_t resident = 0; // at the last look
        std::int64_t watched = 0; // the run whose memory is watched
        std::size_t before = 0;   // the resident bytes before it (at the look before it was seen)
        for (;;) {
            const std::int64_t start = runStart.load();
            const std::size_t now = residentBytes();
            if (start != 0 && start != watched) {
                watched = start;
                before = resident ? std::min(resident, now) : now;
            }
            resident = now;
            if (start != 0 && start == watched && now > before + limits.runGrowthBytes && runStart.load() == start) {
                grewFor = start;
                JS_RequestInterruptCallback(cx);
            }
            if (start == 0 && ++idle > 100) { // a second without a run: sleep until one starts
                std::unique_lock lock(mutex);
                parked = true;
                wake.wait(lock, [&] { return quit || runStart.load() != 0; });
                parked = false;
                idle = 0;
                resident = 0; // what it was before the sleep says nothing of this run
            }
            {
                std::lock_guard lock(mutex);
                if (quit)
                    return;
            }
            std::chrono::nanoseconds sleep = kTick;
            if (start != 0) {
                idle = 0;
                const std::int64_t left = cpuStart.load() + budgetNanos.load() - cpuNanos();
                if (left <= 0 && runStart.load() == start)
                    interruptFor = start;
                JS_RequestInterruptCallback(cx); // thread-safe: the heap is looked at, or the run stops
                if (left > 0)
                    sleep = std::min<std::chrono::nanoseconds>(sleep, std::chrono::nanoseconds(left));
            }
            std::this_thread::sleep_for(sleep);
        }
    }
    bool interrupted() const { return interruptFor.load() == runStart.load() && runStart.load() != 0; }
    bool grew() const { return grewFor.load() == runStart.load() && runStart.load() != 0; }
    static bool onInterrupt(JSContext* cx)
    {
        auto* self = static_cast<Impl*>(JS_GetContextPrivate(cx));
        // Past the limit the engine would collect at every allocation (its own
        // limit is a quarter higher): the run stops here instead.
        if (JS_GetGCParameter(cx, JSGC_BYTES) > self->limits.heapBytes)
            self->overHeap = true;
        return !self->interrupted() && !self->overHeap && !self->grew(); // false: terminated (uncatchable)
    }
    // The innermost frame of `stack` in a script of the user's (not the
    // preludes'): its file and line, when there is one.
    void userFrame(JS::HandleObject stack, std::string& file, unsigned& line)
    {
        JS::RootedObject frame(cx, stack);
        while (frame) {
            JS::RootedString source(cx);
            std::uint32_t at = 0;
            if (JS::GetSavedFrameSource(cx, nullptr, frame, &source) != JS::SavedFrameResult::Ok || !source)
                return;
            JS::UniqueChars name = JS_EncodeStringToUTF8(cx, source);
            if (name && std::string_view(name.get()) != "prelude") {
                if (JS::GetSavedFrameLine(cx, nullptr, frame, &at) == JS::SavedFrameResult::Ok) {
                    file = name.get();
                    line = at;
                }
                return;
            }
            JS::RootedObject parent(cx);
            if (JS::GetSavedFrameParent(cx, nullptr, frame, &parent) != JS::SavedFrameResult::Ok)
                return;
            frame = parent;
        }
    }
    // Runs the preludes in the shared realm (home), once: its natives, CryptoJS, btoa, atob, the pm API;
    // keeps __pmInstall. "" when it could, else why not.
    std::string runPreludes()
    {
        JSAutoRealm ar(cx, *home);
        ScriptOutcome o;
        if (!ranPreludes())
            takeException(o);
        return o.error.empty() && !install->isObject() ? "no __pmInstall" : o.error;
    }
    bool ranPreludes()
    {
        if (!defineNatives(cx, *home) || !defineHostNatives(cx, *home))
            return false;
        JS::CompileOptions options(cx);
        options.setFileAndLine("prelude", 1);
        for (const char* source : {preludeSource(), pmPreludeSource()}) {
            JS::SourceText<mozilla::Utf8Unit> text;
            if (!text.init(cx, source, std::strlen(source), JS::SourceOwnership::Borrowed))
                return false;
            JS::RootedValue ignored(cx);
            if (!JS::Evaluate(cx, options, text, &ignored))
                return false;
        }
        JS::RootedValue fn(cx);
        if (!JS_GetProperty(cx, *home, "__pmInstall", &fn) || !fn.isObject())
            return false;
        *install = fn;
        return true;
    }
    // The pending exception as "name:line: message" (and its line).
    void takeException(ScriptOutcome& out)
    {
        JS::ExceptionStack stack(cx);
        if (!JS::StealPendingExceptionStack(cx, &stack)) {
            out.error = "the script stopped";
            return;
        }
        JS::ErrorReportBuilder report(cx);
        if (!report.init(cx, stack, JS::ErrorReportBuilder::NoSideEffects)) {
            JS_ClearPendingException(cx);
            out.error = "the script threw";
            return;
        }
        const JSErrorReport* r = report.report();
        out.line = r ? r->lineno : 0;
        std::string file = r && r->filename ? r->filename : "";
        userFrame(stack.stack(), file, out.line); // thrown by the prelude for the script: the script's line
        std::string message = report.toStringResult().c_str() ? report.toStringResult().c_str() : "";
        out.error = (file.empty() ? "" : file + ":" + std::to_string(out.line) + ": ") + message;
        out.outOfMemory = message.find("out of memory") != std::string::npos;
    }
};

JsRuntime::JsRuntime(const ScriptLimits& limits) : m_impl(std::make_unique<Impl>())
{
    Impl& d = *m_impl;
    d.limits = limits;
    if (!engineUp())
        throw std::runtime_error("SpiderMonkey could not start (JS_Init)");
    d.cx = JS_NewContext(limits.heapBytes + limits.heapBytes / 4);
    if (!d.cx)
        throw std::runtime_error("SpiderMonkey could not make a context");
    JS_SetContextPrivate(d.cx, &d);
    pthread_getcpuclockid(pthread_self(), &d.cpuClock); // this thread's, for the watchdog to read
    JS_SetGCParameter(d.cx, JSGC_MAX_BYTES,
                      std::uint32_t(std::min<std::size_t>(limits.heapBytes + limits.heapBytes / 4, 0xffffffffu)));
    if (!JS::InitSelfHostedCode(d.cx)) {
        JS_DestroyContext(d.cx);
        throw std::runtime_error("SpiderMonkey could not start its self-hosted code");
    }
    d.jobs = std::make_unique<PromiseJobs>(d.cx);
    JS::SetJobQueue(d.cx, d.jobs.get());
    JS_AddInterruptCallback(d.cx, &Impl::onInterrupt);
    d.home = std::make_unique<JS::PersistentRootedObject>(d.cx, newGlobal(d.cx));
    d.install = std::make_unique<JS::PersistentRootedValue>(d.cx);
    if (const std::string error = *d.home ? d.runPreludes() : "no global"; !error.empty()) {
        d.install.reset();
        d.home.reset();
        d.jobs->discard();
        JS_DestroyContext(d.cx);
        throw std::runtime_error("the script prelude does not run: " + error);
    }
    setBudget(limits.budget);
    d.watchdog = std::thread([&d] { d.watch(); });
    std::lock_guard lock(liveRuntimes().mutex);
    ++liveRuntimes().count;
}

void JsRuntime::setBudget(std::chrono::milliseconds budget)
{
    m_impl->limits.budget = budget;
    m_impl->budgetNanos = std::chrono::duration_cast<std::chrono::nanoseconds>(budget).count();
}

JsRuntime::~JsRuntime()
{
    Impl& d = *m_impl;
    {
        std::lock_guard lock(d.mutex);
        d.quit = true;
    }
    d.wake.notify_all();
    d.watchdog.join();
    d.stencils.clear();
    d.install.reset();
    d.home.reset();
    d.jobs->discard();
    JS_DestroyContext(d.cx);
    LiveRuntimes& live = liveRuntimes();
    {
        std::lock_guard lock(live.mutex);
        --live.count;
    }
    live.gone.notify_all();
}

std::optional<std::size_t> JsRuntime::compile(std::string_view source, const std::string& name, std::string& error,
                                              unsigned* line)
{
    Impl& d = *m_impl;
    JSAutoRealm ar(d.cx, *d.home);
    JS::CompileOptions options(d.cx);
    options.setFileAndLine(name.c_str(), 1);
    JS::SourceText<mozilla::Utf8Unit> text;
    if (!text.init(d.cx, source.data(), source.size(), JS::SourceOwnership::Borrowed)) {
        error = name + ": the source cannot be read";
        JS_ClearPendingException(d.cx);
        return std::nullopt;
    }
    RefPtr<JS::Stencil> stencil = JS::CompileGlobalScriptToStencil(d.cx, options, text);
    if (!stencil) {
        ScriptOutcome o;
        d.takeException(o);
        error = o.error;
        if (line)
            *line = o.line;
        return std::nullopt;
    }
    d.stencils.push_back(std::move(stencil));
    d.names.push_back(name);
    return d.stencils.size() - 1;
}

std::string pmScriptSource(std::string_view source)
{
    std::string out = "(function () {";
    out += source;
    out += "\n})";
    return out;
}

JsRuntime& JsRuntime::thisThread()
{
    thread_local JsRuntime runtime(ScriptLimits{std::chrono::milliseconds(100), kThreadHeapBytes});
    return runtime;
}

std::string JsRuntime::syntaxError(std::string_view source, const std::string& name, unsigned* line)
{
    std::string error;
    if (const auto script = compile(source, name, error, line))
        release(*script);
    return error;
}

void JsRuntime::release(std::size_t script)
{
    if (script < m_impl->stencils.size())
        m_impl->stencils[script] = nullptr;
}

std::unique_ptr<JsRuntime::Realm> JsRuntime::newRealm()
{
    JSContext* cx = m_impl->cx;
    JS::RootedObject global(cx, newGlobal(cx, *m_impl->home));
    if (!global)
        return nullptr;
    auto impl = std::make_unique<Realm::Impl>(cx, global);
    JSAutoRealm ar(cx, *m_impl->home);
    JS::RootedValueArray<1> args(cx);
    args[0].setObject(*global);
    JS::RootedValue pair(cx);
    if (!JS_CallFunctionValue(cx, nullptr, *m_impl->install, args, &pair) || !pair.isObject()) {
        JS_ClearPendingException(cx);
        return nullptr;
    }
    JS::RootedObject both(cx, &pair.toObject());
    if (!JS_GetElement(cx, both, 0, &impl->call) || !JS_GetElement(cx, both, 1, &impl->end)) {
        JS_ClearPendingException(cx);
        return nullptr;
    }
    return std::make_unique<Realm>(std::move(impl));
}

ScriptOutcome JsRuntime::run(Realm& realm, std::size_t script)
{
    JSAutoRealm ar(m_impl->cx, realm.impl().global);
    return runEntered(*m_impl, realm, script);
}

namespace {

// Compiled script `script` instantiated in realm `r` (entered), made at its
// first run there; null with `out`'s error when it cannot be.
JSScript* instantiated(JsRuntime::Impl& d, JsRuntime::Realm::Impl& r, std::size_t script, ScriptOutcome& out)
{
    while (r.scripts.size() <= script)
        r.scripts.emplace_back(d.cx);
    if (!r.scripts[script]) {
        if (script >= d.stencils.size() || !d.stencils[script]) {
            out.error = "no such script";
            return nullptr;
        }
        JS::CompileOptions options(d.cx);
        options.setFileAndLine(d.names[script].c_str(), 1);
        JS::InstantiateOptions instantiate(options);
        r.scripts[script] = JS::InstantiateGlobalStencil(d.cx, instantiate, d.stencils[script]);
        if (!r.scripts[script])
            d.takeException(out);
    }
    return r.scripts[script];
}

// Makes `call` (a call into the entered realm: true when it returned) under
// the watchdog (its budget, the heap); the outcome (no value), named
// `name` in its error.
template <class Call> ScriptOutcome watched(JsRuntime::Impl& d, const std::string& name, Call&& call)
{
    ScriptOutcome out;
    d.overHeap = false;
    const std::int64_t start = JsRuntime::Impl::nowNanos();
    d.cpuStart = d.cpuNanos();
    d.runStart = start;
    if (d.parked.load()) {
        std::lock_guard lock(d.mutex);
        d.wake.notify_all();
    }
    const bool ok = call();
    d.jobs->discard(); // a run that stopped before its jobs ran leaves none to the next
    const bool timedOut = d.interruptFor.load() == d.runStart.load(); // (a module's load moves the start on)
    const bool grew = d.grewFor.load() == d.runStart.load();
    d.runStart = 0;
    if (ok) {
        out.ok = true;
        return out;
    }
    if (d.overHeap) {
        out.outOfMemory = true;
        out.error = name + ": stopped past the heap limit of " + std::to_string(d.limits.heapBytes >> 20) + " MiB";
        JS_ClearPendingException(d.cx);
        JS_GC(d.cx); // what it left unreachable goes now
    } else if (grew) {
        out.outOfMemory = true;
        out.error = name + ": stopped past the memory a run may add (" + std::to_string(d.limits.runGrowthBytes >> 20) +
                    " MiB)";
        JS_ClearPendingException(d.cx);
        JS_GC(d.cx);
    } else if (timedOut) {
        out.timedOut = true;
        out.error = name + ": stopped after its budget of " + std::to_string(d.limits.budget.count()) + " ms";
        JS_ClearPendingException(d.cx);
    } else if (JS_IsExceptionPending(d.cx)) {
        d.takeException(out);
    } else {
        out.outOfMemory = true; // an uncatchable stop that was not the watchdog's
        out.error = name + ": out of memory (the runtime's heap limit)";
    }
    d.overHeap = false;
    return out;
}

} // namespace

// run() in the realm already entered.
ScriptOutcome JsRuntime::runEntered(Impl& d, Realm& realm, std::size_t script)
{
    ScriptOutcome out;
    JS::RootedScript compiled(d.cx, instantiated(d, realm.impl(), script, out));
    if (!compiled)
        return out;
    JS::RootedValue value(d.cx);
    out = watched(d, d.names[script], [&] { return JS_ExecuteScript(d.cx, compiled, &value) && d.jobs->drain(); });
    if (!out.ok)
        return out;
    JS::RootedString text(d.cx, JS::ToString(d.cx, value));
    if (text) {
        JS::UniqueChars chars = JS_EncodeStringToUTF8(d.cx, text);
        if (chars)
            out.value = chars.get();
    }
    JS_ClearPendingException(d.cx);
    return out;
}

namespace {

// Postman script `script`'s function in realm `r` (entered): its script run
// once there (pmScriptSource's value is the function); undefined with
// `out`'s error when it cannot be made.
JS::Value pmFunction(JsRuntime::Impl& d, JsRuntime::Realm::Impl& r, std::size_t script, ScriptOutcome& out)
{
    while (r.functions.size() <= script)
        r.functions.emplace_back(d.cx);
    if (!r.functions[script].isUndefined())
        return r.functions[script];
    JS::RootedScript compiled(d.cx, instantiated(d, r, script, out));
    if (!compiled)
        return JS::UndefinedValue();
    JS::RootedValue fn(d.cx);
    out = watched(d, d.names[script], [&] { return JS_ExecuteScript(d.cx, compiled, &fn); });
    if (!out.ok)
        return JS::UndefinedValue();
    if (!fn.isObject() || !JS::IsCallable(&fn.toObject())) {
        out.ok = false;
        out.error = d.names[script] + ": not a script's body (it closes the function it is run in)";
        return JS::UndefinedValue();
    }
    r.functions[script] = fn;
    return fn;
}

} // namespace

ScriptOutcome JsRuntime::runPm(Realm& realm, std::size_t script, const PmFacts& facts, PmHost& host,
                               std::string& result)
{
    Impl& d = *m_impl;
    Realm::Impl& r = realm.impl();
    result.clear();
    d.pm = PmRun{&host, &r.global, std::nullopt};
    struct Done
    {
        Impl& d;
        ~Done() { d.pm = PmRun{}; }
    } done{d};
    JSAutoRealm ar(d.cx, r.global);
    ScriptOutcome out;
    JS::RootedValueArray<10> args(d.cx);
    args[0].set(pmFunction(d, r, script, out));
    if (args[0].isUndefined())
        return out;
    JSString* name = newString(d.cx, facts.requestName);
    JSString* status = newString(d.cx, facts.status);
    JSString* id = newString(d.cx, facts.requestId);
    if (!name || !status || !id) {
        d.takeException(out);
        return out;
    }
    args[1].setString(name);
    args[2].setNumber(double(facts.iteration));
    args[3].setBoolean(facts.request);
    args[4].setInt32(facts.code);
    args[5].setString(status);
    args[6].setNumber(facts.responseTime);
    args[7].setNumber(double(facts.responseSize));
    args[8].setString(id);
    args[9].setBoolean(facts.call);
    // one call: the run's context, the script, what it changed (asked again when the script failed)
    JS::RootedValue changed(d.cx);
    // the jobs its promises queued run before what it changed is asked again
    out = watched(d, d.names[script], [&] {
        return JS_CallFunctionValue(d.cx, nullptr, r.call, args, &changed) && d.jobs->drain() &&
               JS_CallFunctionValue(d.cx, nullptr, r.end, JS::HandleValueArray::empty(), &changed);
    });
    if (!out.ok && !JS_CallFunctionValue(d.cx, nullptr, r.end, JS::HandleValueArray::empty(), &changed))
        JS_ClearPendingException(d.cx);
    if (!changed.isString() || JS_GetStringLength(changed.toString()) == 0)
        return out;
    JS::UniqueChars chars = JS_EncodeStringToUTF8(d.cx, JS::RootedString(d.cx, changed.toString()));
    if (chars)
        result = chars.get();
    else
        JS_ClearPendingException(d.cx);
    return out;
}

PmRun& pmRunOf(JSContext* cx)
{
    return static_cast<JsRuntime::Impl*>(JS_GetContextPrivate(cx))->pm;
}

JSObject* modulesGlobal(JSContext* cx)
{
    auto& d = *static_cast<JsRuntime::Impl*>(JS_GetContextPrivate(cx));
    if (!d.modules) {
        JSObject* global = newGlobal(cx, *d.home);
        if (!global)
            return nullptr;
        d.modules = std::make_unique<JS::PersistentRootedObject>(cx, global);
    }
    return *d.modules;
}

void holdBudget(JSContext* cx, bool hold)
{
    auto& d = *static_cast<JsRuntime::Impl*>(JS_GetContextPrivate(cx));
    if (hold && d.holds++ == 0) {
        d.heldAt = JsRuntime::Impl::nowNanos();
        d.heldCpu = d.cpuNanos();
    }
    if (!hold && d.holds > 0 && --d.holds == 0)
        if (const std::int64_t start = d.runStart.load(); start != 0) { // the run started that much later
            d.cpuStart.store(d.cpuStart.load() + (d.cpuNanos() - d.heldCpu));
            d.runStart.store(start + (JsRuntime::Impl::nowNanos() - d.heldAt));
        }
}

std::size_t JsRuntime::heapBytes() const
{
    return JS_GetGCParameter(m_impl->cx, JSGC_BYTES);
}

} // namespace stampede::script
