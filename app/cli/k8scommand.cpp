// `stampede-cli k8s`: one run on Kubernetes with one command and one number.
// render writes the manifests (k8srender.h); apply, status, logs, fetch and
// delete drive kubectl (its path from $KUBECTL, else `kubectl` on PATH) with
// the names render wrote in the folder's run.json.
#include "cli.h"
#include "k8srender.h"

#include "bundle/bundlefile.h"
#include "core/durationtext.h"
#include "core/number.h"
#include "core/textfile.h"
#include "stampede/v1/bundle.pb.h"

#include <simdjson.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace stampede::cli {

namespace {

const char* const kK8sUsage =
    "Usage: stampede-cli k8s render BUNDLE --agents N [-o DIR] [--name NAME] [--namespace NS]\n"
    "                               [--create-namespace] [--image IMG] [--agents-with K=V]...\n"
    "                               [--agent-cpu C] [--agent-memory M] [--shares-per-agent S]\n"
    "                               [--metrics-from NS] [--keep D] [--ttl D] [--secrets DIR] [--out K=T]...\n"
    "                               [-- RUN OPTIONS]\n"
    "       stampede-cli k8s apply DIR [--wait]\n"
    "       stampede-cli k8s status DIR\n"
    "       stampede-cli k8s logs DIR [-f]\n"
    "       stampede-cli k8s fetch DIR [-o OUT]\n"
    "       stampede-cli k8s delete DIR\n"
    "\n"
    "render writes one run's manifests into DIR (default ./stampede-k8s): DIR/base (the agents' headless\n"
    "Service, NetworkPolicies, a disruption budget) and DIR/overlay (N agents as a StatefulSet, the\n"
    "controller as a Job with --min-agents N and several shares per agent, the bundle in ConfigMaps of\n"
    "700 KB each, joined and checked by its SHA-256): `kubectl apply -k DIR/overlay` or k8s apply.\n"
    "  --agents N            agents (1 to 1024); the run waits for all of them\n"
    "  --name NAME           the run's name: a label on everything, NAME-agent, NAME-run (default stampede)\n"
    "  --namespace NS        where it runs (default stampede); --create-namespace makes it too\n"
    "  --image IMG           the agent image (default stampede-agent:" STAMPEDE_VERSION
    "; scripts/build-agent-image.sh)\n"
    "  --agents-with K=V     the agents carry the label (agent --label) and the run takes only them\n"
    "  --agent-cpu C         each agent's CPU, requested and its limit (default 2); --agent-memory (1Gi)\n"
    "  --shares-per-agent S  the run's shares per agent (default 4; at most 1024 in all, one each at least)\n"
    "  --metrics-from NS     the namespace allowed to scrape the agents' metrics port (default monitoring)\n"
    "  --keep D              the controller keeps the report for k8s fetch so long after the run (30m)\n"
    "  --ttl D               then the Job, and the agents it owns, go so long after it ended (10m)\n"
    "  --secrets DIR         what scripts/make-agent-certs.sh made: the token, CA and TLS Secrets too\n"
    "  --out KIND=TARGET     the run's live output, as run --out (prometheus-rw=URL, jsonl=FILE; repeatable)\n"
    "  -- RUN OPTIONS        more options of `stampede-cli run` (-d 10m, --out prometheus-rw=URL, ...)\n"
    "apply runs kubectl apply -k DIR/overlay and makes the Job the owner of the agents (they go with it);\n"
    "with --wait it follows the run, fetches its report and deletes the run: the run's exit code.\n"
    "status, logs: the run's pods and the controller's output. fetch copies /reports (run.stampede,\n"
    "summary.json, exit-code) into OUT (default DIR/reports) and lets the controller end.\n"
    "delete removes everything the overlay made. kubectl is $KUBECTL, else kubectl on PATH.\n";

int refuse(const std::string& error, int code = BadInput)
{
    std::fprintf(stderr, "stampede-cli k8s: %s\n", error.c_str());
    return code;
}

// kubectl with `args`: its exit code (127: not found); its output into `out` when given, else the user's.
int kubectl(const std::vector<std::string>& args, std::string* out = nullptr)
{
    const char* env = std::getenv("KUBECTL");
    const std::string program = env && *env ? env : "kubectl";
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(program.c_str()));
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int pipeFd[2] = {-1, -1};
    if (out && pipe(pipeFd) != 0)
        return 127;
    const pid_t pid = fork();
    if (pid < 0)
        return 127;
    if (pid == 0) {
        if (out) {
            dup2(pipeFd[1], STDOUT_FILENO);
            close(pipeFd[0]);
            close(pipeFd[1]);
        }
        execvp(program.c_str(), argv.data());
        std::fprintf(stderr, "stampede-cli k8s: cannot run %s: %s\n", program.c_str(), std::strerror(errno));
        _exit(127);
    }
    if (out) {
        close(pipeFd[1]);
        char buf[65536];
        ssize_t n = 0;
        while ((n = read(pipeFd[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
            if (n > 0)
                out->append(buf, std::size_t(n));
        close(pipeFd[0]);
    }
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

struct RunFolder
{
    std::string dir, name, ns, job, agents;
};

bool readRunFolder(const std::string& dir, RunFolder& f, std::string& error)
{
    std::string text;
    if (!readWholeFile(dir + "/run.json", text, error)) {
        error = dir + " is not a folder `stampede-cli k8s render` wrote (" + error + ")";
        return false;
    }
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(text).get(doc)) {
        error = dir + "/run.json is not JSON";
        return false;
    }
    std::string_view v;
    const auto take = [&](const char* key, std::string& into) {
        if (doc[key].get(v))
            return false;
        into = std::string(v);
        return isK8sName(into);
    };
    if (!take("name", f.name) || !take("namespace", f.ns) || !take("job", f.job) || !take("agents", f.agents)) {
        error = dir + "/run.json lacks its names: render the folder again";
        return false;
    }
    f.dir = dir;
    return true;
}

// The controller's pod (the Job's), "" when there is none (yet, or any more).
std::string controllerPod(const RunFolder& f)
{
    std::string out;
    if (kubectl({"get", "pods", "-n", f.ns, "-l", "job-name=" + f.job, "-o", "jsonpath={.items[0].metadata.name}"},
                &out) != 0)
        return {};
    while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' '))
        out.pop_back();
    // a pod's name is a DNS subdomain: what else kubectl printed is no pod, and is not passed on as one
    const bool name = !out.empty() && out.size() <= 253 && std::all_of(out.begin(), out.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    });
    return name ? out : std::string();
}

bool duration(const std::string& flag, const std::string& text, std::uint32_t& seconds, std::string& error)
{
    const std::optional<Nanos> d = parseDuration(text);
    if (!d || *d < kNanosPerSecond || *d > 7 * 24 * 3600 * kNanosPerSecond) {
        error = flag + ": \"" + text + "\" is not a duration from 1s to 7 days (30m, 1h)";
        return false;
    }
    seconds = std::uint32_t(*d / kNanosPerSecond);
    return true;
}

int render(const std::vector<std::string>& args)
{
    K8sOptions o;
    std::string bundlePath, outDir = "stampede-k8s", secretsDir, value, error;
    ArgReader r{args};
    for (; !r.done() && error.empty(); ++r.pos) {
        const std::string& a = args[r.pos];
        auto is = [&](const char* f) { return a == f || a.rfind(std::string(f) + "=", 0) == 0; };
        if (a == "--") {
            o.runArgs.insert(o.runArgs.end(), args.begin() + std::ptrdiff_t(r.pos) + 1, args.end());
            break;
        } else if (is("--agents")) {
            std::uint64_t n = 0;
            if (r.value("--agents", value, error))
                parseWhole(value, "--agents", 1, 1024, n, error);
            o.agents = std::uint32_t(n);
        } else if (is("--shares-per-agent")) {
            std::uint64_t n = 0;
            if (r.value("--shares-per-agent", value, error))
                parseWhole(value, "--shares-per-agent", 1, 1024, n, error);
            o.sharesPerAgent = std::uint32_t(n);
        } else if (a == "-o" || is("--out-dir")) {
            r.value(a == "-o" ? "-o" : "--out-dir", outDir, error);
        } else if (is("--name")) {
            r.value("--name", o.name, error);
        } else if (is("--namespace")) {
            r.value("--namespace", o.namespaceName, error);
        } else if (a == "--create-namespace") {
            o.createNamespace = true;
        } else if (is("--image")) {
            r.value("--image", o.image, error);
        } else if (is("--agent-cpu")) {
            r.value("--agent-cpu", o.agentCpu, error);
        } else if (is("--agent-memory")) {
            r.value("--agent-memory", o.agentMemory, error);
        } else if (is("--metrics-from")) {
            r.value("--metrics-from", o.metricsFrom, error);
        } else if (is("--secrets")) {
            r.value("--secrets", secretsDir, error);
        } else if (is("--keep")) {
            if (r.value("--keep", value, error))
                duration("--keep", value, o.keepSeconds, error);
        } else if (is("--ttl")) {
            if (r.value("--ttl", value, error))
                duration("--ttl", value, o.ttlSeconds, error);
        } else if (is("--out")) { // the run's live outputs (prometheus-rw=URL, ...), as `run --out`
            if (r.value("--out", value, error)) {
                o.runArgs.push_back("--out");
                o.runArgs.push_back(value);
            }
        } else if (is("--agents-with")) {
            if (r.value("--agents-with", value, error)) {
                const std::size_t eq = value.find('=');
                if (eq == 0 || eq == std::string::npos)
                    error = "--agents-with: K=V (got \"" + value + "\")";
                else
                    o.labels.emplace_back(value.substr(0, eq), value.substr(eq + 1));
            }
        } else if (!a.empty() && a[0] == '-') {
            error = "unknown option " + a;
        } else if (bundlePath.empty()) {
            bundlePath = a;
        } else {
            error = "one bundle only (got \"" + bundlePath + "\" and \"" + a + "\")";
        }
    }
    if (error.empty() && bundlePath.empty())
        error = "which bundle? (stampede-cli bundle scenario.json -o scenario.stbundle makes one)";
    if (error.empty() && o.agents == 0)
        error = "--agents N is needed: how many agents the run has";
    if (!error.empty())
        return refuse(error);
    std::string bundle;
    if (!readWholeFile(bundlePath, bundle, error))
        return refuse(bundlePath + ": " + error);
    v1::Bundle decoded;
    if (!decodeBundle(bundle, decoded, error))
        return refuse(bundlePath + " is not a bundle: " + error);
    if (!secretsDir.empty())
        for (const char* f : {"ca.crt", "agent.crt", "agent.key", "token"}) {
            std::string bytes;
            if (!readWholeFile(secretsDir + "/" + f, bytes, error))
                return refuse("--secrets: " + secretsDir + " has no readable " + f + " (" + error +
                              "): scripts/make-agent-certs.sh NAMESPACE DIR makes the four");
            o.secrets[f] = std::move(bytes);
        }
    std::map<std::string, std::string> files;
    if (!renderK8s(o, bundle, files, error))
        return refuse(error);
    std::error_code ec;
    for (const auto& [path, bytes] : files) {
        const std::filesystem::path p = std::filesystem::path(outDir) / path;
        std::filesystem::create_directories(p.parent_path(), ec);
        std::ofstream f(p, std::ios::binary | std::ios::trunc);
        if (!(f << bytes) || !f.flush())
            return refuse("cannot write " + p.string(), RunFailed);
        if (path.rfind("overlay/secrets/", 0) == 0)
            std::filesystem::permissions(p, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write,
                                         ec);
    }
    const std::uint32_t shares = k8sShares(o.agents, o.sharesPerAgent);
    std::printf("wrote %s: %u agents, %u shares (%u%s each), the bundle in %zu ConfigMap%s\n", outDir.c_str(), o.agents,
                shares, shares / o.agents, shares % o.agents ? " or more" : "",
                (bundle.size() + kChunkBytes - 1) / kChunkBytes, bundle.size() > kChunkBytes ? "s" : "");
    if (o.secrets.empty())
        std::printf("the Secrets stampede-agent-token, -tls and -ca must exist in namespace %s "
                    "(scripts/make-agent-certs.sh %s DIR prints how; or render with --secrets DIR)\n",
                    o.namespaceName.c_str(), o.namespaceName.c_str());
    std::printf("next: stampede-cli k8s apply %s --wait\n", outDir.c_str());
    return Passed;
}

// The Job owns the agents (and their Service): when it goes (its TTL, or k8s delete), so do they.
bool adopt(const RunFolder& f)
{
    std::string uid;
    if (kubectl({"get", "job", f.job, "-n", f.ns, "-o", "jsonpath={.metadata.uid}"}, &uid) != 0 || uid.empty())
        return false;
    const std::string patch = "{\"metadata\":{\"ownerReferences\":[{\"apiVersion\":\"batch/v1\",\"kind\":\"Job\","
                              "\"name\":\"" +
                              f.job + "\",\"uid\":\"" + uid + "\"}]}}";
    return kubectl({"patch", "statefulset", f.agents, "-n", f.ns, "--type", "merge", "-p", patch}) == 0;
}

int fetch(const RunFolder& f, const std::string& out)
{
    const std::string pod = controllerPod(f);
    if (pod.empty())
        return refuse("the run's controller pod is gone (or not yet there): its report went with it", RunFailed);
    std::error_code ec;
    std::filesystem::create_directories(out, ec);
    if (kubectl({"cp", "-c", "controller", f.ns + "/" + pod + ":/reports", out}) != 0)
        return refuse("kubectl cp of " + pod + ":/reports failed", RunFailed);
    kubectl({"exec", "-n", f.ns, pod, "-c", "controller", "--", "touch", "/reports/.fetched"});
    std::printf("fetched %s:/reports into %s\n", pod.c_str(), out.c_str());
    return Passed;
}

// Waits for the run's end (its exit code in /reports), polling every 5 s; gives up, saying why, on a pod that
// cannot start (an image not pulled, a Secret missing) or that does not appear in 10 minutes.
int waitForRun(const RunFolder& f)
{
    int withoutPod = 0;
    for (;;) {
        std::this_thread::sleep_for(std::chrono::seconds(5));
        const std::string pod = controllerPod(f);
        if (pod.empty()) {
            if (++withoutPod >= 120)
                return refuse("the run's controller pod did not appear in 10 minutes: kubectl -n " + f.ns +
                                  " describe job " + f.job + " says why",
                              RunFailed);
            continue;
        }
        withoutPod = 0;
        std::string code;
        if (kubectl({"exec", "-n", f.ns, pod, "-c", "controller", "--", "cat", "/reports/exit-code"}, &code) == 0 &&
            !code.empty())
            return std::atoi(code.c_str());
        std::string state;
        kubectl({"get", "pod", pod, "-n", f.ns, "-o",
                 "jsonpath={.status.phase} {.status.initContainerStatuses[*].state.waiting.reason} "
                 "{.status.containerStatuses[*].state.waiting.reason}"},
                &state);
        if (state.rfind("Failed", 0) == 0)
            return refuse("the run's controller pod failed: stampede-cli k8s logs " + f.dir, RunFailed);
        for (const char* stuck : {"ErrImagePull", "ImagePullBackOff", "CreateContainerConfigError", "InvalidImageName"})
            if (state.find(stuck) != std::string::npos)
                return refuse("the run's controller pod cannot start (" + std::string(stuck) + "): kubectl -n " + f.ns +
                                  " describe pod " + pod + " says why",
                              RunFailed);
    }
}

} // namespace

