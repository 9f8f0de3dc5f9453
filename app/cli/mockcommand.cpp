#include "cli.h"

#include "core/textfile.h"
#include "mock/mockserver.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <unistd.h>

namespace stampede::cli {

namespace {

const char* kMockUsage = "Usage: stampede-cli mock [--listen ADDR] [--rules FILE] [--threads N]\n"
                         "\n"
                         "Serves HTTP/1.1 (keep-alive) and HTTP/2 (h2c, prior knowledge) answers by rules\n"
                         "until interrupted; gRPC rules answer unary methods, with server reflection.\n"
                         "  --listen ADDR   address to listen on (default 127.0.0.1:8080; port 0 picks a free port)\n"
                         "  --rules FILE    rules as JSON: {\"rules\": [{\"name\": \"login\", \"method\": \"POST\",\n"
                         "                  \"path\": \"/api/login\", \"status\": 200, \"body\": \"{...}\",\n"
                         "                  \"delay\": {\"fixedMs\": 20}, \"errorPercent\": 1}]}\n"
                         "                  Paths: exact \"/a\", prefix \"/a/*\", or segments \"/users/{id}\".\n"
                         "                  Delays: fixedMs, uniform {minMs, maxMs}, normal {meanMs, stddevMs},\n"
                         "                  longTail {medianMs, p99Ms}. Without rules every request gets 200 \"ok\".\n"
                         "                  gRPC: {\"protos\": [\"svc.proto\"], \"rules\": [{\"grpc\": {\"method\":\n"
                         "                  \"pkg.Svc/Method\", \"response\": \"{JSON}\"}}]}; or \"status\": 14 and\n"
                         "                  \"message\" to answer a gRPC status; errorPercent injects UNAVAILABLE.\n"
                         "  --threads N     serving threads (default 1)\n"
                         "\n"
                         "Prints \"listening on http://HOST:PORT\" once ready. Requests served per rule are\n"
                         "readable at GET /__stampede/stats.\n";

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int)
{
    g_stop = 1;
}

} // namespace

int mockCommand(const std::vector<std::string>& args)
{
    std::string listen = "127.0.0.1:8080";
    std::string rulesFile;
    unsigned threads = 1;
    ArgReader r{args};
    std::string error;
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        std::string v;
        if (a == "-h" || a == "--help") {
            std::fputs(kMockUsage, stdout);
            return Passed;
        } else if (a.rfind("--listen", 0) == 0) {
            if (!r.value("--listen", listen, error))
                break;
        } else if (a.rfind("--rules", 0) == 0) {
            if (!r.value("--rules", rulesFile, error))
                break;
        } else if (a.rfind("--threads", 0) == 0) {
            if (!r.value("--threads", v, error))
                break;
            char* end = nullptr;
            const long n = std::strtol(v.c_str(), &end, 10);
            if (v.empty() || *end || n < 1 || n > 256) {
                error = "--threads: \"" + v + "\" is not a number from 1 to 256";
                break;
            }
            threads = unsigned(n);
        } else {
            error = "unknown option \"" + a + "\"";
            break;
        }
    }
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli mock: %s\n", error.c_str());
        return BadInput;
    }
    std::shared_ptr<MockRuleSet> rules;
    if (rulesFile.empty()) {
        rules = MockRuleSet::defaults();
    } else {
        std::string text, why; // bounded: /dev/zero is refused, not read for ever
        if (!readWholeFile(rulesFile, text, why)) {
            std::fprintf(stderr, "stampede-cli mock: cannot read rules file \"%s\": %s\n", rulesFile.c_str(),
                         why.c_str());
            return BadInput;
        }
        const std::size_t slash = rulesFile.rfind('/');
        rules = MockRuleSet::fromJson(text, error, slash == std::string::npos ? "." : rulesFile.substr(0, slash));
        if (!rules) {
            std::fprintf(stderr, "stampede-cli mock: %s: %s\n", rulesFile.c_str(), error.c_str());
            return BadInput;
        }
    }
    MockServer server(rules, threads);
    if (!server.start(listen, error)) {
        std::fprintf(stderr, "stampede-cli mock: %s\n", error.c_str());
        return RunFailed;
    }
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::printf("listening on %s\n", server.baseUrl().c_str());
    std::fflush(stdout);
    while (!g_stop)
        ::usleep(50 * 1000);
    server.stop();
    std::fprintf(stderr, "stampede-cli mock: served %llu requests\n",
                 static_cast<unsigned long long>(server.rules().total()));
    return Passed;
}

} // namespace stampede::cli
