#include "agentjoin.h"
#include "cli.h"

#include "control/agentdiscovery.h"

#include "agent/agent.h"
#include "core/number.h"
#include "core/textfile.h"
#include "httpexchange.h"

#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <sstream>
#include <sys/resource.h>
#include <unistd.h>

namespace stampede::cli {

namespace {

const char* kAgentUsage =
    "Usage: stampede-cli agent [--listen ADDR] [--token-file F] [--tls-cert C --tls-key K]\n"
    "                          [--name N] [--dead-man SECONDS] [--label K=V ...] [--insecure] [--quiet]\n"
    "                          [--join HOST:PORT [--join-ca F] [--advertise HOST]]\n"
    "\n"
    "Serves the control protocol (gRPC): a controller (stampede-cli run --agents, or the\n"
    "GUI) starts runs on this engine and reads its per-second snapshots.\n"
    "  --listen ADDR       default 127.0.0.1:7070; port 0 picks a free port\n"
    "  --token-file F      callers must present this token (Bearer); required off loopback\n"
    "  --tls-cert C        PEM certificate (with --tls-key): speak TLS only; required off loopback\n"
    "  --tls-key K         PEM private key\n"
    "  --name N            the name controllers see (default: the host name)\n"
    "  --dead-man S        stop the load when the controller is silent S seconds (default 3,\n"
    "                      also the longest a controller may ask for)\n"
    "  --metrics ADDR      serve Prometheus metrics at http://ADDR/metrics (e.g. 127.0.0.1:9464)\n"
    "  --label K=V         a label controllers choose agents by (--agents-with K=V), e.g.\n"
    "                      zone=hz-a (repeatable; K letters, digits, - _ . /, V at most 63 characters)\n"
    "  --insecure          allow a non-loopback address without TLS or token (prints a warning)\n"
    "  --join HOST:PORT    join a controller that accepts agents (run --accept-agents HOST:PORT):\n"
    "                      says where it listens every 2 s, with its token\n"
    "  --join-ca F         speak TLS to that controller, verified against this CA (off loopback)\n"
    "  --advertise HOST    the host the controller reaches it at (default: the address it joins\n"
    "                      from, or its --listen host when that is not a wildcard)\n"
    "\n"
    "Prints \"listening on HOST:PORT\" once it serves. One run at a time.\n";

volatile std::sig_atomic_t g_stop = 0;
void onSignal(int)
{
    g_stop = 1;
}

} // namespace

int agentCommand(const std::vector<std::string>& args)
{
    // every connection is a file: take all the system allows this process
    rlimit files{};
    if (getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
        files.rlim_cur = files.rlim_max;
        setrlimit(RLIMIT_NOFILE, &files);
    }
    AgentOptions options;
    std::string listen = "127.0.0.1:7070";
    std::string tokenFile, deadMan;
    bool insecure = false, quiet = false, poolChild = false;
    JoinOptions join;
    char host[256] = "agent";
    gethostname(host, sizeof host - 1);
    options.name = host;
    options.version = STAMPEDE_VERSION;
    ArgReader r{args};
    std::string error;
    for (; !r.done() && error.empty(); ++r.pos) {
        const std::string& a = args[r.pos];
        auto is = [&](const char* f) { return a == f || a.rfind(std::string(f) + "=", 0) == 0; };
        if (a == "-h" || a == "--help") {
            std::fputs(kAgentUsage, stdout);
            return Passed;
        } else if (is("--listen")) {
            r.value("--listen", listen, error);
        } else if (is("--token-file")) {
            r.value("--token-file", tokenFile, error);
        } else if (is("--tls-cert")) {
            r.value("--tls-cert", options.tlsCertFile, error);
        } else if (is("--tls-key")) {
            r.value("--tls-key", options.tlsKeyFile, error);
        } else if (is("--name")) {
            r.value("--name", options.name, error);
        } else if (is("--dead-man")) {
            r.value("--dead-man", deadMan, error);
        } else if (is("--metrics")) {
            r.value("--metrics", options.metricsAddress, error);
        } else if (is("--label")) {
            std::string label, key, value;
            if (r.value("--label", label, error) && parseAgentLabel(label, key, value, error))
                options.labels[key] = value;
        } else if (is("--join")) {
            r.value("--join", join.controller, error);
        } else if (is("--join-ca")) {
            r.value("--join-ca", join.caFile, error);
        } else if (is("--advertise")) {
            r.value("--advertise", join.host, error);
        } else if (a == "--insecure") {
            insecure = true;
        } else if (a == "-q" || a == "--quiet") {
            quiet = true;
        } else if (a == "--pool-child") {
            poolChild = true; // started by a controller's local pool (localpool.cpp), not by a person
        } else {
            error = "unknown option \"" + a + "\" (see stampede-cli agent --help)";
        }
    }
    if (poolChild) {
        // A terminal's Ctrl-C, `timeout` and systemd's control-group kill signal
        // the whole group: the controller alone decides, stops the run, saves
        // it, and then stops its engines with SIGUSR1 (or they die with it).
        std::signal(SIGINT, SIG_IGN);
        std::signal(SIGTERM, SIG_IGN);
        std::signal(SIGHUP, SIG_IGN);
        std::signal(SIGUSR1, onSignal);
    }
    if (error.empty() && !deadMan.empty()) {
        std::uint64_t s = 0;
        if (parseWhole(deadMan, "--dead-man", 1, RunLimits::kDeadManSeconds, s, error))
            options.defaultDeadManSeconds = unsigned(s);
    }
    if (error.empty() && options.tlsCertFile.empty() != options.tlsKeyFile.empty())
        error = "--tls-cert and --tls-key go together";
    if (error.empty() && !tokenFile.empty()) {
        std::string why;
        if (!readTokenFile(tokenFile, options.token, why))
            error = "--token-file: cannot read a token from \"" + tokenFile + "\": " + why;
    }
    if (error.empty() && !isLoopbackAddress(listen) && (options.token.empty() || options.tlsCertFile.empty())) {
        if (!insecure)
            error =
                "listening on " + listen + " (not loopback) needs --token-file and --tls-cert/--tls-key, or --insecure";
        else
            std::fprintf(stderr,
                         "stampede-cli agent: WARNING: listening on %s without %s: anyone who can reach it "
                         "can make this machine generate load\n",
                         listen.c_str(), options.token.empty() ? "a token" : "TLS");
    }
    if (error.empty() && !join.controller.empty()) {
        std::string h, p;
        if (!splitAddress(join.controller, h, p))
            error = "--join: \"" + join.controller + "\" is not host:port (the controller's --accept-agents)";
        else if (!isLoopbackAddress(join.controller) && join.caFile.empty() && !insecure)
            error = "--join " + join.controller + " (not loopback) needs --join-ca (TLS), or --insecure";
    }
    if (error.empty() && (!join.caFile.empty() || !join.host.empty()) && join.controller.empty())
        error = "--join-ca and --advertise go with --join";
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli agent: %s\n", error.c_str());
        return BadInput;
    }
    options.log = !quiet;
    Agent agent(options);
    if (!agent.start(listen, error)) {
        std::fprintf(stderr, "stampede-cli agent: %s\n", error.c_str());
        return RunFailed;
    }
    if (!poolChild) {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
    }
    const std::string host2 = listen.substr(0, listen.rfind(':'));
    std::printf("listening on %s:%d\n", host2.c_str(), agent.port());
    if (agent.metricsPort() && !quiet)
        std::fprintf(stderr, "stampede-cli agent: Prometheus metrics on port %d at /metrics\n", agent.metricsPort());
    std::fflush(stdout);
    if (!quiet)
        std::fprintf(stderr, "stampede-cli agent %s: serving (token %s, TLS %s)\n", options.name.c_str(),
                     options.token.empty() ? "off" : "on", options.tlsCertFile.empty() ? "off" : "on");
    std::unique_ptr<AgentJoiner> joiner;
    if (!join.controller.empty()) {
        join.token = options.token;
        join.name = options.name;
        join.port = unsigned(agent.port());
        join.quiet = quiet;
        if (join.host.empty() && host2 != "0.0.0.0" && host2 != "[::]" && host2 != "::")
            join.host = host2.size() > 2 && host2.front() == '[' ? host2.substr(1, host2.size() - 2) : host2;
        joiner = std::make_unique<AgentJoiner>(join);
    }
    while (!g_stop)
        ::usleep(50 * 1000);
    joiner.reset();
    agent.shutdown();
    return Passed;
}

} // namespace stampede::cli
