#include "k8srender.h"

#include "core/text.h"

#include <openssl/sha.h>

#include <algorithm>
#include <cstdio>

namespace stampede::cli {

namespace {

constexpr std::uint32_t kMaxShares = 1024; // the engine's (run/runengine.h)

// A YAML scalar that means what it says whatever it holds: a JSON string (YAML's double-quoted style).
std::string q(const std::string& s)
{
    return jsonString(s);
}

std::string base64(const std::string& bytes)
{
    std::string out;
    appendBase64(out, bytes);
    return out;
}

std::string sha256Hex(const std::string& bytes)
{
    unsigned char d[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size(), d);
    return hexLower(std::string_view(reinterpret_cast<const char*>(d), sizeof d));
}

// The name of the bundle's part `i` (000, 001, ...): its ConfigMap's and file's.
std::string chunkName(std::size_t i)
{
    char name[24];
    std::snprintf(name, sizeof name, "%03zu", i);
    return name;
}

// A list of strings as a YAML block sequence, one item a line at `indent`.
std::string seq(const std::vector<std::string>& items, const std::string& indent)
{
    std::string out;
    for (const std::string& i : items)
        out += indent + "- " + q(i) + "\n";
    return out;
}

struct Names
{
    std::string run, agents, service, job; // `run` is also the label stampede.io/run
    explicit Names(const std::string& n) : run(n), agents(n + "-agent"), service(n + "-agents"), job(n + "-run") {}
};

std::string kustomizationBase()
{
    return "# What every run of this folder shares: the agents' headless Service, the\n"
           "# NetworkPolicies and the disruption budget. The run's own is ../overlay.\n"
           "apiVersion: kustomize.config.k8s.io/v1beta1\n"
           "kind: Kustomization\n"
           "resources:\n"
           "  - service.yaml\n"
           "  - networkpolicy.yaml\n"
           "  - disruptionbudget.yaml\n";
}

std::string service(const Names& n)
{
    return "# The agents' stable names (" + n.agents + "-0." + n.service +
           ", ...): the controller finds them through it (dns:).\n"
           "apiVersion: v1\n"
           "kind: Service\n"
           "metadata:\n"
           "  name: " +
           q(n.service) +
           "\n"
           "  labels:\n"
           "    app.kubernetes.io/name: stampede-agent\n"
           "spec:\n"
           "  clusterIP: None\n"
           "  publishNotReadyAddresses: false\n"
           "  selector:\n"
           "    app.kubernetes.io/name: stampede-agent\n"
           "    stampede.io/run: " +
           q(n.run) +
           "\n"
           "  ports:\n"
           "    - name: control\n"
           "      port: 7070\n"
           "      targetPort: control\n"
           "    - name: metrics\n"
           "      port: 9464\n"
           "      targetPort: metrics\n";
}

std::string networkPolicy(const Names& n, const std::string& metricsFrom)
{
    return "# The agents' control port (7070) answers the run's controller only; their\n"
           "# metrics port (9464) the namespace \"" +
           metricsFrom +
           "\" only (Prometheus).\n"
           "# The controller takes no connection (its control endpoint is on loopback:\n"
           "# kubectl port-forward reaches it).\n"
           "apiVersion: networking.k8s.io/v1\n"
           "kind: NetworkPolicy\n"
           "metadata:\n"
           "  name: " +
           q(n.agents) +
           "\n"
           "spec:\n"
           "  podSelector:\n"
           "    matchLabels:\n"
           "      app.kubernetes.io/name: stampede-agent\n"
           "      stampede.io/run: " +
           q(n.run) +
           "\n"
           "  policyTypes: [\"Ingress\"]\n"
           "  ingress:\n"
           "    - from:\n"
           "        - podSelector:\n"
           "            matchLabels:\n"
           "              app.kubernetes.io/name: stampede-controller\n"
           "              stampede.io/run: " +
           q(n.run) +
           "\n"
           "      ports:\n"
           "        - protocol: TCP\n"
           "          port: 7070\n"
           "    - from:\n"
           "        - namespaceSelector:\n"
           "            matchLabels:\n"
           "              kubernetes.io/metadata.name: " +
           q(metricsFrom) +
           "\n"
           "      ports:\n"
           "        - protocol: TCP\n"
           "          port: 9464\n"
           "---\n"
           "apiVersion: networking.k8s.io/v1\n"
           "kind: NetworkPolicy\n"
           "metadata:\n"
           "  name: " +
           q(n.job) +
           "\n"
           "spec:\n"
           "  podSelector:\n"
           "    matchLabels:\n"
           "      app.kubernetes.io/name: stampede-controller\n"
           "      stampede.io/run: " +
           q(n.run) +
           "\n"
           "  policyTypes: [\"Ingress\"]\n"
           "  ingress: []\n";
}

std::string disruptionBudget(const Names& n)
{
    return "# A voluntary disruption (a node drained) takes at most one agent at a time.\n"
           "apiVersion: policy/v1\n"
           "kind: PodDisruptionBudget\n"
           "metadata:\n"
           "  name: " +
           q(n.agents) +
           "\n"
           "spec:\n"
           "  maxUnavailable: 1\n"
           "  selector:\n"
           "    matchLabels:\n"
           "      app.kubernetes.io/name: stampede-agent\n"
           "      stampede.io/run: " +
           q(n.run) + "\n";
}

std::string securityContext(const std::string& indent)
{
    return indent + "securityContext:\n" + indent + "  readOnlyRootFilesystem: true\n" + indent +
           "  allowPrivilegeEscalation: false\n" + indent + "  runAsNonRoot: true\n" + indent + "  runAsUser: 10001\n" +
           indent + "  runAsGroup: 10001\n" + indent + "  capabilities:\n" + indent + "    drop: [\"ALL\"]\n";
}

std::string resources(const std::string& cpu, const std::string& memory, const std::string& indent)
{
    return indent + "resources:\n" + indent + "  requests:\n" + indent + "    cpu: " + q(cpu) + "\n" + indent +
           "    memory: " + q(memory) + "\n" + indent + "  limits:\n" + indent + "    cpu: " + q(cpu) + "\n" + indent +
           "    memory: " + q(memory) + "\n";
}

std::string agents(const K8sOptions& o, const Names& n, const std::string& image)
{
    std::vector<std::string> args = {"agent",
                                     "--listen",
                                     "0.0.0.0:7070",
                                     "--token-file",
                                     "/etc/stampede/token/token",
                                     "--tls-cert",
                                     "/etc/stampede/tls/tls.crt",
                                     "--tls-key",
                                     "/etc/stampede/tls/tls.key",
                                     "--metrics",
                                     "0.0.0.0:9464"};
    for (const auto& [k, v] : o.labels) {
        args.push_back("--label");
        args.push_back(k + "=" + v);
    }
    return "# " + std::to_string(o.agents) +
           " agents, each with its own stable name behind the headless Service;\n"
           "# started all at once (Parallel), one per node where the cluster can.\n"
           "apiVersion: apps/v1\n"
           "kind: StatefulSet\n"
           "metadata:\n"
           "  name: " +
           q(n.agents) +
           "\n"
           "  labels:\n"
           "    app.kubernetes.io/name: stampede-agent\n"
           "spec:\n"
           "  serviceName: " +
           q(n.service) +
           "\n"
           "  replicas: " +
           std::to_string(o.agents) +
           "\n"
           "  podManagementPolicy: Parallel\n"
           "  selector:\n"
           "    matchLabels:\n"
           "      app.kubernetes.io/name: stampede-agent\n"
           "      stampede.io/run: " +
           q(n.run) +
           "\n"
           "  template:\n"
           "    metadata:\n"
           "      labels:\n"
           "        app.kubernetes.io/name: stampede-agent\n"
           "        stampede.io/run: " +
           q(n.run) +
           "\n"
           "      annotations:\n"
           "        prometheus.io/scrape: \"true\"\n"
           "        prometheus.io/port: \"9464\"\n"
           "    spec:\n"
           "      automountServiceAccountToken: false\n"
           "      terminationGracePeriodSeconds: 10\n"
           "      affinity:\n"
           "        podAntiAffinity: # two agents on one node share its CPU\n"
           "          preferredDuringSchedulingIgnoredDuringExecution:\n"
           "            - weight: 100\n"
           "              podAffinityTerm:\n"
           "                topologyKey: kubernetes.io/hostname\n"
           "                labelSelector:\n"
           "                  matchLabels:\n"
           "                    app.kubernetes.io/name: stampede-agent\n"
           "                    stampede.io/run: " +
           q(n.run) +
           "\n"
           "      containers:\n"
           "        - name: agent\n"
           "          image: " +
           q(image) +
           "\n"
           "          command: [\"/usr/bin/stampede-cli\"]\n"
           "          args:\n" +
           seq(args, "            ") + securityContext("          ") +
           "          ports:\n"
           "            - name: control\n"
           "              containerPort: 7070\n"
           "            - name: metrics\n"
           "              containerPort: 9464\n" +
           resources(o.agentCpu, o.agentMemory, "          ") +
           "          readinessProbe:\n"
           "            tcpSocket:\n"
           "              port: control\n"
           "            periodSeconds: 5\n"
           "          livenessProbe:\n"
           "            httpGet:\n"
           "              path: /healthz\n"
           "              port: metrics\n"
           "            periodSeconds: 10\n"
           "          volumeMounts:\n"
           "            - name: token\n"
           "              mountPath: /etc/stampede/token\n"
           "              readOnly: true\n"
           "            - name: tls\n"
           "              mountPath: /etc/stampede/tls\n"
           "              readOnly: true\n"
           "      volumes:\n"
           "        - name: token\n"
           "          secret:\n"
           "            secretName: stampede-agent-token\n"
           "        - name: tls\n"
           "          secret:\n"
           "            secretName: stampede-agent-tls\n";
}

// The controller's script: the run, its exit code kept, then a wait for `k8s fetch` (which touches .fetched).
std::string controllerScript(std::uint32_t keepSeconds)
{
    return "/usr/bin/stampede-cli run \"$@\"; code=$?; echo \"$code\" > /reports/exit-code; "
           "echo \"stampede: the run ended (exit $code); its report waits in /reports for k8s fetch, at most " +
           std::to_string(keepSeconds) + " s\"; i=0; while [ ! -e /reports/.fetched ] && [ \"$i\" -lt " +
           std::to_string(keepSeconds) + " ]; do sleep 1; i=$((i+1)); done; exit \"$code\"";
}

std::string controller(const K8sOptions& o, const Names& n, const std::string& image, std::size_t chunks,
                       const std::string& digest)
{
    const std::uint32_t shares = k8sShares(o.agents, o.sharesPerAgent);
    std::vector<std::string> args = {"sh",
                                     "/work/scenario.stbundle",
                                     "--agents",
                                     "dns:" + n.service + "." + o.namespaceName + ".svc:7070",
                                     "--min-agents",
                                     std::to_string(o.agents),
                                     "--shares",
                                     std::to_string(shares),
                                     "--elastic",
                                     "--token-file",
                                     "/etc/stampede/token/token",
                                     "--ca",
                                     "/etc/stampede/ca/ca.crt",
                                     "--agent-tls-name",
                                     n.service,
                                     "--control",
                                     "127.0.0.1:6565",
                                     "--report",
                                     "/reports/run.stampede",
                                     "--summary-json",
                                     "/reports/summary.json"};
    for (const auto& [k, v] : o.labels) {
        args.push_back("--agents-with");
        args.push_back(k + "=" + v);
    }
    args.insert(args.end(), o.runArgs.begin(), o.runArgs.end());
    std::string parts;
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::string name = chunkName(i);
        parts += "              - configMap:\n"
                 "                  name: " +
                 q(n.run + "-bundle-" + name) +
                 "\n"
                 "                  items:\n"
                 "                    - key: part\n"
                 "                      path: part-" +
                 name + "\n";
    }
    return "# The run: its controller runs the bundle against the " + std::to_string(o.agents) +
           " agents (every one awaited,\n"
           "# " +
           std::to_string(shares) + " shares: " + std::to_string(shares / o.agents) +
           (shares % o.agents ? " or more" : "") +
           " each), keeps the report in /reports for `stampede-cli k8s fetch`, and ends;\n"
           "# `k8s apply` makes it the agents' owner, so they go with it (ttlSecondsAfterFinished).\n"
           "# More agents mid-run: kubectl -n " +
           o.namespaceName + " scale statefulset " + n.agents + " --replicas=M (up to " + std::to_string(shares) +
           "):\n"
           "# found again every 10 s (--elastic), each takes shares from those that run the most.\n"
           "apiVersion: batch/v1\n"
           "kind: Job\n"
           "metadata:\n"
           "  name: " +
           q(n.job) +
           "\n"
           "  labels:\n"
           "    app.kubernetes.io/name: stampede-controller\n"
           "spec:\n"
           "  backoffLimit: 0 # a load test is not retried behind your back\n"
           "  ttlSecondsAfterFinished: " +
           std::to_string(o.ttlSeconds) +
           "\n"
           "  template:\n"
           "    metadata:\n"
           "      labels:\n"
           "        app.kubernetes.io/name: stampede-controller\n"
           "        stampede.io/run: " +
           q(n.run) +
           "\n"
           "    spec:\n"
           "      restartPolicy: Never\n"
           "      automountServiceAccountToken: false\n"
           "      securityContext:\n"
           "        fsGroup: 10001\n"
           "      initContainers:\n"
           "        - name: bundle # the ConfigMaps' parts joined, checked against the bundle's SHA-256\n"
           "          image: " +
           q(image) +
           "\n"
           "          command: [\"/bin/sh\", \"-c\"]\n"
           "          args:\n"
           "            - " +
           q("cat /parts/part-* > /work/scenario.stbundle && echo '" + digest +
             "  /work/scenario.stbundle' | sha256sum -c -") +
           "\n" + securityContext("          ") + resources("100m", "64Mi", "          ") +
           "          volumeMounts:\n"
           "            - name: parts\n"
           "              mountPath: /parts\n"
           "              readOnly: true\n"
           "            - name: work\n"
           "              mountPath: /work\n"
           "      containers:\n"
           "        - name: controller\n"
           "          image: " +
           q(image) +
           "\n"
           "          command: [\"/bin/sh\", \"-c\", " +
           q(controllerScript(o.keepSeconds)) +
           "]\n"
           "          args:\n" +
           seq(args, "            ") + securityContext("          ") +
           resources(o.controllerCpu, o.controllerMemory, "          ") +
           "          volumeMounts:\n"
           "            - name: work\n"
           "              mountPath: /work\n"
           "              readOnly: true\n"
           "            - name: token\n"
           "              mountPath: /etc/stampede/token\n"
           "              readOnly: true\n"
           "            - name: ca\n"
           "              mountPath: /etc/stampede/ca\n"
           "              readOnly: true\n"
           "            - name: reports\n"
           "              mountPath: /reports\n"
           "            - name: tmp # the root file system is read-only\n"
           "              mountPath: /tmp\n"
           "      volumes:\n"
           "        - name: parts\n"
           "          projected:\n"
           "            sources:\n" +
           parts +
           "        - name: work\n"
           "          emptyDir: {}\n"
           "        - name: token\n"
           "          secret:\n"
           "            secretName: stampede-agent-token\n"
           "        - name: ca\n"
           "          secret:\n"
           "            secretName: stampede-agent-ca\n"
           "        - name: reports\n"
           "          emptyDir: {}\n"
           "        - name: tmp\n"
           "          emptyDir: {}\n";
}

std::string bundleChunk(const Names& n, std::size_t i, const std::string& part)
{
    const std::string name = chunkName(i);
    return "apiVersion: v1\n"
           "kind: ConfigMap\n"
           "metadata:\n"
           "  name: " +
           q(n.run + "-bundle-" + name) +
           "\n"
           "binaryData:\n"
           "  part: " +
           base64(part) + "\n";
}

std::string overlay(const K8sOptions& o, const Names& n, std::size_t chunks)
{
    std::string out = "# The run " + n.run +
                      ": kubectl apply -k this folder (stampede-cli k8s apply does, and more).\n"
                      "apiVersion: kustomize.config.k8s.io/v1beta1\n"
                      "kind: Kustomization\n"
                      "namespace: " +
                      q(o.namespaceName) +
                      "\n"
                      "labels:\n"
                      "  - pairs:\n"
                      "      stampede.io/run: " +
                      q(n.run) +
                      "\n"
                      "resources:\n";
    if (o.createNamespace)
        out += "  - namespace.yaml\n";
    out += "  - ../base\n  - agents.yaml\n  - controller.yaml\n";
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::string name = chunkName(i);
        out += "  - bundle-" + name + ".yaml\n";
    }
    if (!o.secrets.empty())
        out += "generatorOptions:\n"
               "  disableNameSuffixHash: true # the manifests name them as they are\n"
               "secretGenerator:\n"
               "  - name: stampede-agent-token\n"
               "    files: [\"token=secrets/token\"]\n"
               "  - name: stampede-agent-tls\n"
               "    type: kubernetes.io/tls\n"
               "    files: [\"tls.crt=secrets/agent.crt\", \"tls.key=secrets/agent.key\"]\n"
               "  - name: stampede-agent-ca\n"
               "    files: [\"ca.crt=secrets/ca.crt\"]\n";
    return out;
}

} // namespace

