#pragma once
// `stampede-cli k8s render`: the manifests of one run on Kubernetes, as files
// (kustomize's layout: a base the runs share, an overlay of the run's own):
// agents as a StatefulSet of N behind a headless Service, the controller as a
// Job whose --min-agents is N and whose shares are several per agent (every
// agent gets some), the bundle in ConfigMaps of at most kChunkBytes each
// (joined and checked against its SHA-256 by an init container), labels,
// resources, anti-affinity, NetworkPolicies (the control port from the
// controller only, the metrics port from one namespace), and, given the
// output of scripts/make-agent-certs.sh, the three Secrets. Pure: files in,
// files out; k8scommand.cpp writes them and drives kubectl.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace stampede::cli {

struct K8sOptions
{
    std::uint32_t agents = 0;
    std::string name = "stampede"; // the run's name: a label on everything, the Job's name stampede-NAME
    std::string namespaceName = "stampede";
    bool createNamespace = false;
    std::string image;                                       // default stampede-agent:VERSION
    std::vector<std::pair<std::string, std::string>> labels; // --agents-with K=V: the agents' --label, chosen by
    std::string agentCpu = "2", agentMemory = "1Gi";
    std::string controllerCpu = "1", controllerMemory = "1Gi";
    std::uint32_t sharesPerAgent = 4;
    std::string metricsFrom = "monitoring";     // the namespace that may scrape the agents' metrics
    std::uint32_t keepSeconds = 1800;           // the controller waits so long for `k8s fetch` after the run
    std::uint32_t ttlSeconds = 600;             // then the Job (and with it the agents) goes this long after
    std::vector<std::string> runArgs;           // more of `stampede-cli run`'s options (--out, -d, ...)
    std::map<std::string, std::string> secrets; // file name (ca.crt, agent.crt, agent.key, token) -> its bytes
};

// Room for a ConfigMap's metadata: a chunk is base64 (4/3) under Kubernetes' 1 MiB per object.
inline constexpr std::size_t kChunkBytes = 700'000;

// The run's shares: several per agent, at most the engine's 1,024, at least one per agent.
std::uint32_t k8sShares(std::uint32_t agents, std::uint32_t perAgent);

// The files of the run (paths under the output folder: base/..., overlay/..., run.json); false with `error`
// for options that cannot make a run (no agents, more than 1,024, names Kubernetes refuses).
bool renderK8s(const K8sOptions& o, const std::string& bundle, std::map<std::string, std::string>& files,
               std::string& error);

// A Kubernetes name (RFC 1123 label: lower-case letters, digits, '-', at most `max`).
bool isK8sName(const std::string& s, std::size_t max = 63);

} // namespace stampede::cli
