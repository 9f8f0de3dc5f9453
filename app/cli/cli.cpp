#include "cli.h"

#include "control/grpclog.h"
#include "net/tlscontext.h"

#include <csignal>
#include <cstdio>
#include <cstring>

namespace stampede::cli {

namespace {

const char* kUsage =
    "stampede-cli " STAMPEDE_VERSION " - load and full-link stress testing from the command line\n"
    "\n"
    "Usage: stampede-cli COMMAND [OPTIONS]\n"
    "\n"
    "Commands:\n"
    "  run       run a scenario file, or a quick load against one URL\n"
    "  capacity  find the highest rate at which every SLO holds\n"
    "  mock      serve HTTP/1.1 answers by rules (the embedded mock server)\n"
    "  agent     serve the control protocol: an engine that controllers drive\n"
    "  bundle    pack a scenario and its data into one .stbundle file\n"
    "  report    list, export (html, json, csv, junit) and compare saved runs\n"
    "  import    store recorded traffic (an access log, a HAR file), masked, in a project\n"
    "  replay    send recorded traffic at its own timing, sped up, amplified, masked\n"
    "  record    record live traffic from a gateway's mirror into a traffic set\n"
    "  schedule  install, list or remove systemd user timers that run a project's scenarios\n"
    "  control   steer a running test through its --control endpoint: status, pause, scale, stop\n"
    "  verify-tag  ask the tracing system (Jaeger, Tempo) whether a run's stress tag reached every hop\n"
    "  k8s       a run on Kubernetes: render its manifests, apply, status, logs, fetch the report, delete\n"
    "\n"
    "Options:\n"
    "  -h, --help     show this help (and `stampede-cli COMMAND --help` for a command)\n"
    "  -V, --version  show the version\n"
    "\n"
    "Exit codes: 0 passed, 1 a threshold failed, 2 bad input, 3 the run could not be carried out.\n";

} // namespace

bool ArgReader::value(const std::string& flag, std::string& out, std::string& error, bool allowEmpty)
{
    const std::string& a = args[pos];
    if (a.size() >= flag.size() + 1 && a.compare(0, flag.size(), flag) == 0 && a[flag.size()] == '=') {
        out = a.substr(flag.size() + 1);
    } else if (pos + 1 >= args.size()) {
        error = flag + " needs a value";
        return false;
    } else {
        out = args[++pos];
    }
    if (out.empty() && !allowEmpty) {
        error = flag + ": the value is empty (an unset variable in a script?)";
        return false;
    }
    return true;
}

int main(int argc, char** argv)
{
    keepTlsLibraryUntilExit(); // before anything uses OpenSSL (net/tlscontext.h)
    // a peer that closes while OpenSSL writes to it (a TLS alert to an agent
    // that hung up) is an error of that write, never the end of the process
    std::signal(SIGPIPE, SIG_IGN);
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty()) {
        std::fputs(kUsage, stderr);
        return BadInput;
    }
    const std::string cmd = args.front();
    if (cmd == "-h" || cmd == "--help" || cmd == "help") {
        std::fputs(kUsage, stdout);
        return Passed;
    }
    if (cmd == "-V" || cmd == "--version") {
        std::printf("stampede-cli %s\n", STAMPEDE_VERSION);
        return Passed;
    }
    stampede::quietGrpcHandshakeLogs();
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (cmd == "run")
        return runCommand(rest);
    if (cmd == "import")
        return importCommand(rest);
    if (cmd == "replay")
        return replayCommand(rest);
    if (cmd == "record")
        return recordCommand(rest);
    if (cmd == "capacity")
        return capacityCommand(rest);
    if (cmd == "mock")
        return mockCommand(rest);
    if (cmd == "agent")
        return agentCommand(rest);
    if (cmd == "bundle")
        return bundleCommand(rest);
    if (cmd == "report")
        return reportCommand(rest);
    if (cmd == "schedule")
        return scheduleCommand(rest);
    if (cmd == "control")
        return controlCommand(rest);
    if (cmd == "verify-tag")
        return verifyTagCommand(rest);
    if (cmd == "k8s")
        return k8sCommand(rest);
    std::fprintf(stderr, "stampede-cli: unknown command \"%s\"\n\n%s", cmd.c_str(), kUsage);
    return BadInput;
}

} // namespace stampede::cli