bool isK8sName(const std::string& s, std::size_t max)
{
    if (s.empty() || s.size() > max || s.front() == '-' || s.back() == '-')
        return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-'; });
}

std::uint32_t k8sShares(std::uint32_t agents, std::uint32_t perAgent)
{
    if (agents == 0)
        return 0;
    const std::uint64_t wanted = std::uint64_t(agents) * std::max<std::uint32_t>(perAgent, 1);
    const std::uint32_t most = kMaxShares / agents * agents; // a whole number each, as even as it can be
    return std::uint32_t(std::max<std::uint64_t>(agents, std::min<std::uint64_t>(wanted, most)));
}

bool renderK8s(const K8sOptions& o, const std::string& bundle, std::map<std::string, std::string>& files,
               std::string& error)
{
    if (o.agents == 0 || o.agents > kMaxShares) {
        error = "--agents: from 1 to " + std::to_string(kMaxShares) + " (got " + std::to_string(o.agents) + ")";
        return false;
    }
    if (!isK8sName(o.name, 40)) {
        error = "--name: \"" + o.name + "\" is not a Kubernetes name (lower-case letters, digits and -, at most 40)";
        return false;
    }
    if (!isK8sName(o.namespaceName)) {
        error = "--namespace: \"" + o.namespaceName + "\" is not a Kubernetes namespace name";
        return false;
    }
    if (!isK8sName(o.metricsFrom)) {
        error = "--metrics-from: \"" + o.metricsFrom + "\" is not a Kubernetes namespace name";
        return false;
    }
    for (const char* need : {"ca.crt", "agent.crt", "agent.key", "token"})
        if (!o.secrets.empty() && !o.secrets.count(need)) {
            error = std::string("--secrets: the folder has no ") + need +
                    " (scripts/make-agent-certs.sh NAMESPACE DIR makes the four)";
            return false;
        }
    if (bundle.empty()) {
        error = "the bundle is empty";
        return false;
    }
    const Names n(o.name);
    const std::string image = o.image.empty() ? std::string("stampede-agent:") + STAMPEDE_VERSION : o.image;
    const std::size_t chunks = (bundle.size() + kChunkBytes - 1) / kChunkBytes;
    files.clear();
    files["base/kustomization.yaml"] = kustomizationBase();
    files["base/service.yaml"] = service(n);
    files["base/networkpolicy.yaml"] = networkPolicy(n, o.metricsFrom);
    files["base/disruptionbudget.yaml"] = disruptionBudget(n);
    files["overlay/kustomization.yaml"] = overlay(o, n, chunks);
    if (o.createNamespace)
        files["overlay/namespace.yaml"] =
            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + q(o.namespaceName) + "\n";
    files["overlay/agents.yaml"] = agents(o, n, image);
    files["overlay/controller.yaml"] = controller(o, n, image, chunks, sha256Hex(bundle));
    for (std::size_t i = 0; i < chunks; ++i) {
        const std::string name = chunkName(i);
        files["overlay/bundle-" + name + ".yaml"] = bundleChunk(n, i, bundle.substr(i * kChunkBytes, kChunkBytes));
    }
    for (const auto& [file, bytes] : o.secrets)
        files["overlay/secrets/" + file] = bytes;
    files["run.json"] = "{\"name\": " + q(n.run) + ", \"namespace\": " + q(o.namespaceName) + ", \"job\": " + q(n.job) +
                        ", \"agents\": " + q(n.agents) + ", \"replicas\": " + std::to_string(o.agents) +
                        ", \"shares\": " + std::to_string(k8sShares(o.agents, o.sharesPerAgent)) + "}\n";
    return true;
}

} // namespace stampede::cli
