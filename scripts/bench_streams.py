#!/usr/bin/python3
"""Stream benchmarks: stampede-cli's WebSocket step against tsung (Debian's, Erlang), and its gRPC
server-streaming step against Python's grpcio client (Debian's python3-grpcio), each on the same target.

The target is stampede-cli's own mock serving a WebSocket echo endpoint (one
thread, pinned to CPU 1); each generator is pinned to CPU 0. Both hold C
connections at once, each sending M messages request/reply (the next once the
echo of the one before has come back: tsung's default ack, the step's
requestReply), then closing. Runs alternate, tsung first; prints messages per
second, messages per generator CPU-second (the process's user and system
time, tsung's Erlang VM included) and the median of the per-pair ratios, with
each side's round-trip latency as it reports it.

gRPC: the mock serves echo.proto's Listen, M messages a call as fast as the
connection takes them; each client holds C connections (one call at a time on
each) and makes N calls in all, reading every message (grpcio: a channel per
connection, a thread each; Stampede: C users, one engine thread). Messages per
generator CPU-second, runs alternating, grpcio first.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_http1 import ECHO_PROTO, start_mock, timed  # noqa: E402  (the same pinning and CPU accounting)

STREAM_CLIENT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration", "grpc",
                             "stream_client.py")


def tsung_config(port, conns, messages):
    return f"""<?xml version="1.0"?>
<!DOCTYPE tsung SYSTEM "/usr/share/tsung/tsung-1.0.dtd" []>
<tsung loglevel="warning" version="1.0">
  <clients><client host="localhost" use_controller_vm="true" maxusers="{conns * 2}"/></clients>
  <servers><server host="127.0.0.1" port="{port}" type="tcp"/></servers>
  <load><arrivalphase phase="1" duration="2" unit="second">
    <users maxnumber="{conns}" arrivalrate="{conns * 20}" unit="second"/></arrivalphase></load>
  <sessions>
    <session name="echo" probability="100" type="ts_websocket">
      <request><websocket type="connect" path="/chat"></websocket></request>
      <for from="1" to="{messages}" incr="1" var="i">
        <request><websocket type="message">hello stampede</websocket></request>
      </for>
      <request><websocket type="close"></websocket></request>
    </session>
  </sessions>
</tsung>
"""


def last_stats(logdir):
    """tsung's last dump: name -> its fields (count, mean of the interval, ..., mean over the run...)."""
    runs = sorted(os.listdir(logdir))
    stats = {}
    with open(os.path.join(logdir, runs[-1], "tsung.log")) as f:
        for line in f:
            m = re.match(r"stats: (\w+) (.*)", line)
            if m:
                stats[m.group(1)] = [float(x) for x in m.group(2).split()]
    return stats


def run_tsung(port, conns, messages, tmp, n):
    config = os.path.join(tmp, f"tsung-{n}.xml")
    with open(config, "w") as f:
        f.write(tsung_config(port, conns, messages))
    logdir = os.path.join(tmp, f"tsung-log-{n}")
    os.makedirs(logdir)
    _, cpu, wall = timed(["tsung", "-n", "-w", "0", "-f", config, "-l", logdir, "start"])
    s = last_stats(logdir)
    sessions = int(s.get("websocket_succ", [0])[0])
    # each session: a connect, the messages, a close (requests are all three; the echoes are the messages)
    echoed = int(s["request"][0]) - 2 * sessions if "request" in s else 0
    session_s = s["session"][1] / 1000.0 if "session" in s else wall  # a session's mean length, ms
    rtt_ms = s["request"][1] if "request" in s else 0.0
    return echoed / session_s if session_s else 0.0, echoed / cpu, sessions != conns, rtt_ms, echoed


