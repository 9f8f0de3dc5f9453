#!/usr/bin/python3
"""Replay timing benchmark: stampede-cli replay of a generated access log at a
steady --rate (default 20,000 requests/s) against Debian's nginx on loopback.

Prints, per run, how far requests went out from their intended times (the
engine's send lag: p50, p99, max), how the per-second counts sent kept to the
log's (the largest deviation over the inner seconds), requests/s and requests
per CPU-second; and beside it wrk on the same nginx, pinned the same way, in
the same invocation (wrk saturates; a paced replay sleeps between requests, so
the ratio of requests per CPU-second is the cost of pacing plus sending). The
issue's bar: send lag p99 < 1 ms at 20,000 requests/s. Medians over --pairs.
"""
import argparse
import json
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_http1 import run_wrk, start_nginx, timed  # noqa: E402


def write_log(path, rate, seconds):
    stamp = time.strftime("%d/%b/%Y:%H:%M", time.gmtime(1764576000))
    with open(path, "w") as f:
        n = 0
        for s in range(seconds):
            line_time = f"[{stamp}:{s:02d} +0000]"
            for _ in range(rate):
                f.write(f'10.{n % 250}.{n % 7}.1 - - {line_time} "GET /?uid={n} HTTP/1.1" 200 2 "-" "bench"\n')
                n += 1


def run_replay(cli, log, url, conns, tmp):
    summary = os.path.join(tmp, "replay.json")
    _, cpu, _ = timed([cli, "replay", log, "--target", url, "--engines", "1", "-t", "1", "--connections", str(conns),
                       "-q", "--summary-json", summary])
    with open(summary) as f:
        s = json.load(f)
    timeline = s["timeline"]
    worst = 0.0
    for t in timeline[1:-1]:
        if t["planned"]:
            worst = max(worst, abs(t["sent"] - t["planned"]) / t["planned"] * 100)
    total = s["total"]
    lag = total["send_lag_ms"]
    return {"rate": total["requests"] / s["duration_s"], "per_cpu": total["requests"] / cpu,
            "errors": total["errors"], "p50": lag["p50"], "p99": lag["p99"], "max": lag["max"],
            "worst_second_pct": worst, "planned": s["replay"]["planned"], "requests": total["requests"]}


def run_open(cli, url, rate, seconds, conns, tmp):
    """The open model at the same rate: the same pacing without a recording."""
    summary = os.path.join(tmp, "open.json")
    _, cpu, _ = timed([cli, "run", "--url", url + "/", "--rate", str(rate), "-c", str(conns), "-d", f"{seconds}s",
                       "--engines", "1", "-t", "1", "-q", "--summary-json", summary])
    with open(summary) as f:
        s = json.load(f)
    return s["total"]["requests"] / cpu, s["total"]["send_lag_ms"]["p99"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True, help="stampede-cli (a release build)")
    ap.add_argument("--rate", type=int, default=20000)
    ap.add_argument("--seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=50)
    ap.add_argument("--pairs", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "access.log")
        write_log(log, a.rate, a.seconds)
        nginx, port, _ = start_nginx(tmp)
        url = f"http://127.0.0.1:{port}"
        try:
            replays, wrks, opens = [], [], []
            for _ in range(a.pairs):
                wrks.append(run_wrk(url + "/", a.connections, a.seconds))
                replays.append(run_replay(a.cli, log, url, a.connections, tmp))
                opens.append(run_open(a.cli, url, a.rate, a.seconds, a.connections, tmp))
        finally:
            nginx.terminate()
            nginx.wait()
    print(f"replay of {a.rate * a.seconds} requests at {a.rate}/s for {a.seconds} s, {a.connections} connections, "
          f"one engine thread pinned to CPU 0, nginx on CPU 1; {a.pairs} runs, medians")
    med = lambda key: statistics.median(r[key] for r in replays)  # noqa: E731
    p99s = ", ".join("%.3f" % r["p99"] for r in replays)
    print(f"  send lag (intended start to send): p50 {med('p50'):.3f} ms, p99 {med('p99'):.3f} ms, "
          f"max {med('max'):.3f} ms   (runs' p99: {p99s})")
    print(f"  per-second sent vs planned, worst inner second: {med('worst_second_pct'):.3f} %; "
          f"completed {int(med('requests'))} of {int(med('planned'))}; errors {int(med('errors'))}")
    print(f"  stampede replay: {med('rate'):.0f} requests/s, {med('per_cpu'):.0f} requests per CPU-second")
    wrk_rate = statistics.median(w[0] for w in wrks)
    wrk_cpu = statistics.median(w[1] for w in wrks)
    print(f"  wrk (saturating, same nginx): {wrk_rate:.0f} requests/s, {wrk_cpu:.0f} requests per CPU-second")
    ratios = [r["per_cpu"] / w[1] for r, w in zip(replays, wrks)]
    print(f"  requests per CPU-second, replay / wrk: {statistics.median(ratios):.3f}x "
          f"(pairs: {', '.join(f'{x:.3f}' for x in ratios)})")
    print(f"  open model at the same rate: {statistics.median(o[0] for o in opens):.0f} requests per CPU-second, "
          f"send lag p99 {statistics.median(o[1] for o in opens):.3f} ms; replay / open: "
          f"{statistics.median(r['per_cpu'] / o[0] for r, o in zip(replays, opens)):.3f}x "
          "(the replay's includes reading and encoding the log)")
    print(f"  bar: p99 < 1 ms -> {'met' if med('p99') < 1 else 'NOT met'}")


if __name__ == "__main__":
    main()
