// libFuzzer target: pm.response.json() on an answer's bytes (a peer's) reads
// exactly as JSON.parse on the same answer's text: the same values, types,
// prototypes, keys in the same order and property attributes, at every
// depth; or, when the bytes are not JSON, the same error. Any difference, or
// a run that fails other than by its time or memory limit, aborts.
#include "script/jsruntime.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

using namespace stampede::script;

namespace {

const char* kCompare = R"JS(
const same = (a, b, path) => {
  if (typeof a !== typeof b) throw new Error(path + ': typeof');
  if (a === null || typeof a !== 'object') { if (!Object.is(a, b)) throw new Error(path + ': value'); return; }
  if (Array.isArray(a) !== Array.isArray(b)) throw new Error(path + ': Array.isArray');
  if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) throw new Error(path + ': prototype');
  const ka = Reflect.ownKeys(a).map(String), kb = Reflect.ownKeys(b).map(String);
  if (ka.join('\u0001') !== kb.join('\u0001')) throw new Error(path + ': keys');
  for (const k of ka) {
    const da = Object.getOwnPropertyDescriptor(a, k), db = Object.getOwnPropertyDescriptor(b, k);
    if (da.writable !== db.writable || da.enumerable !== db.enumerable || da.configurable !== db.configurable)
      throw new Error(path + ': attributes');
    same(a[k], b[k], path + '.' + k);
  }
};
let parsed, error = '', fast, fastError = '';
try { parsed = JSON.parse(pm.response.text()); } catch (e) { error = String(e); }
try { fast = pm.response.json(); } catch (e) { fastError = String(e); }
// each object's last key read first (alone), then the whole compared
const touch = (a, b) => {
  if (b === null || typeof b !== 'object') return;
  const keys = Object.keys(b);
  if (keys.length) touch(a[keys[keys.length - 1]], b[keys[keys.length - 1]]);
};
let verdict = fastError === error ? '' : 'errors differ: ' + fastError + ' / ' + error;
if (!verdict && !error) {
  try { same(fast, parsed, '$'); } catch (e) { if (!/too much recursion/.test(String(e))) verdict = String(e); }
  try { const one = pm.response.json(); touch(one, parsed); same(one, parsed, '$'); }
  catch (e) { if (!verdict && !/too much recursion/.test(String(e))) verdict = 'a key read first: ' + String(e); }
}
pm.test('same', () => { if (verdict) throw new Error(verdict); });
)JS";

struct Host final : PmHost
{
    std::string body;
    bool failed = false;
    std::string why;
    void variables(std::string& json) override { json = "{}"; }
    void request(std::string& json) override { json = "{}"; }
    void responseHeaders(std::string& json) override { json = "[]"; }
    std::string_view responseBody() override { return body; }
    void change(int, const std::string_view*, const std::string_view*) override {}
    void test(std::string_view, bool passed, std::string_view error) override
    {
        failed = failed || !passed;
        why = error;
    }
    void log(std::string_view) override {}
};

} // namespace

// SpiderMonkey's GC heap is mapped memory, which LeakSanitizer does not scan:
// what only the GC's cells point to would read as leaked.
extern "C" const char* __asan_default_options()
{
    return "detect_leaks=0";
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    static JsRuntime js(ScriptLimits{std::chrono::milliseconds(5000), std::size_t(256) << 20});
    static std::unique_ptr<JsRuntime::Realm> realm = js.newRealm();
    static const std::size_t script = [] {
        std::string error;
        const auto id = js.compile(pmScriptSource(kCompare), "compare.js", error);
        if (!id) {
            std::fprintf(stderr, "%s\n", error.c_str());
            std::abort();
        }
        return *id;
    }();
    Host host;
    host.body.assign(reinterpret_cast<const char*>(data), size);
    PmFacts facts;
    facts.code = 200;
    std::string result;
    const ScriptOutcome o = js.runPm(*realm, script, facts, host, result);
    if ((!o.ok && !o.outOfMemory && !o.timedOut) || host.failed) {
        std::fprintf(stderr, "json() and JSON.parse differ: %s %s\n", o.error.c_str(), host.why.c_str());
        std::abort();
    }
    return 0;
}