def run_stampede(cli, port, conns, messages, tmp):
    scenario = {"name": "ws echo",
                "steps": [{"name": "echo", "websocket": {
                    "url": f"ws://127.0.0.1:{port}/chat", "requestReply": True, "receive": messages,
                    "send": [{"text": "hello stampede"}] * messages, "timeout": "120s"}}],
                "load": {"closed": {"users": conns}}, "iterations": 1}
    path = os.path.join(tmp, "ws.json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    summary = os.path.join(tmp, "summary.json")
    _, cpu, _ = timed([cli, "run", path, "--engines", "1", "-t", "1", "-q", "--summary-json", summary])
    with open(summary) as f:
        t = json.load(f)["total"]
    received = t["messages_received"]
    # the conversations' own length: the step's mean latency is one connection's whole conversation
    conversation_s = t["latency_ms"]["p50"] / 1000.0
    rtt_ms = t.get("message_latency_ms", {}).get("p50", 0.0)
    return (received / conversation_s if conversation_s else 0.0), received / cpu, t["errors"] > 0, rtt_ms, received


def run_grpcio(descriptors, port, conns, calls):
    out, cpu, wall = timed(["/usr/bin/python3", STREAM_CLIENT, "--descriptors", descriptors, "--target",
                            f"127.0.0.1:{port}", "--bench", str(calls), "--connections", str(conns)])
    r = json.loads(out.strip().splitlines()[-1])
    return r["messages"] / r["seconds"], r["messages"] / cpu, False, r["messages"]


def run_stampede_grpc(cli, port, conns, calls, tmp, match=None):
    grpc = {"target": f"127.0.0.1:{port}", "method": "stampede.test.Echo/Listen",
            "protos": [os.path.abspath(ECHO_PROTO)], "data": '{"text": "bench"}', "deadline": "120s"}
    if match:  # every message read as JSON (as grpcio reads each into an object), none holding the text
        grpc["match"] = match
    scenario = {"name": "grpc listen", "http": "HTTP_2",
                "steps": [{"name": "listen", "grpc": grpc}],
                "load": {"closed": {"users": conns}}, "connections": conns, "iterations": calls // conns}
    path = os.path.join(tmp, "grpc.json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    summary = os.path.join(tmp, "summary.json")
    _, cpu, wall = timed([cli, "run", path, "--engines", "1", "-t", "1", "-q", "--summary-json", summary])
    with open(summary) as f:
        s = json.load(f)
    t = s["total"]
    received = t["messages_received"]
    return received / s["duration_s"], received / cpu, t["errors"] > 0, received


def bench_grpc(a, tmp):
    descriptors = os.path.join(tmp, "echo.pb")
    subprocess.run(["protoc", "--include_imports", f"--descriptor_set_out={descriptors}",
                    f"-I{os.path.dirname(os.path.abspath(ECHO_PROTO))}", os.path.abspath(ECHO_PROTO)], check=True)
    rules = os.path.join(tmp, "grpc-rules.json")
    with open(rules, "w") as f:
        json.dump({"protos": [os.path.abspath(ECHO_PROTO)],
                   "rules": [{"grpc": {"method": "stampede.test.Echo/Listen",
                                       "response": '{"text": "hello stampede", "id": 1}',
                                       "count": a.stream_messages}}]}, f)
    mock, port = start_mock(a.cli, rules)
    try:
        print(f"gRPC server streaming, {a.grpc_conns} connections, {a.grpc_calls} calls x {a.stream_messages} "
              "messages (mock on CPU 1, generator on CPU 0)")
        print(f"{'':>12} {'':>9} {'msgs/s':>10} {'msgs/CPU-s':>10} {'messages':>10}")
        # stampede: counts the messages as they come; stampede+json: reads each as JSON too (a `match` none
        # holds: the stream runs to its end), as grpcio's client deserializes each into an object
        ratios, rows = {"stampede": [], "stampede+json": []}, {"grpcio": [], "stampede": [], "stampede+json": []}
        for _ in range(a.pairs):
            rows["grpcio"].append(run_grpcio(descriptors, port, a.grpc_conns, a.grpc_calls))
            rows["stampede"].append(run_stampede_grpc(a.cli, port, a.grpc_conns, a.grpc_calls, tmp))
            rows["stampede+json"].append(run_stampede_grpc(a.cli, port, a.grpc_conns, a.grpc_calls, tmp,
                                                           match="no such text"))
            for name in ratios:
                ratios[name].append(rows[name][-1][1] / rows["grpcio"][-1][1])
        for name, runs in rows.items():
            print(f"{'grpc listen':>12} {name:>13} {statistics.median(r[0] for r in runs):>10.0f} "
                  f"{statistics.median(r[1] for r in runs):>10.0f} {statistics.median(r[3] for r in runs):>10.0f}"
                  + ("  (errors!)" if any(r[2] for r in runs) else ""))
        for name, rs in ratios.items():
            print(f"{'grpc listen':>12} {'ratio ' + name:>13} {statistics.median(rs):.3f}x vs grpcio  "
                  f"(pairs: {', '.join(f'{r:.3f}' for r in rs)})")
    finally:
        mock.terminate()
        mock.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--conns", type=int, default=50)
    ap.add_argument("--messages", type=int, default=2000, help="request/reply messages per connection")
    ap.add_argument("--only", choices=["ws", "grpc"], help="one of the two benchmarks")
    ap.add_argument("--grpc-conns", type=int, default=10)
    ap.add_argument("--grpc-calls", type=int, default=200, help="server-streaming calls in all")
    ap.add_argument("--stream-messages", type=int, default=5000, help="messages a call reads")
    a = ap.parse_args()
    if a.only != "ws":
        with tempfile.TemporaryDirectory() as tmp:
            bench_grpc(a, tmp)
    if a.only == "grpc":
        return 0
    if not shutil.which("tsung"):
        sys.exit("tsung is missing: scripts/install-deps.sh --bench installs it")
    with tempfile.TemporaryDirectory() as tmp:
        rules = os.path.join(tmp, "rules.json")
        with open(rules, "w") as f:
            json.dump({"rules": [{"name": "echo", "path": "/chat", "websocket": {}}]}, f)
        mock, port = start_mock(a.cli, rules)
        try:
            print(f"WebSocket echo, {a.conns} connections x {a.messages} messages request/reply "
                  f"(mock on CPU 1, generator on CPU 0)")
            print(f"{'':>12} {'':>9} {'msgs/s':>10} {'msgs/CPU-s':>10} {'rtt':>9} {'echoes':>8}"
                  "   (rtt: stampede's message_latency p50, tsung's request mean)")
            ratios, rows = [], {"tsung": [], "stampede": []}
            for n in range(a.pairs):
                rows["tsung"].append(run_tsung(port, a.conns, a.messages, tmp, n))
                rows["stampede"].append(run_stampede(a.cli, port, a.conns, a.messages, tmp))
                ratios.append(rows["stampede"][-1][1] / rows["tsung"][-1][1])
            for name, runs in rows.items():
                print(f"{'ws echo':>12} {name:>9} {statistics.median(r[0] for r in runs):>10.0f} "
                      f"{statistics.median(r[1] for r in runs):>10.0f} {statistics.median(r[3] for r in runs):>7.3f}ms "
                      f"{statistics.median(r[4] for r in runs):>8.0f}" + ("  (errors!)" if any(r[2] for r in runs) else ""))
            print(f"{'ws echo':>12} {'ratio':>9} {'':>10} {'':>10}   {statistics.median(ratios):.3f}x  "
                  f"(pairs: {', '.join(f'{r:.3f}' for r in ratios)})")
        finally:
            mock.terminate()
            mock.wait()
    return 0


if __name__ == "__main__":
    sys.exit(main())
