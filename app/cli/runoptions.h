#pragma once
// `stampede-cli run`'s command line: its options, and the scenario they make
// (a scenario file or bundle read, or the quick mode's one-step scenario),
// with the TLS and HTTP flags applied over it.
#include <memory>
#include <string>
#include <vector>

namespace stampede::v1 {
class Scenario;
}
namespace stampede {
struct RunRequest;
}

namespace stampede::cli {

extern const char* kRunUsage;

struct Options
{
    std::string scenarioFile; // a scenario file, a bundle, or PROJECT.stampede@SCENARIO
    std::string env;          // --env: an environment of the bundle or the project
    std::string url;
    std::string connections, rate, duration, threads, method, body, timeout;
    std::string iterations; // --iterations: per virtual user (closed model)
    bool bail = false;      // --bail: a collection run stops at its first failure (as newman's)
    // newman's files beside a collection: --environment, --globals, --iteration-data FILE; --env-var and
    // --global-var NAME=VALUE
    std::string environmentFile, globalsFile, iterationDataFile;
    std::vector<std::string> envVars, globalVars;
    std::string delayRequest;                  // --delay-request D: a pause between two requests (newman's)
    std::vector<std::string> noDefaultHeaders; // --no-default-header NAME: one of newman's default headers not sent
    bool bodySet = false;
    std::vector<std::string> headers, thresholds, vars, breakers;
    std::string maxErrorRate; // --max-error-rate, else STAMPEDE_MAX_ERROR_RATE
    std::string stressHeader;
    bool noStressTag = false;
    bool trace = false;
    bool mock = false;
    std::string mockRules;
    std::string summaryJson;
    std::vector<std::string> outputs;           // --out KIND=TARGET
    std::vector<std::string> notify;            // --notify [KIND=]URL[,...]
    std::string rollbackCommand;                // --rollback COMMAND
    std::string growCommand, growAt, growAfter; // --grow COMMAND --grow-at 90% --grow-after 10s
    bool quiet = false;
    std::string engines, agents, minAgents, tokenFile, caFile, onAgentLoss, deadMan;
    std::vector<std::string> agentsWith;          // K=V: only agents with these labels
    std::string control, controlCert, controlKey; // --control ADDR: the run steered from outside
    std::string acceptAgents;                     // --accept-agents ADDR: agents join by themselves (agent --join)
    std::string agentTlsName;                     // the name the agents' certificates must cover
    bool pinEngines = false;
    bool elastic = false; // --elastic: --agents looked up again every 10 s; new agents join
    std::string shares;   // --shares N: the run split into N shares over the agents
    std::string projectFile, reportFile;
    bool insecure = false;
    bool noTlsResume = false;    // --no-tls-resume: a full handshake on every new connection
    bool opensslRecords = false; // --openssl-records: TLS 1.3 records by OpenSSL (the default)
    bool ownTlsRecords = false;  // --own-tls-records: by the engine's own record layer
    std::string http, streams;
    std::string caCert, clientCert, clientKey, serverName;
    // gRPC quick mode
    std::string grpcTarget, call, data;
    bool dataSet = false, reflection = false;
    std::vector<std::string> protos, importPaths;
    // A scenario made by the subcommand itself (replay): run instead of a
    // file or the quick mode, with --connections, --duration and the common flags over it.
    std::shared_ptr<v1::Scenario> prepared;
    std::string preparedBaseDir = ".";
};

// Reads the arguments after "run"; false with `error`. `help` when -h/--help.
bool parseArgs(const std::vector<std::string>& args, Options& o, std::string& error, bool& help);
// The scenario to run and where its relative files are read from (`rq.scenario`, `rq.baseDir`), with --var.
bool buildScenario(const Options& o, RunRequest& rq, std::string& error);
bool readFile(const std::string& path, std::string& out);

} // namespace stampede::cli
