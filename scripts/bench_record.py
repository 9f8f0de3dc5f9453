#!/usr/bin/python3
"""Recorder benchmark (make bench-record): `stampede-cli record` pinned to CPU 0,
loaded by wrk on CPU 1 with mirror-like requests (a POST with a 300-byte JSON
body holding a phone number, a token and an e-mail address, every preset
masking them), for --duration seconds; beside it, in the same invocation and
pinned the same way, Debian's nginx answering the same requests with 204 (what
a C server does with one core). Prints per pair: requests recorded per second,
per recorder CPU-second, dropped, and the ratio to nginx per CPU-second; then a
gateway case: wrk through nginx with and without a `mirror` to the recorder
(nginx's rate both ways, and every request kept). Medians over --pairs. The
issue's bar: >= 20,000 recorded requests a second on one core, none dropped.
"""
import argparse
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench_http1 import free_port  # noqa: E402

BODY = ('{"user":"alice@example.com","phone":"13812345678","token":"tok-0123456789abcdef",'
        '"items":[' + ",".join('{"sku":"SKU-%03d","qty":%d}' % (i, i % 5) for i in range(8)) + '],"note":"'
        + "x" * 60 + '"}')


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_port(port):
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.05)
    sys.exit(f"nothing listens on {port}")


def wrk(url, seconds, conns, script, cpu="1"):
    out = subprocess.run(["taskset", "-c", cpu, "wrk", "-t1", f"-c{conns}", f"-d{seconds}s", "-s", script, url],
                         capture_output=True, text=True).stdout
    m = re.search(r"(\d+) requests in ([\d.]+)s", out)
    return int(m.group(1)), float(m.group(2))


def record_case(cli, tmp, seconds, conns, script, index):
    port = free_port()
    project = os.path.join(tmp, f"bench{index}.stampede")
    p = subprocess.Popen(["taskset", "-c", "0", cli, "record", "--listen", f"127.0.0.1:{port}", "--project", project,
                          "--name", "bench", "-q"], stdout=subprocess.PIPE, text=True)
    wait_port(port)
    before = cpu_seconds(p.pid)
    sent, elapsed = wrk(f"http://127.0.0.1:{port}/api/orders?page=1", seconds, conns, script)
    time.sleep(1.2)  # the last second appended
    cpu = cpu_seconds(p.pid) - before
    p.send_signal(signal.SIGINT)
    out = p.communicate(timeout=60)[0]
    m = re.search(r"received (\d+) requests: (\d+) kept, \d+ filtered, (\d+) dropped", out)
    received, kept, dropped = int(m.group(1)), int(m.group(2)), int(m.group(3))
    return kept / elapsed, kept / cpu, dropped, received


def paced_case(cli, tmp, seconds, rate, index):
    """The recorder offered `rate` requests a second, paced (stampede-cli run's open model on CPU 1): what it
    keeps and drops, and its CPU."""
    port = free_port()
    p = subprocess.Popen(["taskset", "-c", "0", cli, "record", "--listen", f"127.0.0.1:{port}", "--project",
                          os.path.join(tmp, f"paced{index}.stampede"), "--name", "paced", "-q"],
                         stdout=subprocess.PIPE, text=True)
    wait_port(port)
    before = cpu_seconds(p.pid)
    subprocess.run(["taskset", "-c", "1", cli, "run", "--url", f"http://127.0.0.1:{port}/api/orders?page=1",
                    "--rate", str(rate), "-c", "64", "-d", f"{seconds}s", "--engines", "1", "-t", "1", "-q",
                    "-H", "Content-Type: application/json", "-H", "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig",
                    "--body", BODY], capture_output=True)
    time.sleep(1.2)
    cpu = cpu_seconds(p.pid) - before
    p.send_signal(signal.SIGINT)
    out = p.communicate(timeout=60)[0]
    m = re.search(r"received (\d+) requests: (\d+) kept, \d+ filtered, (\d+) dropped", out)
    return int(m.group(1)), int(m.group(2)), int(m.group(3)), cpu


def nginx_conf(tmp, port, recorder_port=None, backend=None):
    """nginx answering 204 on `port`; with `backend`, a gateway on `port` proxying to it (keep-alive), and with
    `recorder_port` mirroring every request to the recorder too."""
    conf = os.path.join(tmp, "nginx.conf")
    mirror = ""
    if backend:
        copy = "mirror /m; mirror_request_body on;" if recorder_port else ""
        mirror = f"""upstream be {{ server 127.0.0.1:{backend}; keepalive 16; }}
  server {{ listen 127.0.0.1:{port}; location / {{ {copy} proxy_pass http://be; proxy_http_version 1.1;
      proxy_set_header Connection ""; }}
    location = /m {{ internal; proxy_pass http://rec$request_uri; proxy_http_version 1.1;
      proxy_set_header Connection ""; proxy_set_header Host $host; proxy_set_header X-Real-IP $remote_addr; }} }}
  upstream rec {{ server 127.0.0.1:{recorder_port or backend}; keepalive 16; }}"""
    with open(conf, "w") as f:
        f.write(f"""daemon off; worker_processes 1; worker_cpu_affinity 10;
pid {tmp}/nginx.pid; error_log {tmp}/error.log;
events {{ worker_connections 4096; }}
http {{ access_log off; keepalive_requests 100000000; keepalive_timeout 300s; client_body_buffer_size 64k;
  client_body_temp_path {tmp}; proxy_temp_path {tmp}; fastcgi_temp_path {tmp}; uwsgi_temp_path {tmp}; scgi_temp_path {tmp};
  server {{ listen 127.0.0.1:{backend or port}; location / {{ return 204; }} }}
  {mirror}
}}
""")
    return conf


