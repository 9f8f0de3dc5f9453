#!/usr/bin/python3
"""Issue 54: `stampede-cli k8s`. Renders the manifests of runs of 3, 50 and 500
agents from a bundle with a real data set (2.5 MB: four ConfigMaps) and checks
them offline: every document against the Kubernetes API's types
(python3-kubernetes), yamllint, `kubectl kustomize` when kubectl is there, and
the numbers (replicas = agents = --min-agents, every agent gets shares, the
bundle's parts join into its bytes with the digest the init container checks,
each ConfigMap under 1 MiB, the NetworkPolicies select the pods they mean);
bad input refused; and apply --wait, status, logs, fetch and delete drive
kubectl as they say (a kubectl the test writes, which logs what it was asked).
No cluster is used. Usage: check_k8s.py SOURCE_DIR STAMPEDE_CLI"""
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

import yaml

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from k8smodels import check_documents  # noqa: E402

src, cli = sys.argv[1], sys.argv[2]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def docs_of(folder):
    out = []
    for part in ("base", "overlay"):
        for name in sorted(os.listdir(os.path.join(folder, part))):
            if name.endswith(".yaml") and name != "kustomization.yaml":
                with open(os.path.join(folder, part, name)) as f:
                    out += [d for d in yaml.safe_load_all(f) if d]
    return out


def arg(args, flag):
    return args[args.index(flag) + 1] if flag in args and args.index(flag) + 1 < len(args) else None


