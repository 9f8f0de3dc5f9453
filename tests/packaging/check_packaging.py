#!/usr/bin/python3
"""Checks the agent's packaging: the Kubernetes manifest is valid YAML with the
fields a reader expects, the image recipe installs every library stampede-cli
links, the scripts pass shellcheck, and the systemd unit starts the agent with
a token and TLS. Usage: check_packaging.py SOURCE_DIR STAMPEDE_CLI"""
import os
import re
import shutil
import subprocess
import sys

import yaml

src, cli = sys.argv[1], sys.argv[2]
pkg = os.path.join(src, "packaging")
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


docs = list(yaml.safe_load_all(open(os.path.join(pkg, "k8s", "agents.yaml"))))
kinds = {d["kind"]: d for d in docs}
check(set(kinds) == {"Service", "StatefulSet"}, f"manifest kinds: {sorted(kinds)}")
svc, sts = kinds.get("Service", {}), kinds.get("StatefulSet", {})
check(svc.get("spec", {}).get("clusterIP") == "None", "the Service is headless")
check(sts.get("spec", {}).get("serviceName") == svc.get("metadata", {}).get("name"), "StatefulSet.serviceName")
labels = sts.get("spec", {}).get("template", {}).get("metadata", {}).get("labels", {})
check(all(labels.get(k) == v for k, v in svc.get("spec", {}).get("selector", {}).items()), "selector matches pods")
container = sts["spec"]["template"]["spec"]["containers"][0]
check(any(p.get("containerPort") == 7070 for p in container.get("ports", [])), "control port 7070")
secrets = [v.get("secret", {}).get("secretName") for v in sts["spec"]["template"]["spec"]["volumes"]]
check("stampede-agent-token" in secrets, "token from a Secret")

dockerfile = open(os.path.join(pkg, "agent", "Dockerfile")).read()
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

if shutil.which("shellcheck"):
    for script in ("packaging/agent/install-runtime.sh", "scripts/install-deps.sh", "scripts/run-demo.sh",
                   "scripts/run-fuzz.sh", ".ci/run"):
        r = subprocess.run(["shellcheck", os.path.join(src, script)], capture_output=True, text=True)
        check(r.returncode == 0, f"shellcheck {script}:\n{r.stdout}")

for f in failures:
    print("FAIL:", f)
print(f"{8 + len(packages) - len(failures)} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