int k8sCommand(const std::vector<std::string>& args)
{
    if (args.empty() || args[0] == "-h" || args[0] == "--help") {
        std::fputs(kK8sUsage, args.empty() ? stderr : stdout);
        return args.empty() ? BadInput : Passed;
    }
    const std::string& sub = args[0];
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (sub == "render")
        return render(rest);
    if (sub != "apply" && sub != "status" && sub != "logs" && sub != "fetch" && sub != "delete")
        return refuse("unknown subcommand \"" + sub + "\" (render, apply, status, logs, fetch, delete)");
    if (rest.empty())
        return refuse(sub + ": which folder? (the one k8s render wrote)");
    RunFolder f;
    std::string error;
    if (!readRunFolder(rest[0], f, error))
        return refuse(error);
    bool wait = false, follow = false;
    std::string out = f.dir + "/reports";
    for (std::size_t i = 1; i < rest.size(); ++i) {
        if (sub == "apply" && rest[i] == "--wait")
            wait = true;
        else if (sub == "logs" && (rest[i] == "-f" || rest[i] == "--follow"))
            follow = true;
        else if (sub == "fetch" && rest[i] == "-o" && i + 1 < rest.size())
            out = rest[++i];
        else
            return refuse(sub + ": unknown option " + rest[i]);
    }
    if (sub == "apply") {
        if (kubectl({"apply", "-k", f.dir + "/overlay"}) != 0)
            return refuse("kubectl apply failed (above)", RunFailed);
        if (!adopt(f))
            std::fprintf(stderr,
                         "stampede-cli k8s: the agents could not be given to the Job: remove them with "
                         "`stampede-cli k8s delete %s` when the run is over\n",
                         f.dir.c_str());
        if (!wait) {
            std::printf("applied: follow with `stampede-cli k8s logs %s -f`, then `k8s fetch %s`\n", f.dir.c_str(),
                        f.dir.c_str());
            return Passed;
        }
        const int code = waitForRun(f);
        const int fetched = fetch(f, out);
        kubectl({"delete", "-k", f.dir + "/overlay", "--ignore-not-found", "--wait=false"});
        std::printf("the run ended: exit %d%s\n", code, fetched == Passed ? "" : " (its report was not fetched)");
        return code;
    }
    if (sub == "status")
        return kubectl({"get", "job,statefulset,pods", "-n", f.ns, "-l", "stampede.io/run=" + f.name, "-o", "wide"}) ==
                       0
                   ? Passed
                   : RunFailed;
    if (sub == "logs") {
        std::vector<std::string> a = {"logs", "-n", f.ns, "job/" + f.job, "-c", "controller"};
        if (follow)
            a.push_back("-f");
        return kubectl(a) == 0 ? Passed : RunFailed;
    }
    if (sub == "fetch")
        return fetch(f, out);
    return kubectl({"delete", "-k", f.dir + "/overlay", "--ignore-not-found"}) == 0 ? Passed : RunFailed;
}

} // namespace stampede::cli