with tempfile.TemporaryDirectory() as tmp:
    rows = "\n".join(f"user{i},{'p' * 40}{i},{i * 7 % 1000}" for i in range(50000))
    scenario = {"name": "shop", "variables": [{"name": "users", "csv": {"data": "name,password,item\n" + rows}}],
                "steps": [{"name": "home", "request": {"url": "http://shop.test/?u=${users.name}"}}],
                "load": {"open": {"rate": 100}}}
    with open(os.path.join(tmp, "shop.json"), "w") as f:
        json.dump(scenario, f)
    bundle = os.path.join(tmp, "shop.stbundle")
    r = subprocess.run([cli, "bundle", os.path.join(tmp, "shop.json"), "-o", bundle], capture_output=True, text=True)
    check(r.returncode == 0, f"bundle: {r.stderr}")
    data = open(bundle, "rb").read()
    check(len(data) > 2_000_000, f"the bundle is big enough for several ConfigMaps ({len(data)} bytes)")
    certs = os.path.join(tmp, "certs")
    subprocess.run([os.path.join(src, "scripts", "make-agent-certs.sh"), "loadtest", certs], check=True,
                   capture_output=True)

    for agents in (3, 50, 500):
        out = os.path.join(tmp, f"run{agents}")
        cmd = [cli, "k8s", "render", bundle, "--agents", str(agents), "-o", out, "--namespace", "loadtest",
               "--agents-with", "pool=k8s"]
        if agents == 3:
            cmd += ["--create-namespace", "--secrets", certs]
        out_option = ["--out", "prometheus-rw=http://prometheus.monitoring:9090/api/v1/write"]
        cmd += (out_option if agents == 50 else []) + ["--", "-d", "10m"] + (out_option if agents != 50 else [])
        r = subprocess.run(cmd, capture_output=True, text=True)
        check(r.returncode == 0, f"render {agents}: {r.stderr}")
        if r.returncode != 0:
            continue
        docs = docs_of(out)
        for e in check_documents(docs):
            failures.append(f"{agents} agents: {e}")
        by = {}
        for d in docs:
            by.setdefault(d["kind"], []).append(d)
        check(len(by.get("StatefulSet", [])) == 1 and len(by.get("Job", [])) == 1 and len(by.get("Service", [])) == 1,
              f"{agents}: one StatefulSet, Job and Service ({sorted(by)})")
        sts, job, svc = by["StatefulSet"][0], by["Job"][0], by["Service"][0]
        check(sts["spec"]["replicas"] == agents, f"{agents}: replicas {sts['spec']['replicas']}")
        pod = job["spec"]["template"]["spec"]
        ctl = pod["containers"][0]
        args = ctl["args"]
        check(arg(args, "--min-agents") == str(agents), f"{agents}: --min-agents {arg(args, '--min-agents')}")
        shares = int(arg(args, "--shares") or 0)
        check(agents <= shares <= 1024, f"{agents}: {shares} shares: every agent gets one, at most 1024")
        check(shares % agents == 0, f"{agents}: {shares} shares split evenly")
        check(agents > 100 or shares >= 4 * agents, f"{agents}: several shares each ({shares})")
        check(arg(args, "--agents") == f"dns:{svc['metadata']['name']}.loadtest.svc:7070" and
              sts["spec"]["serviceName"] == svc["metadata"]["name"],
              f"{agents}: the Job finds the agents through their Service ({arg(args, '--agents')})")
        check(arg(args, "--agent-tls-name") == svc["metadata"]["name"],
              f"{agents}: the agents' certificate is checked for the Service's name")
        check(arg(args, "--agents-with") == "pool=k8s" and
              arg(sts["spec"]["template"]["spec"]["containers"][0]["args"], "--label") == "pool=k8s",
              f"{agents}: the agents carry the label the run takes")
        check(arg(args, "-d") == "10m" and arg(args, "--out", ).startswith("prometheus-rw="),
              f"{agents}: the run's own options passed on")
        labels = sts["spec"]["template"]["metadata"]["labels"]
        check(all(labels.get(k) == v for k, v in svc["spec"]["selector"].items()), f"{agents}: the Service selects the pods")
        check(sts["spec"]["selector"]["matchLabels"].items() <= labels.items(), f"{agents}: the selector matches")
        # the NetworkPolicies: the agents' control port from the controller's pods only
        policies = {p["metadata"]["name"]: p for p in by.get("NetworkPolicy", [])}
        agent_policy = [p for p in policies.values()
                        if p["spec"]["podSelector"]["matchLabels"].items() <= labels.items()]
        check(len(agent_policy) == 1, f"{agents}: a NetworkPolicy selects the agents")
        if agent_policy:
            rules = agent_policy[0]["spec"]["ingress"]
            control = [r for r in rules if any(p.get("port") == 7070 for p in r.get("ports", []))]
            job_labels = job["spec"]["template"]["metadata"]["labels"]
            check(len(control) == 1 and all(
                f["podSelector"]["matchLabels"].items() <= job_labels.items() for f in control[0]["from"]),
                f"{agents}: port 7070 from the controller's pods only")
            metrics = [r for r in rules if any(p.get("port") == 9464 for p in r.get("ports", []))]
            check(len(metrics) == 1 and "namespaceSelector" in metrics[0]["from"][0],
                  f"{agents}: the metrics port from one namespace")
        # the bundle: its parts, in order, are its bytes; the init container checks its digest
        maps = sorted(by.get("ConfigMap", []), key=lambda m: m["metadata"]["name"])
        joined = b"".join(base64.b64decode(m["binaryData"]["part"]) for m in maps)
        check(joined == data, f"{agents}: the ConfigMaps hold the bundle ({len(maps)} of them)")
        check(len(maps) >= 4, f"{agents}: a 2.5 MB bundle in several ConfigMaps ({len(maps)})")
        for m in maps:
            size = len(yaml.safe_dump(m).encode())
            check(size < 1024 * 1024, f"{agents}: {m['metadata']['name']} is {size} bytes (under 1 MiB)")
        sources = [v for v in pod["volumes"] if v["name"] == "parts"][0]["projected"]["sources"]
        check([s["configMap"]["name"] for s in sources] == [m["metadata"]["name"] for m in maps],
              f"{agents}: the Job mounts every part")
        init = pod["initContainers"][0]["args"][0]
        check(hashlib.sha256(data).hexdigest() in init and "sha256sum -c" in init,
              f"{agents}: the init container checks the bundle's digest")
        for c in pod["containers"] + pod["initContainers"] + sts["spec"]["template"]["spec"]["containers"]:
            sec = c.get("securityContext", {})
            check(sec.get("readOnlyRootFilesystem") is True and sec.get("runAsNonRoot") is True and
                  sec.get("runAsUser") == 10001, f"{agents}: {c['name']} runs as 10001 on a read-only root")
            check("cpu" in c.get("resources", {}).get("limits", {}), f"{agents}: {c['name']} has limits")
        anti = sts["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"]
        check(anti["preferredDuringSchedulingIgnoredDuringExecution"][0]["podAffinityTerm"]["topologyKey"] ==
              "kubernetes.io/hostname", f"{agents}: agents spread over nodes")
        # the kustomization lists what is there
        kust = yaml.safe_load(open(os.path.join(out, "overlay", "kustomization.yaml")))
        for res in kust["resources"]:
            check(os.path.exists(os.path.join(out, "overlay", res)), f"{agents}: the overlay lists {res}, not there")
        check(kust["namespace"] == "loadtest", f"{agents}: the overlay's namespace")
        if agents == 3:
            check(("Namespace" in by) and len(kust.get("secretGenerator", [])) == 3,
                  "3: --create-namespace and --secrets add the Namespace and the three Secrets")
            mode = os.stat(os.path.join(out, "overlay", "secrets", "agent.key")).st_mode & 0o777
            check(mode == 0o600, f"the key copied into the overlay is the user's only ({oct(mode)})")
        if shutil.which("yamllint"):
            y = subprocess.run(["yamllint", "-s", "-d", "{extends: default, rules: {line-length: disable, "
                                "document-start: disable, comments: {min-spaces-from-content: 1}}}", out],
                               capture_output=True, text=True)
            check(y.returncode == 0, f"{agents}: yamllint:\n{y.stdout}")
        else:
            failures.append("yamllint is missing (scripts/install-deps.sh installs it)")
        if shutil.which("kubectl"):
            k = subprocess.run(["kubectl", "kustomize", os.path.join(out, "overlay")], capture_output=True, text=True)
            check(k.returncode == 0, f"{agents}: kubectl kustomize: {k.stderr}")
            built = [d for d in yaml.safe_load_all(k.stdout) if d]
            for e in check_documents(built):
                failures.append(f"{agents} agents, kustomized: {e}")
            for d in built:
                if d["kind"] != "Namespace":
                    check(d["metadata"].get("namespace") == "loadtest", f"{agents}: {d['kind']} in the namespace")
                check(d["metadata"].get("labels", {}).get("stampede.io/run") == "stampede",
                      f"{agents}: {d['kind']} {d['metadata']['name']} carries the run's label")
            kinds = sorted({d["kind"] for d in built})
            check((agents == 3) == ("Secret" in kinds), f"{agents}: Secrets only with --secrets ({kinds})")

    # bad input: refused, saying why, nothing written
    for bad, said in ((["--agents", "0"], "--agents"), (["--agents", "1025"], "--agents"),
                      (["--agents", "3", "--name", "Bad_Name"], "--name"),
                      (["--agents", "3", "--namespace", "-x"], "--namespace"),
                      (["--agents", "3", "--keep", "forever"], "--keep"),
                      (["--agents", "3", "--secrets", tmp], "--secrets"),
                      (["--agents", "3", "--agents-with", "novalue"], "--agents-with"),
                      ([], "--agents N is needed")):
        r = subprocess.run([cli, "k8s", "render", bundle, "-o", os.path.join(tmp, "bad")] + bad, capture_output=True,
                           text=True)
        check(r.returncode == 2 and said in r.stderr, f"render {bad}: exit {r.returncode}: {r.stderr}")
    r = subprocess.run([cli, "k8s", "render", os.path.join(tmp, "shop.json"), "--agents", "3", "-o",
                        os.path.join(tmp, "bad")], capture_output=True, text=True)
    check(r.returncode == 2 and "is not a bundle" in r.stderr, f"render of a scenario file: {r.stderr}")
    check(not os.path.exists(os.path.join(tmp, "bad")), "a refused render writes nothing")

    # the subcommands drive kubectl as they say: a kubectl that logs its arguments and plays a cluster
    log = os.path.join(tmp, "kubectl.log")
    fake = os.path.join(tmp, "kubectl")
    with open(fake, "w") as f:
        f.write(f"""#!/bin/sh
echo "$*" >> {log}
case "$*" in
  "get job stampede-run -n loadtest -o jsonpath={{.metadata.uid}}") printf 'uid-42' ;;
  "get pods -n loadtest -l job-name=stampede-run -o jsonpath={{.items[0].metadata.name}}") printf 'stampede-run-x7k2p' ;;
  *"cat /reports/exit-code"*) echo 1 ;;
  cp*) mkdir -p "$5" && echo report > "$5/run.stampede" ;;
esac
exit 0
""")
    os.chmod(fake, 0o755)
    env = dict(os.environ, KUBECTL=fake)
    run3 = os.path.join(tmp, "run3")
    r = subprocess.run([cli, "k8s", "apply", run3, "--wait"], capture_output=True, text=True, env=env, timeout=60)
    check(r.returncode == 1, f"apply --wait ends with the run's exit code (1): {r.returncode} {r.stderr}")
    calls = open(log).read().splitlines()
    expect = [f"apply -k {run3}/overlay",
              "patch statefulset stampede-agent -n loadtest --type merge -p "
              '{"metadata":{"ownerReferences":[{"apiVersion":"batch/v1","kind":"Job","name":"stampede-run",'
              '"uid":"uid-42"}]}}',
              "exec -n loadtest stampede-run-x7k2p -c controller -- cat /reports/exit-code",
              f"cp -c controller loadtest/stampede-run-x7k2p:/reports {run3}/reports",
              "exec -n loadtest stampede-run-x7k2p -c controller -- touch /reports/.fetched",
              f"delete -k {run3}/overlay --ignore-not-found --wait=false"]
    for e in expect:
        check(e in calls, f"apply --wait did not run kubectl {e}\n(ran: {calls})")
    check(calls.index(expect[0]) < calls.index(expect[1]) < calls.index(expect[3]) < calls.index(expect[5]),
          "apply, adopt, fetch, delete in that order")
    check(os.path.exists(os.path.join(run3, "reports", "run.stampede")), "the report fetched into the folder")
    open(log, "w").close()
    for sub, want in ((["status"], "get job,statefulset,pods -n loadtest -l stampede.io/run=stampede -o wide"),
                      (["logs", "-f"], "logs -n loadtest job/stampede-run -c controller -f"),
                      (["delete"], f"delete -k {run3}/overlay --ignore-not-found")):
        r = subprocess.run([cli, "k8s", sub[0], run3] + sub[1:], capture_output=True, text=True, env=env, timeout=60)
        check(r.returncode == 0 and want in open(log).read(), f"k8s {sub[0]}: {r.stderr}")
    # a pod that cannot start (its image not pulled): apply --wait says so, and does not wait for ever
    stuck = os.path.join(tmp, "kubectl-stuck")
    with open(stuck, "w") as f:
        f.write("""#!/bin/sh
case "$*" in
  "get pods -n loadtest -l job-name=stampede-run -o jsonpath={.items[0].metadata.name}") printf 'stampede-run-x7k2p' ;;
  *"cat /reports/exit-code"*) exit 1 ;;
  "get pod stampede-run-x7k2p -n loadtest"*) printf 'Pending ErrImagePull ' ;;
esac
exit 0
""")
    os.chmod(stuck, 0o755)
    r = subprocess.run([cli, "k8s", "apply", run3, "--wait"], capture_output=True, text=True,
                       env=dict(os.environ, KUBECTL=stuck), timeout=60)
    check(r.returncode == 3 and "cannot start (ErrImagePull)" in r.stderr,
          f"a pod whose image is not pulled: {r.returncode} {r.stderr}")
    r = subprocess.run([cli, "k8s", "status", tmp], capture_output=True, text=True, env=env)
    check(r.returncode == 2 and "is not a folder" in r.stderr, f"a folder render did not write: {r.stderr}")
    r = subprocess.run([cli, "k8s", "apply", run3], capture_output=True, text=True,
                       env=dict(os.environ, KUBECTL=os.path.join(tmp, "no-kubectl")))
    check(r.returncode == 3 and "cannot run" in r.stderr, f"no kubectl: said ({r.returncode}) {r.stderr}")

for f in failures:
    print("FAIL:", f)
print(f"k8s: {len(failures)} failed")
sys.exit(1 if failures else 0)
