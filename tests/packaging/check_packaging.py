#!/usr/bin/python3
"""Checks the agent's packaging: the Kubernetes manifests k8s render writes are
valid YAML with the fields a reader expects, the image recipe installs every library stampede-cli
links, the scripts pass shellcheck, and the systemd unit starts the agent with
a token and TLS. Usage: check_packaging.py SOURCE_DIR STAMPEDE_CLI"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

src, cli = sys.argv[1], sys.argv[2]
pkg = os.path.join(src, "packaging")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


# the manifests are what `stampede-cli k8s render` writes (tests/packaging/check_k8s.py checks them at 3, 50
# and 500 agents); here a run of 3, against the image, the scripts and the certificates
render_dir = tempfile.mkdtemp()
with open(os.path.join(render_dir, "s.json"), "w") as f:
    f.write('{"name": "s", "steps": [{"name": "a", "request": {"url": "http://a.test/"}}], '
            '"load": {"open": {"rate": 10}}}')
subprocess.run([cli, "bundle", os.path.join(render_dir, "s.json"), "-o", os.path.join(render_dir, "s.stbundle")],
               check=True, capture_output=True)
subprocess.run([cli, "k8s", "render", os.path.join(render_dir, "s.stbundle"), "--agents", "3", "-o",
                os.path.join(render_dir, "out")], check=True, capture_output=True)
docs, controller_docs = [], []
for part in ("base", "overlay"):
    for name in sorted(os.listdir(os.path.join(render_dir, "out", part))):
        if name.endswith(".yaml") and name != "kustomization.yaml":
            loaded = [d for d in yaml.safe_load_all(open(os.path.join(render_dir, "out", part, name))) if d]
            (controller_docs if name == "controller.yaml" else docs).extend(loaded)
shutil.rmtree(render_dir)
kinds = {d["kind"]: d for d in docs}
check(set(kinds) == {"Service", "StatefulSet", "PodDisruptionBudget", "NetworkPolicy", "ConfigMap"},
      f"manifest kinds: {sorted(kinds)}")
svc, sts = kinds.get("Service", {}), kinds.get("StatefulSet", {})
check(svc.get("spec", {}).get("clusterIP") == "None", "the Service is headless")
check(sts.get("spec", {}).get("serviceName") == svc.get("metadata", {}).get("name"), "StatefulSet.serviceName")
labels = sts.get("spec", {}).get("template", {}).get("metadata", {}).get("labels", {})
check(all(labels.get(k) == v for k, v in svc.get("spec", {}).get("selector", {}).items()), "selector matches pods")
container = sts["spec"]["template"]["spec"]["containers"][0]
check(any(p.get("containerPort") == 7070 for p in container.get("ports", [])), "control port 7070")
secrets = [v.get("secret", {}).get("secretName") for v in sts["spec"]["template"]["spec"]["volumes"]]
check("stampede-agent-token" in secrets, "token from a Secret")

# the controller's Job runs the bundle its init container joined against the agents' Service, with their
# token, their CA and the name their certificate covers
ckinds = {d["kind"]: d for d in controller_docs}
check(set(ckinds) == {"Job"}, f"controller manifest kinds: {sorted(ckinds)}")
job_pod = ckinds.get("Job", {}).get("spec", {}).get("template", {}).get("spec", {})
ctl = (job_pod.get("containers") or [{}])[0]
args = ctl.get("args", [])
arg = lambda flag: args[args.index(flag) + 1] if flag in args and args.index(flag) + 1 < len(args) else None
svc_name = svc.get("metadata", {}).get("name")
check(arg("--agents") == f"dns:{svc_name}.stampede.svc:7070", f"the Job finds the agents by their Service: {arg('--agents')}")
check(arg("--agent-tls-name") == svc_name, "the Job checks the agents' certificate for the Service's name")
check("--elastic" not in args or int(arg("--shares") or 0) > int(arg("--min-agents") or 0),
      "with --elastic, more shares than the agents it starts on (else none is left for a joiner)")
check(ctl.get("image") == container.get("image"), "the controller runs the agents' image")
check(job_pod.get("restartPolicy") == "Never" and ckinds["Job"]["spec"].get("backoffLimit") == 0,
      "a run is not retried behind the user's back")
mounts = {m["name"]: m["mountPath"] for m in ctl.get("volumeMounts", [])}
vols = {v["name"]: v for v in job_pod.get("volumes", [])}
check(len(args) > 1 and args[0] == "sh" and args[1].startswith(mounts.get("work", "?")),
      "the Job runs the bundle its init container joined")
check(vols.get("token", {}).get("secret", {}).get("secretName") == "stampede-agent-token" and
      arg("--token-file", ).startswith(mounts.get("token", "?")), "the agents' token from their Secret")
check(arg("--ca").startswith(mounts.get("ca", "?")), "the agents' CA mounted where --ca reads it")
check((arg("--report") or "").startswith(mounts.get("reports", "?")) and
      (arg("--summary-json") or "").startswith(mounts.get("reports", "?")), "the report and summary in the volume")
check(ctl.get("securityContext", {}).get("readOnlyRootFilesystem") is True and "tmp" in mounts,
      "a read-only root with a writable /tmp")

try:
    from k8smodels import check_documents
    failures.extend(check_documents(docs + controller_docs))
except ImportError:
    failures.append("python3-kubernetes is missing (scripts/install-deps.sh installs it)")

pod = sts["spec"]["template"]["spec"]
pdb = kinds.get("PodDisruptionBudget", {})
check(pdb.get("spec", {}).get("selector", {}).get("matchLabels") == sts["spec"]["selector"]["matchLabels"],
      "the PodDisruptionBudget selects the agents")
anti = pod.get("affinity", {}).get("podAntiAffinity", {}).get("preferredDuringSchedulingIgnoredDuringExecution", [])
check(any(t.get("podAffinityTerm", {}).get("topologyKey") == "kubernetes.io/hostname" and
          t["podAffinityTerm"].get("labelSelector", {}).get("matchLabels") == sts["spec"]["selector"]["matchLabels"]
          for t in anti), "anti-affinity spreads the agents over nodes")
security = container.get("securityContext", {})
check(security.get("runAsNonRoot") is True and isinstance(security.get("runAsUser"), int), "a numeric non-root user")
csec = container.get("securityContext", {})
check(csec.get("readOnlyRootFilesystem") is True and csec.get("allowPrivilegeEscalation") is False,
      "a read-only root file system, no privilege escalation")
check(ctl.get("securityContext", {}).get("runAsUser") == security.get("runAsUser"), "the controller's numeric user")
limits = container.get("resources", {}).get("limits", {})
check("cpu" in limits and "memory" in limits, "CPU and memory limits")

dockerfile = open(os.path.join(pkg, "agent", "Dockerfile")).read()
# the image, the manifest and the ignore file agree: the tag, the user, the ports, the context
tag = re.search(r"docker build .* -t (\S+) \.", dockerfile)
check(tag is not None and tag.group(1) == container.get("image"), f"the tag built is the image pulled ({container.get('image')})")
user = re.search(r"^USER (\d+)(?::(\d+))?$", dockerfile, re.M)
check(user is not None and int(user.group(1)) == security.get("runAsUser"), "the image's numeric USER is runAsUser")
check(f"--uid {security.get('runAsUser')}" in dockerfile, "the image makes that user")
exposed = {int(p) for p in re.findall(r"\b(\d{4,5})\b", (re.search(r"^EXPOSE (.*)$", dockerfile, re.M) or [""])[0])}
check(exposed == {p["containerPort"] for p in container.get("ports", [])}, f"EXPOSE {sorted(exposed)} are the container ports")
copied = re.findall(r"^COPY ([^\n]+) \S+$", dockerfile, re.M)
ignore = open(os.path.join(src, ".dockerignore")).read().split("\n")
check("*" in ignore, ".dockerignore leaves out everything by default")
for line in copied:
    for path in line.split():
        check("!" + path in ignore, f".dockerignore lets {path} into the context")
check(re.search(r"^FROM debian:12", dockerfile, re.M) is not None, "Debian 12 base")
check("install-runtime.sh" in dockerfile, "the image installs the runtime packages")
for flag in ("--token-file", "--tls-cert", "--tls-key"):
    check(flag in dockerfile, f"the image's entrypoint passes {flag}")
unit = open(os.path.join(pkg, "systemd", "stampede-agent.service")).read()
check("ExecStart=/usr/bin/stampede-cli agent" in unit and "--token-file" in unit and "--tls-cert" in unit,
      "the unit starts the agent with a token and TLS")

packages = {l.strip() for l in open(os.path.join(pkg, "agent", "runtime-packages.txt")) if l.strip() and not l.startswith("#")}
out = subprocess.run(["ldd", cli], capture_output=True, text=True).stdout
libs = re.findall(r"=> (/\S+)", out)
candidates = sorted({v for lib in libs for v in (lib, "/usr" + lib, lib.removeprefix("/usr"))})
owners = {}
for line in subprocess.run(["dpkg", "-S"] + candidates, capture_output=True, text=True).stdout.splitlines():
    owner, _, path = line.partition(": ")
    owners[path] = owner.split(":")[0]
for lib in libs:
    owner = owners.get(lib) or owners.get("/usr" + lib) or owners.get(lib.removeprefix("/usr"))
    if owner and owner not in packages and "asan" not in lib and "ubsan" not in lib and "gcc-12" not in owner:
        failures.append(f"{lib} comes from {owner}, which runtime-packages.txt does not list")
check(len(owners) >= 5, f"dpkg knows the libraries stampede-cli links ({len(owners)} found)")

# the certificates script: a CA and an agent certificate that covers the
# Service's names; an agent serving it is reached by a controller that checks
# that name (--agent-tls-name) while dialing an address
with tempfile.TemporaryDirectory() as tmp:
    r = subprocess.run([os.path.join(src, "scripts", "make-agent-certs.sh"), "loadtest", tmp],
                       capture_output=True, text=True)
    check(r.returncode == 0, f"make-agent-certs.sh: {r.stderr}")
    for secret in ("stampede-agent-token", "stampede-agent-tls", "stampede-agent-ca"):
        check(secret in r.stdout, f"the script names the Secret {secret}")
    check(set(secrets) | {"stampede-agent-ca"} >= {"stampede-agent-token", "stampede-agent-tls"} and
          vols.get("ca", {}).get("secret", {}).get("secretName") == "stampede-agent-ca",
          "the manifests mount the Secrets the script makes")
    for name in (svc_name, f"{svc_name}.loadtest.svc", f"{svc_name}.loadtest.svc.cluster.local",
                 f"stampede-agent-0.{svc_name}.loadtest.svc.cluster.local"):
        v = subprocess.run(["openssl", "verify", "-CAfile", f"{tmp}/ca.crt", "-verify_hostname", name,
                            f"{tmp}/agent.crt"], capture_output=True, text=True)
        check(v.returncode == 0, f"the agents' certificate covers {name}: {v.stdout}{v.stderr}")
    bad = subprocess.run([os.path.join(src, "scripts", "make-agent-certs.sh"), "Bad_NS", tmp], capture_output=True)
    check(bad.returncode == 2, "the script refuses a namespace that is no name")
    agent = subprocess.Popen([cli, "agent", "--listen", "127.0.0.1:0", "--token-file", f"{tmp}/token",
                              "--tls-cert", f"{tmp}/agent.crt", "--tls-key", f"{tmp}/agent.key", "--quiet"],
                             stdout=subprocess.PIPE, text=True)
    mock = subprocess.Popen([cli, "mock", "--listen", "127.0.0.1:0"], stdout=subprocess.PIPE, text=True)
    try:
        agent_addr = agent.stdout.readline().split()[-1]
        mock_addr = mock.stdout.readline().split()[-1]
        run = [cli, "run", "--url", f"{mock_addr}/", "--rate", "20", "-d", "1s", "-q", "--agents", agent_addr,
               "--token-file", f"{tmp}/token", "--ca", f"{tmp}/ca.crt"]
        ok = subprocess.run(run + ["--agent-tls-name", svc_name], capture_output=True, text=True, timeout=60)
        check(ok.returncode == 0, f"a controller checking the Service's name reaches the agent: {ok.stderr}")
        by_ip = subprocess.run(run, capture_output=True, text=True, timeout=60)
        check(by_ip.returncode != 0, "without --agent-tls-name the address is checked, and not covered")
    finally:
        agent.terminate()
        mock.terminate()
        agent.wait()
        mock.wait()

if shutil.which("shellcheck"):
    for script in ("packaging/agent/install-runtime.sh", "scripts/make-agent-certs.sh", "scripts/build-agent-image.sh",
                   "packaging/debian/postinst", "packaging/debian/prerm", "packaging/debian/postrm", "scripts/install-deps.sh", "scripts/run-demo.sh",
                   "scripts/run-fuzz.sh", ".ci/run"):
        r = subprocess.run(["shellcheck", os.path.join(src, script)], capture_output=True, text=True)
        check(r.returncode == 0, f"shellcheck {script}:\n{r.stdout}")

for f in failures:
    print("FAIL:", f)
print(f"{8 + len(packages) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