def nginx_case(tmp, seconds, conns, script):
    """nginx answering 204 to the same requests: requests per nginx CPU-second."""
    port = free_port()
    conf = nginx_conf(tmp, port)
    p = subprocess.Popen(["/usr/sbin/nginx", "-c", conf, "-e", f"{tmp}/error.log"])
    wait_port(port)
    worker = int(subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()[0])
    subprocess.run(["taskset", "-pc", "0", str(worker)], capture_output=True)
    before = cpu_seconds(worker)
    sent, elapsed = wrk(f"http://127.0.0.1:{port}/api/orders?page=1", seconds, conns, script)
    cpu = cpu_seconds(worker) - before
    p.terminate()
    p.wait()
    return sent / elapsed, sent / cpu


def gateway_case(cli, tmp, seconds, conns, script, mirror, index):
    """wrk -> nginx (CPU 1) [-> mirror -> recorder (CPU 0)]: nginx's rate, and what the recorder kept."""
    port, backend, rec_port = free_port(), free_port(), free_port()
    rec = None
    if mirror:
        rec = subprocess.Popen(["taskset", "-c", "0", cli, "record", "--listen", f"127.0.0.1:{rec_port}", "--project",
                                os.path.join(tmp, f"gw{index}.stampede"), "--name", "gw", "-q"],
                               stdout=subprocess.PIPE, text=True)
        wait_port(rec_port)
    conf = nginx_conf(tmp, port, rec_port if mirror else None, backend)
    p = subprocess.Popen(["/usr/sbin/nginx", "-c", conf, "-e", f"{tmp}/error.log"])
    wait_port(port)
    sent, elapsed = wrk(f"http://127.0.0.1:{port}/api/orders?page=1", seconds, conns, script, cpu="1")
    p.terminate()
    p.wait()
    kept = 0
    if rec:
        time.sleep(1.2)
        rec.send_signal(signal.SIGINT)
        out = rec.communicate(timeout=60)[0]
        kept = int(re.search(r"(\d+) kept", out).group(1))
    return sent / elapsed, sent, kept


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cli", required=True)
    ap.add_argument("--pairs", type=int, default=3)
    ap.add_argument("--duration", type=int, default=5)
    ap.add_argument("--connections", type=int, default=16)
    ap.add_argument("--rate", type=int, default=20000)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        script = os.path.join(tmp, "post.lua")
        with open(script, "w") as f:
            body = BODY.replace("\\", "\\\\").replace('"', '\\"')
            f.write(f'wrk.method = "POST"\nwrk.body = "{body}"\n'
                    'wrk.headers["Content-Type"] = "application/json"\n'
                    'wrk.headers["Authorization"] = "Bearer eyJhbGciOiJIUzI1NiJ9.e30.sig"\n'
                    'wrk.headers["Cookie"] = "sid=s-98765; uid=77"\n'
                    'wrk.headers["X-Forwarded-For"] = "10.1.2.3"\n')
        rates, per_cpu, ratios = [], [], []
        print(f"recorder: {a.pairs} pairs x {a.duration}s, wrk -t1 -c{a.connections}, POST {len(BODY)} B JSON, "
              "default masks; recorder and nginx on CPU 0, wrk on CPU 1")
        for i in range(a.pairs):
            rate, cpu_rate, dropped, received = record_case(a.cli, tmp, a.duration, a.connections, script, i)
            n_rate, n_cpu = nginx_case(tmp, a.duration, a.connections, script)
            rates.append(rate)
            per_cpu.append(cpu_rate)
            ratios.append(cpu_rate / n_cpu)
            print(f"  pair {i + 1}: recorded {rate:,.0f}/s ({cpu_rate:,.0f} per CPU-s, {dropped} dropped of "
                  f"{received:,}); nginx 204 {n_rate:,.0f}/s ({n_cpu:,.0f} per CPU-s); ratio {cpu_rate / n_cpu:.3f}")
        print(f"median, saturated: recorded {statistics.median(rates):,.0f}/s, {statistics.median(per_cpu):,.0f} per "
              f"CPU-second, {statistics.median(ratios):.3f}x nginx per CPU-second (offered more than it keeps: the "
              f"rest dropped, the senders never waited)")
        paced = [paced_case(a.cli, tmp, a.duration, a.rate, i) for i in range(a.pairs)]
        for i, (received, kept, dropped, cpu) in enumerate(paced):
            print(f"  paced {a.rate:,}/s run {i + 1}: received {received:,}, kept {kept:,}, dropped {dropped}, "
                  f"recorder CPU {cpu / (a.duration + 1.2) * 100:.0f} % of one core")
        plain = [gateway_case(a.cli, tmp, a.duration, a.connections, script, False, i)[0] for i in range(a.pairs)]
        mirrored = [gateway_case(a.cli, tmp, a.duration, a.connections, script, True, i) for i in range(a.pairs)]
        print(f"gateway (nginx, one worker): {statistics.median(plain):,.0f}/s without a mirror, "
              f"{statistics.median([m[0] for m in mirrored]):,.0f}/s mirroring to the recorder; "
              f"kept {sum(m[2] for m in mirrored):,} of {sum(m[1] for m in mirrored):,} requests")
        ok = statistics.median(rates) >= 20000 and all(d == 0 and k == r for r, k, d, _ in paced)
        print(f"bar (>= 20,000 recorded/s on one core; at {a.rate:,}/s every request kept, none dropped):",
              "met" if ok else "NOT met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
