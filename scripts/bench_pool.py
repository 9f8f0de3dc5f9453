#!/usr/bin/python3
"""Engine pool benchmark: the rate that 1 and 2 local agents (each pinned to its
own core) sustain against nginx, closed model at 50 connections, and the
controller's CPU cost per agent-second. nginx runs one worker on CPU 1 as in
bench_http1.py; agent i is pinned to CPU i, so on a 2-core machine the second
agent shares its core with nginx: the figure shows what this machine allows,
and the controller's cost per agent-second is the number to compare.

Then the controller at scale: 1, 4 and 16 running agents (stampede-cli agent
on 127.0.0.2, .3, ..., one port), each carrying 100 requests a second (open
model) against the same nginx; the controller's own CPU per agent-second. It
must grow no faster than linearly with the agents: the last column, the cost
per agent-second relative to one agent's, stays near or under 1. Last, the
controller's own cost per second at 16 agents in steady state (30 s runs less
10 s runs): under 1 % of a core."""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(__file__))
import bench_http1 as b  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cli", default="build/release/app/cli/stampede-cli")
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--repeats", type=int, default=3)
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="stampede-pool-")
    conf_nginx, port, _ = b.start_nginx(tmp)
    url = f"http://127.0.0.1:{port}/"
    summary = os.path.join(tmp, "s.json")
    try:
        print(f"{'engines':>7} {'req/s':>10} {'controller CPU-s':>17} {'controller CPU per agent-second':>32}")
        for engines in (1, 2):
            rates, costs = [], []
            for _ in range(a.repeats):
                subprocess.run([a.cli, "run", "--url", url, "-c", "50", "-d", f"{a.duration}s", "--engines",
                                str(engines), "--pin-engines", "-t", "1", "-q", "--summary-json", summary],
                               check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                s = json.load(open(summary))
                rates.append(s["total"]["rate"])
                costs.append(s["controller_cpu_s"])
            cpu = statistics.median(costs)
            print(f"{engines:>7} {statistics.median(rates):>10.0f} {cpu:>17.3f} "
                  f"{cpu / (engines * a.duration) * 1000:>29.2f} ms")
        print()
        scale(a, url, summary, tmp)
    finally:
        conf_nginx.terminate()
        conf_nginx.wait()
    return 0


def scale(a, url, summary, tmp):
    token = os.path.join(tmp, "token")
    with open(token, "w") as f:
        f.write("bench-token-for-the-pool\n")
    port = b.free_port()
    agents = []
    try:
        for i in range(16):
            agents.append(subprocess.Popen([a.cli, "agent", "--listen", f"127.0.0.{2 + i}:{port}", "--token-file",
                                            token, "--quiet"], stdout=subprocess.PIPE, text=True))
        for p in agents:
            p.stdout.readline()  # "listening on ..."
        print(f"{'agents':>7} {'req/s':>10} {'controller CPU-s':>17} {'per agent-second':>17} {'vs 1 agent':>11}")
        base = None
        for n in (1, 4, 16):
            costs, rates = [], []
            for _ in range(a.repeats):
                addresses = ",".join(f"127.0.0.{2 + i}:{port}" for i in range(n))
                subprocess.run([a.cli, "run", "--url", url, "--rate", str(100 * n), "-c", str(4 * n), "-d",
                                f"{a.duration * 2}s", "--agents", addresses, "--token-file", token, "-q",
                                "--summary-json", summary], check=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
                s = json.load(open(summary))
                costs.append(s["controller_cpu_s"])
                rates.append(s["total"]["rate"])
            per = statistics.median(costs) / (n * a.duration * 2)
            base = base or per
            print(f"{n:>7} {statistics.median(rates):>10.0f} {statistics.median(costs):>17.3f} "
                  f"{per * 1000:>14.2f} ms {per / base:>10.2f}x")
        steady(a, url, summary, token, port)
    finally:
        for p in agents:
            p.terminate()
            p.wait()


def steady(a, url, summary, token, port):
    """The controller's own cost per second at 16 agents in steady state: runs of 10 s and 30 s
    alternate, and the difference in CPU over the 20 s between them leaves out the start and end
    (the issue's bar: under 1 % of a core)."""
    addresses = ",".join(f"127.0.0.{2 + i}:{port}" for i in range(16))
    per_second = []
    for _ in range(a.repeats):
        cpu = {}
        for seconds in (10, 30):
            subprocess.run([a.cli, "run", "--url", url, "--rate", "1600", "-c", "64", "-d", f"{seconds}s",
                            "--agents", addresses, "--token-file", token, "-q", "--summary-json", summary],
                           check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cpu[seconds] = json.load(open(summary))["controller_cpu_s"]
        per_second.append((cpu[30] - cpu[10]) / 20)
    ms = statistics.median(per_second) * 1000
    print(f"\ncontroller at 16 agents, steady state: {ms:.1f} ms of CPU a second ({ms / 10:.2f} % of a core; "
          f"runs: {', '.join(f'{x * 1000:.1f}' for x in per_second)} ms)")


if __name__ == "__main__":
    sys.exit(main())
