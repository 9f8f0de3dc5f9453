// What a Postman test script costs a worker, per answer: the script
// (pm.test + pm.response.json() on a 1 KiB JSON answer + pm.environment.set,
// as make bench's script case has it; or $STAMPEDE_BENCH_SCRIPT)
// run through JsRuntime::runPm, against the native check (bench_jsonpath
// measures that one). Prints runs per CPU-second and microseconds per run.
#include "script/jsruntime.h"

#include <malloc.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
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

// make bench's answer (scripts/bench_http1.py JSON_BODY): 1 KiB, a list of
// 24 items, then the data with the token, then padding; or (`items` other
// than 24) that many items and no padding, to see what a larger answer costs.
std::string answerBody(int items)
{
    std::string body = "{\"code\":0,\"items\":[";
    for (int i = 0; i < items; ++i) {
        char item[64];
        std::snprintf(item, sizeof item, "%s{\"id\":%d,\"sku\":\"SKU-%05d\",\"qty\":%d}", i ? "," : "", i, i * 7,
                      i % 5);
        body += item;
    }
    body += "],\"data\":{\"user\":\"bench\",\"token\":\"tok-0123456789abcdef\"}}";
    if (items != 24)
        return body;
    body = body.substr(0, body.size() - 2) + ",\"pad\":\"" + std::string(1024 - body.size() - 10, 'x') + "\"}}";
    return body;
}

// A worker's part of a run: the variables, the answer; counts the tests.
struct Host final : PmHost
{
    std::string body;
    int passed = 0, failed = 0;
    void variables(std::string& json) override
    {
        json = "{\"globals\": {}, \"collectionVariables\": {}, \"environment\": {\"base\": \"http://127.0.0.1\"}, "
               "\"variables\": {}, \"iterationData\": {}}";
    }
    void request(std::string& json) override { json = "{}"; }
    void responseHeaders(std::string& json) override { json = "[[\"Content-Type\", \"application/json\"]]"; }
    std::string_view responseBody() override { return body; }
    void test(std::string_view, bool ok, std::string_view) override { ++(ok ? passed : failed); }
    void change(int, const std::string_view*, const std::string_view*) override {}
    void log(std::string_view) override {}
};

} // namespace

int main(int argc, char** argv)
{
    const int runs = argc > 1 ? std::atoi(argv[1]) : 20000;
    // users taking turns, each in its own realm, as a worker's virtual users do (default 50, as make bench)
    const int turns = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
    const int items = argc > 3 ? std::max(0, std::atoi(argv[3])) : 24;                       // the answer's list
    JsRuntime js(ScriptLimits{std::chrono::milliseconds(100), JsRuntime::kThreadHeapBytes}); // as a worker's
    std::string error;
    // the script of make bench's script case; or $STAMPEDE_BENCH_SCRIPT (to see what a part costs)
    const char* own = std::getenv("STAMPEDE_BENCH_SCRIPT");
    const std::string source = own && *own ? own
                                           : "const j = pm.response.json();\n"
                                             "pm.test('ok', () => pm.expect(j.data.token).to.be.ok);\n"
                                             "pm.environment.set('token', j.data.token);";
    const auto script = js.compile(pmScriptSource(source), "test.js", error);
    if (!script) {
        std::fprintf(stderr, "%s\n", error.c_str());
        return 1;
    }
    std::vector<std::unique_ptr<JsRuntime::Realm>> turning;
    for (int u = 0; u < turns; ++u)
        turning.push_back(js.newRealm());
    auto& realm = turning.front();
    const std::string body = answerBody(items);
    // the answer's facts; the host gives the rest when asked, as a worker's does
    Host host;
    host.body = body;
    PmFacts context;
    context.requestName = "GET /json";
    context.code = 200;
    context.responseTime = 3;
    context.responseSize = body.size();
    std::string result;
    for (int i = 0; i < 1000; ++i) // warm-up: the JIT's tiers
        js.runPm(*turning[std::size_t(i % turns)], *script, context, host, result);
    host.passed = host.failed = 0;
    const double start = cpuSeconds();
    int passed = 0;
    for (int i = 0; i < runs; ++i) {
        const ScriptOutcome o = js.runPm(*turning[std::size_t(i % turns)], *script, context, host, result);
        passed += o.ok && host.passed == 1 && host.failed == 0;
        host.passed = host.failed = 0;
        if (!o.ok && i == 0)
            std::fprintf(stderr, "the script failed: %s\n", o.error.c_str());
    }
    const double cpu = cpuSeconds() - start;
    std::printf("answer body %zu bytes; %d runs by %d users in turn, %d passed\n", body.size(), runs, turns, passed);
    std::printf("test script: %.0f runs per CPU-second, %.1f us a run\n", runs / cpu, cpu / runs * 1e6);
    // memory per virtual user: 1,000 realms, each having run the script once (its
    // instantiated script, its variables), measured as the GC heap and malloc's
    // bytes in use (SpiderMonkey keeps slots and elements outside the GC heap)
    const std::size_t users = 1000;
    js.runPm(*realm, *script, context, host, result);
    const std::size_t heapBefore = js.heapBytes();
    const std::size_t mallocBefore = mallinfo2().uordblks;
    std::vector<std::unique_ptr<JsRuntime::Realm>> realms;
    for (std::size_t u = 0; u < users; ++u) {
        realms.push_back(js.newRealm());
        if (!realms.back()) {
            std::fprintf(stderr, "realm %zu could not be made\n", u);
            return 1;
        }
        js.runPm(*realms.back(), *script, context, host, result);
    }
    const double heap = double(js.heapBytes() - heapBefore) / double(users) / 1024;
    const double mallocd = double(mallinfo2().uordblks - mallocBefore) / double(users) / 1024;
    std::printf("per virtual user (%zu realms): %.1f KiB GC heap + %.1f KiB malloc = %.1f KiB\n", users, heap, mallocd,
                heap + mallocd);
    return passed == runs ? 0 : 1;
}
