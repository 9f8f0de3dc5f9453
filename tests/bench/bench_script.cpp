// What a Postman test script costs a worker, per answer: the issue's script
// (pm.test + pm.response.json() on a 1 KiB JSON answer + pm.environment.set)
// run through JsRuntime::runPm, against the native check (bench_jsonpath
// measures that one). Prints runs per CPU-second and microseconds per run.
#include "script/jsruntime.h"

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <memory>
#include <string>
#include <vector>

using namespace stampede::script;

namespace {

double cpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return double(t.tv_sec) + double(t.tv_nsec) / 1e9;
}

std::string answerBody()
{
    std::string items;
    for (int i = 0; i < 12; ++i)
        items += std::string(i ? "," : "") + "{\"id\": " + std::to_string(i) + ", \"name\": \"item number " +
                 std::to_string(i) + "\", \"price\": 12.5, \"tags\": [\"a\", \"b\"]}";
    return "{\"code\": 0, \"data\": {\"token\": \"abc123\", \"items\": [" + items + "]}}";
}

std::string escaped(const std::string& s)
{
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    return out;
}

} // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 20000;
    // users taking turns, each in its own realm, as a worker's virtual users do (default 50, as make bench)
    const int turns = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
    JsRuntime js(ScriptLimits{std::chrono::milliseconds(100), JsRuntime::kThreadHeapBytes}); // as a worker's
    std::string error;
    const auto script = js.compile(R"(
        pm.test('code is 0', () => pm.expect(pm.response.json().code).to.eql(0));
        pm.environment.set('token', pm.response.json().data.token);
    )",
                                   "test.js", error);
    if (!script) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    std::vector<std::unique_ptr<JsRuntime::Realm>> turning;
    for (int u = 0; u < turns; ++u)
        turning.push_back(js.newRealm());
    auto& realm = turning.front();
    const std::string body = answerBody();
    const std::string context = "{\"environment\": {\"base\": \"http://127.0.0.1\"}, \"response\": {\"code\": 200, "
                                "\"headers\": [[\"Content-Type\", \"application/json\"]], \"body\": \"" +
                                escaped(body) + "\", \"responseTime\": 3}}";
    std::string result;
    for (int i = 0; i < 1000; ++i) // warm-up: the JIT's tiers
        js.runPm(*turning[std::size_t(i % turns)], *script, context, result);
    const double start = cpuSeconds();
    int passed = 0;
    for (int i = 0; i < runs; ++i) {
        const ScriptOutcome o = js.runPm(*turning[std::size_t(i % turns)], *script, context, result);
        passed += o.ok && result.find("\"passed\":true") != std::string::npos;
    }
    const double cpu = cpuSeconds() - start;
    std::printf("answer body %zu bytes; %d runs by %d users in turn, %d passed\n", body.size(), runs, turns, passed);
    std::printf("test script: %.0f runs per CPU-second, %.1f us a run\n", runs / cpu, cpu / runs * 1e6);
    // memory per virtual user: 1,000 realms, each having run the script once (its
    // instantiated script, its variables), measured as the GC heap and malloc's
    // bytes in use (SpiderMonkey keeps slots and elements outside the GC heap)
    const std::size_t users = 1000;
    js.runPm(*realm, *script, context, result);
    const std::size_t heapBefore = js.heapBytes();
    const std::size_t mallocBefore = mallinfo2().uordblks;
    std::vector<std::unique_ptr<JsRuntime::Realm>> realms;
    for (std::size_t u = 0; u < users; ++u) {
        realms.push_back(js.newRealm());
        if (!realms.back()) {
            std::fprintf(stderr, "realm %zu could not be made\n", u);
            return 1;
        }
        js.runPm(*realms.back(), *script, context, result);
    }
    const double heap = double(js.heapBytes() - heapBefore) / double(users) / 1024;
    const double mallocd = double(mallinfo2().uordblks - mallocBefore) / double(users) / 1024;
    std::printf("per virtual user (%zu realms): %.1f KiB GC heap + %.1f KiB malloc = %.1f KiB\n", users, heap, mallocd,
                heap + mallocd);
    return passed == runs ? 0 : 1;
}
