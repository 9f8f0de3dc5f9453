#!/usr/bin/python3
"""HTTP and gRPC benchmark: stampede-cli against wrk (HTTP/1.1) and h2load (h2c), same target.

Starts nginx from Debian on loopback with its own config (one worker pinned to
CPU 1), pins each generator to CPU 0, alternates wrk and stampede-cli runs, and
prints requests/s, requests per generator CPU-second and the median of the
per-pair ratios. HTTP/2: h2c against the same nginx, h2load -c C -m M against
stampede-cli --http 2 with C x M users, M streams to a connection. gRPC: unary
calls to stampede-cli's own mock server (one thread, CPU 1) with the tests'
echo.proto, against h2load POSTing the same framed message with gRPC's headers;
then the rate accuracy of an open model at --grpc-rate calls/s. The checks case
(and the script case: a Postman test script against the same judgement made
natively, requests per CPU-second):
a 1 KiB JSON answer, 50 users, stampede-cli with one status check and one
JSON-path extraction per answer against the same scenario without them (the
issue's bar: >= 0.8x), and wrk on the same URL. With --soak it
instead checks that stampede-cli's resident memory at 60 s of full-rate load is
within 5 % of that at 10 s.
"""
import argparse
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


# A 1 KiB JSON answer: the token the bench extracts sits after a list the
# reader has to skip.
JSON_BODY = ('{"code":0,"items":[' + ",".join('{"id":%d,"sku":"SKU-%05d","qty":%d}' % (i, i * 7, i % 5) for i in range(24))
             + '],"data":{"user":"bench","token":"tok-0123456789abcdef"}}')
JSON_BODY = JSON_BODY[:-2] + ',"pad":"' + "x" * (1024 - len(JSON_BODY) - 10) + '"}}'


def start_nginx(tmp):
    port = free_port()
    h2port = free_port()
    conf = os.path.join(tmp, "nginx.conf")
    with open(conf, "w") as f:
        f.write(f"""daemon off; worker_processes 1; worker_cpu_affinity 10; worker_rlimit_nofile 20000;
pid {tmp}/nginx.pid; error_log {tmp}/error.log;
events {{ worker_connections 16384; }}
http {{ access_log off; keepalive_requests 100000000; keepalive_timeout 300s;
  client_body_temp_path {tmp}; proxy_temp_path {tmp}; fastcgi_temp_path {tmp};
  uwsgi_temp_path {tmp}; scgi_temp_path {tmp};
  server {{ listen 127.0.0.1:{port} backlog=4096; location / {{ return 200 "ok"; }}
    location /json {{ default_type application/json; return 200 '{JSON_BODY}'; }} }}
  server {{ listen 127.0.0.1:{h2port} http2 backlog=4096; location / {{ return 200 "ok"; }} }} }}
""")
    return launch_nginx(conf, tmp, "error.log", port), port, h2port


def launch_nginx(conf, tmp, log, port):
    """Starts nginx with `conf`; returns its process once `port` accepts."""
    proc = subprocess.Popen(["/usr/sbin/nginx", "-c", conf, "-e", os.path.join(tmp, log)])
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit(f"nginx ({conf}) did not start")


def start_tls_nginx(tmp):
    """nginx with TLS (TLS 1.2 and 1.3, the server's own cipher choice) on CPU 1: HTTP/1.1 and h2 ports.

    A self-signed ECDSA P-256 certificate made for the run; session tickets on (nginx's default), so
    a client that keeps its session resumes on a new connection."""
    cert, key = os.path.join(tmp, "tls-cert.pem"), os.path.join(tmp, "tls-key.pem")
    subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
                    "-keyout", key, "-out", cert, "-subj", "/CN=localhost", "-days", "2"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    port, h2port = free_port(), free_port()
    conf = os.path.join(tmp, "nginx-tls.conf")
    with open(conf, "w") as f:
        f.write(f"""daemon off; worker_processes 1; worker_cpu_affinity 10;
pid {tmp}/nginx-tls.pid; error_log {tmp}/error-tls.log;
events {{ worker_connections 16384; }}
http {{ access_log off; keepalive_requests 100000000; keepalive_timeout 300s;
  client_body_temp_path {tmp}; proxy_temp_path {tmp}; fastcgi_temp_path {tmp};
  uwsgi_temp_path {tmp}; scgi_temp_path {tmp};
  ssl_certificate {cert}; ssl_certificate_key {key}; ssl_protocols TLSv1.2 TLSv1.3;
  server {{ listen 127.0.0.1:{port} ssl backlog=4096; location / {{ return 200 "ok"; }} }}
  server {{ listen 127.0.0.1:{h2port} ssl http2 backlog=4096; location / {{ return 200 "ok"; }} }} }}
""")
    return launch_nginx(conf, tmp, "error-tls.log", port), port, h2port


def timed(cmd):
    """Runs cmd pinned to CPU 0; returns (stdout, user+system CPU seconds, wall seconds)."""
    start = time.monotonic()
    p = subprocess.Popen(["taskset", "-c", "0"] + cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    _, status, usage = os.wait4(p.pid, 0)
    p.returncode = os.waitstatus_to_exitcode(status)
    wall = time.monotonic() - start
    if p.returncode not in (0, 1):
        sys.exit(f"{cmd[0]} failed with exit code {p.returncode}")
    return out.decode(), usage.ru_utime + usage.ru_stime, wall


def run_wrk(url, conns, seconds, headers=()):
    out, cpu, _ = timed(["wrk", "-t1", f"-c{conns}", f"-d{seconds}s"] + [x for h in headers for x in ("-H", h)] + [url])
    m = re.search(r"(\d+) requests in ([\d.]+)s", out)
    requests, elapsed = int(m.group(1)), float(m.group(2))
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)|Socket errors", out)
    return requests / elapsed, requests / cpu, bool(errors)


TUNED = ["--engines", "1", "-t", "1"]


def run_stampede(cli, url, conns, seconds, tmp, rate=None, extra=(), tuned=True):
    """tuned: --engines 1 -t 1 (what a hand tunes for one CPU); else the defaults a user gets."""
    summary = os.path.join(tmp, "summary.json")
    _, cpu, _ = timed([cli, "run", "--url", url, "-c", str(conns), "-d", f"{seconds}s", "-q", "--summary-json", summary]
                      + (TUNED if tuned else []) + (["--rate", str(rate)] if rate else []) + list(extra))
    with open(summary) as f:
        s = json.load(f)
    requests = s["total"]["requests"]
    return requests / s["duration_s"], requests / cpu, s["total"]["errors"] > 0


def run_stampede_scenario(cli, scenario, tmp):
    path = os.path.join(tmp, "scenario.json")
    with open(path, "w") as f:
        json.dump(scenario, f)
    summary = os.path.join(tmp, "summary.json")
    _, cpu, _ = timed([cli, "run", path, "--engines", "1", "-t", "1", "-q", "--summary-json", summary])
    with open(summary) as f:
        s = json.load(f)
    requests = s["total"]["requests"]
    return requests / s["duration_s"], requests / cpu, s["total"]["errors"] > 0


def native_checks(url, users, seconds):
    """A JSON-path check and an extraction on each answer: what the script case's test script judges."""
    return {"steps": [{"request": {"url": url},
                       "checks": [{"name": "ok", "jsonPath": "$.data.token", "exists": True}],
                       "extract": [{"name": "token", "jsonPath": "$.data.token"}]}],
            "load": {"closed": {"users": users}}, "duration": f"{seconds}s"}


def checks_case(cli, url, users, seconds, pairs, tmp):
    """The same run with and without one status check and one JSON-path extraction."""
    plain = {"steps": [{"request": {"url": url}}], "load": {"closed": {"users": users}}, "duration": f"{seconds}s"}
    checked = json.loads(json.dumps(plain))
    checked["steps"][0]["checks"] = [{"name": "ok", "status": [200]}]
    checked["steps"][0]["extract"] = [{"name": "token", "jsonPath": "$.data.token"}]
    compare(f"json {users}", pairs, "wrk", lambda: run_wrk(url, users, seconds),
            lambda: run_stampede_scenario(cli, plain, tmp))
    compare(f"checks {users}", pairs, "no checks", lambda: run_stampede_scenario(cli, plain, tmp),
            lambda: run_stampede_scenario(cli, checked, tmp))
    s = json.load(open(os.path.join(tmp, "summary.json")))
    judged = s["total"]["checks"].get("GET /json/ok", {})
    print(f"{'':>12} (last run: {judged.get('passed', 0)} checks passed, {judged.get('failed', 0)} failed, "
          f"{s['total']['errors_by_class']['extract']} extract errors)")
    # issue 28: a test script (pm.test + pm.response.json() + pm.environment.set) against the same
    # judgement made natively (a JSON-path check and an extraction); the target: at least 0.5x
    native = native_checks(url, users, seconds)
    scripted = json.loads(json.dumps(plain))
    scripted["steps"][0]["testScript"] = ("const j = pm.response.json();\n"
                                          "pm.test('ok', () => pm.expect(j.data.token).to.be.ok);\n"
                                          "pm.environment.set('token', j.data.token);")
    compare(f"script {users}", pairs, "native", lambda: run_stampede_scenario(cli, native, tmp),
            lambda: run_stampede_scenario(cli, scripted, tmp))
    s = json.load(open(os.path.join(tmp, "summary.json")))
    judged = s["total"]["checks"].get("GET /json/ok", {})
    print(f"{'':>12} (last run: {judged.get('passed', 0)} pm.test passed, {judged.get('failed', 0)} failed, "
          f"{s['total']['errors_by_class'].get('script', 0)} script errors)")


def h2load_result(out, cpu):
    """(requests/s, requests per CPU-second, any failed) from h2load's output."""
    m = re.search(r"requests: (\d+) total, \d+ started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored", out)
    done, failed, errored = int(m.group(2)), int(m.group(4)), int(m.group(5))
    m = re.search(r"finished in ([\d.]+)(m?s)", out)  # "1.25s", or "933.50ms" for a run under a second
    elapsed = float(m.group(1)) / (1000 if m.group(2) == "ms" else 1)
    return done / elapsed, done / cpu, failed + errored > 0


def run_h2load(url, conns, streams, seconds):
    out, cpu, _ = timed(["h2load", "-t1", f"-c{conns}", f"-m{streams}", "-D", str(seconds), url])
    return h2load_result(out, cpu)


def run_stampede_h2(cli, url, conns, streams, seconds, tmp, rate=None, extra=(), tuned=True):
    summary = os.path.join(tmp, "summary.json")
    # closed: conns x streams users; open (rate): conns connections of `streams` streams each
    users = conns if rate else conns * streams
    _, cpu, _ = timed([cli, "run", "--url", url, "--http", "2", "--streams", str(streams), "-c", str(users),
                       "-d", f"{seconds}s", "-q", "--summary-json", summary] + (TUNED if tuned else []) +
                      (["--rate", str(rate)] if rate else []) + list(extra))
    with open(summary) as f:
        s = json.load(f)
    requests = s["total"]["requests"]
    return requests / s["duration_s"], requests / cpu, s["total"]["errors"] > 0


ECHO_PROTO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "integration", "grpc",
                          "echo.proto")
GRPC_METHOD = "stampede.test.Echo/Say"
GRPC_JSON = '{"text": "hello", "id": 1}'
# the same message by hand: field 1 (text) "hello", field 2 (id) 1; then gRPC's 5-byte frame
GRPC_MESSAGE = b"\x0a\x05hello\x10\x01"
GRPC_FRAME = b"\x00" + len(GRPC_MESSAGE).to_bytes(4, "big") + GRPC_MESSAGE


def start_mock(cli, rules=None):
    """stampede-cli mock (one thread, CPU 1) on a free port: (process, port) once it accepts."""
    port = free_port()
    proc = subprocess.Popen(["taskset", "-c", "1", cli, "mock", "--listen", f"127.0.0.1:{port}"] +
                            (["--rules", rules] if rules else []),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(50):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return proc, port
        except OSError:
            time.sleep(0.1)
    proc.kill()
    sys.exit("the mock server did not start")


def start_grpc_mock(cli, tmp):
    rules = os.path.join(tmp, "grpc-rules.json")
    with open(rules, "w") as f:
        json.dump({"protos": [os.path.abspath(ECHO_PROTO)],
                   "rules": [{"grpc": {"method": GRPC_METHOD, "response": '{"text": "hello", "id": 1}'}}]}, f)
    return start_mock(cli, rules)


def run_h2load_grpc(port, conns, streams, seconds, tmp):
    body = os.path.join(tmp, "grpc-body.bin")
    with open(body, "wb") as f:
        f.write(GRPC_FRAME)
    out, cpu, _ = timed(["h2load", "-t1", f"-c{conns}", f"-m{streams}", "-D", str(seconds), "-d", body,
                         "-H", "content-type: application/grpc", "-H", "te: trailers",
                         f"http://127.0.0.1:{port}/{GRPC_METHOD}"])
    return h2load_result(out, cpu)


def grpc_args(port):
    return ["--grpc", f"127.0.0.1:{port}", "--proto", os.path.abspath(ECHO_PROTO), "--call", GRPC_METHOD,
            "--data", GRPC_JSON]


def run_stampede_grpc(cli, port, conns, streams, seconds, tmp):
    summary = os.path.join(tmp, "summary.json")
    _, cpu, _ = timed([cli, "run"] + grpc_args(port) + ["--streams", str(streams), "-c", str(conns * streams),
                                                       "-d", f"{seconds}s", "--engines", "1", "-t", "1", "-q",
                                                       "--summary-json", summary])
    with open(summary) as f:
        s = json.load(f)
    requests = s["total"]["requests"]
    return requests / s["duration_s"], requests / cpu, s["total"]["errors"] > 0


def grpc_rate(cli, port, rate, seconds, tmp):
    """An open model at `rate` calls/s: the achieved rate, per-second spread, and latency."""
    summary = os.path.join(tmp, "summary.json")
    _, cpu, _ = timed([cli, "run"] + grpc_args(port) + ["--rate", str(rate), "-c", "10", "--streams", "10",
                                                       "-d", f"{seconds}s", "--engines", "1", "-t", "1", "-q",
                                                       "--summary-json", summary])
    with open(summary) as f:
        s = json.load(f)
    t = s["total"]
    achieved = t["requests"] / s["duration_s"]
    # whole seconds only: the last may be cut short by the run's end
    per_second = [p["sent"] for p in s["timeline"]][:int(s["duration_s"])]
    worst = max(abs(n - rate) / rate * 100 for n in per_second) if per_second else 0
    print(f"gRPC open model at {rate}/s for {seconds} s: achieved {achieved:.1f}/s ({(achieved / rate - 1) * 100:+.2f} %), "
          f"sent per second {min(per_second)}..{max(per_second)} (worst {worst:.2f} % off), "
          f"p50 {t['latency_ms']['p50']:.3f} ms, p99 {t['latency_ms']['p99']:.3f} ms, errors {t['errors']}, "
          f"late {t['late']}, generator CPU {cpu / seconds * 100:.1f} %")


def compare(label, pairs, peer_name, peer, ours):
    w, s, ratios = [], [], []
    for _ in range(pairs):
        w.append(peer())
        s.append(ours())
        ratios.append(s[-1][1] / w[-1][1])
    for name, runs in ((peer_name, w), ("stampede", s)):
        print(f"{label:>12} {name:>9} {statistics.median(r[0] for r in runs):>10.0f} "
              f"{statistics.median(r[1] for r in runs):>10.0f}" + ("  (errors!)" if any(r[2] for r in runs) else ""))
    print(f"{label:>12} {'ratio':>9} {'':>10} {'':>10}   {statistics.median(ratios):.3f}x  "
          f"(pairs: {', '.join(f'{r:.3f}' for r in ratios)})")


def run_h2load_h1_close(url, conns, requests):
    """h2load --h1 with Connection: close: a new connection (and with TLS a full handshake) per request."""
    out, cpu, _ = timed(["h2load", "-t1", f"-c{conns}", f"-n{requests}", "--h1", "-H", "Connection: close", url])
    return h2load_result(out, cpu)


def last_handshakes(tmp):
    c = json.load(open(os.path.join(tmp, "summary.json")))["total"]["connections"]
    return c["tls_handshakes"], c["tls_resumed"], c["opened"]


def tls_cases(cli, pairs, seconds, tmp, h2):
    """HTTPS: keep-alive HTTP/1.1 and HTTP/2 against wrk and h2load; then a new connection per request."""
    nginx, port, h2port = start_tls_nginx(tmp)
    url, h2url = f"https://127.0.0.1:{port}/", f"https://127.0.0.1:{h2port}/"
    close = "Connection: close"
    try:
        compare("https h1 50", pairs, "wrk", lambda: run_wrk(url, 50, seconds),
                lambda: run_stampede(cli, url, 50, seconds, tmp, extra=["-k"]))
        # the same with the engine's own record layer instead of OpenSSL's (the default): what it would gain
        compare("https h1 own", pairs, "wrk", lambda: run_wrk(url, 50, seconds),
                lambda: run_stampede(cli, url, 50, seconds, tmp, extra=["-k", "--own-tls-records"]))
        if h2 != "none":
            conns, streams = (int(x) for x in h2.split("x"))
            compare(f"https h2 {conns}x{streams}", pairs, "h2load",
                    lambda: run_h2load(h2url, conns, streams, seconds),
                    lambda: run_stampede_h2(cli, h2url, conns, streams, seconds, tmp, extra=["-k"]))
            compare("https h2 own", pairs, "h2load",
                    lambda: run_h2load(h2url, conns, streams, seconds),
                    lambda: run_stampede_h2(cli, h2url, conns, streams, seconds, tmp,
                                            extra=["-k", "--own-tls-records"]))
        # a new connection per request: wrk, h2load and Stampede each resume the session of the
        # connection before (seen in nginx's $ssl_session_reused), so the three compare alike
        compare("https new 50", pairs, "wrk", lambda: run_wrk(url, 50, seconds, [close]),
                lambda: run_stampede(cli, url, 50, seconds, tmp, extra=["-k", "-H", close]))
        hs, resumed, _ = last_handshakes(tmp)
        print(f"{'':>12} (last run: {hs} handshakes, {resumed} resumed)")
        rate, per_cpu, errors = run_h2load_h1_close(url, 50, 10000)
        print(f"{'https new 50':>12} {'h2load':>9} {rate:>10.0f} {per_cpu:>10.0f}" + ("  (errors!)" if errors else "")
              + "   (h2load --h1 -n 10000 -H 'Connection: close': resumed handshakes)")
        # full handshakes: neither peer can be made to skip resumption on a reconnect, so
        # Stampede's --no-tls-resume is set beside h2load making one new client per request
        full = []
        for _ in range(pairs):
            full.append(run_stampede(cli, url, 50, seconds, tmp, extra=["-k", "--no-tls-resume", "-H", close]))
        hs, resumed, _ = last_handshakes(tmp)
        print(f"{'https full':>12} {'stampede':>9} {statistics.median(r[0] for r in full):>10.0f} "
              f"{statistics.median(r[1] for r in full):>10.0f}   (handshakes per CPU-s; last run: {hs} handshakes, "
              f"{resumed} resumed)")
        rate, per_cpu, errors = run_h2load_h1_close(url, 2000, 2000)
        print(f"{'https full':>12} {'h2load':>9} {rate:>10.0f} {per_cpu:>10.0f}" + ("  (errors!)" if errors else "")
              + "   (h2load -c 2000 -n 2000: 2,000 clients of one request each, full handshakes)")
        idle_tls(cli, url, seconds, tmp)
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait()


def idle_tls(cli, url, seconds, tmp):
    """Memory per idle HTTPS connection: every user sends one request, then thinks longer than the
    run lasts. At 200 connections a worker keeps each one's TLS record buffers, past 256 it frees
    them whenever they empty (net/clientsessions.cpp)."""
    at = max(2, seconds // 2)
    rss = {}
    for users in (100, 200, 1000):
        path = os.path.join(tmp, f"idle-tls-{users}.json")
        with open(path, "w") as f:
            json.dump({"steps": [{"request": {"url": url}}], "duration": f"{seconds}s",
                       "load": {"closed": {"users": users, "thinkTime": f"{seconds * 2}s"}}}, f)
        rss[users] = rss_after([cli, "run", path, "-q", "-k"] + TUNED, at)
    print(f"{'idle https':>12} {'stampede':>9} {rss[100]:>7} KiB at 100, {rss[200]:>7} KiB at 200 (buffers kept), "
          f"{rss[1000]:>7} KiB at 1000: {(rss[200] - rss[100]) * 1024 / 100:.0f} and "
          f"{(rss[1000] - rss[100]) * 1024 / 900:.0f} bytes per idle connection")


def defaults_cases(cli, url, h2url, pairs, seconds, tmp, h2):
    """What a user types: no --engines, no -t (the defaults fit to the CPUs the process may use)."""
    compare("h1 50 dflt", pairs, "wrk", lambda: run_wrk(url, 50, seconds),
            lambda: run_stampede(cli, url, 50, seconds, tmp, tuned=False))
    if h2 != "none":
        conns, streams = (int(x) for x in h2.split("x"))
        compare(f"h2 {conns}x{streams} dflt", pairs, "h2load", lambda: run_h2load(h2url, conns, streams, seconds),
                lambda: run_stampede_h2(cli, h2url, conns, streams, seconds, tmp, tuned=False))


def close_case(cli, url, pairs, seconds, tmp):
    """HTTP/1.1 with Connection: close: a new TCP connection per request."""
    close = "Connection: close"
    compare("close 50", pairs, "wrk", lambda: run_wrk(url, 50, seconds, [close]),
            lambda: run_stampede(cli, url, 50, seconds, tmp, extra=["-H", close]))


def rss_after(cmd, after):
    """Starts cmd pinned to CPU 0; returns its (and its children's) resident memory `after` seconds in."""
    p = subprocess.Popen(["taskset", "-c", "0"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(after)
    kib = rss_kib(p.pid)
    p.wait()
    return kib


def many_connections_case(cli, url, pairs, seconds, tmp, conns):
    """Many connections: req/CPU-s against wrk, and the memory each connection costs (RSS at conns
    connections less that at 100, over the difference), both tools measured alike."""
    compare(f"h1 {conns}", pairs, "wrk", lambda: run_wrk(url, conns, seconds),
            lambda: run_stampede(cli, url, conns, seconds, tmp))
    at = max(2, seconds // 2)
    per = {}
    for name, cmd in (("wrk", lambda c: ["wrk", "-t1", f"-c{c}", f"-d{seconds}s", url]),
                      ("stampede", lambda c: [cli, "run", "--url", url, "-c", str(c), "-d", f"{seconds}s", "-q"]
                       + TUNED)):
        small, big = rss_after(cmd(100), at), rss_after(cmd(conns), at)
        per[name] = (big - small) * 1024 / (conns - 100)
        print(f"{'memory':>12} {name:>9} {small:>7} KiB at 100, {big:>7} KiB at {conns}: "
              f"{per[name]:.0f} bytes per connection")
    print(f"{'memory':>12} {'ratio':>9}   stampede / wrk per connection {per['stampede'] / per['wrk']:.2f}")
    # idle: every user sends one request, then thinks longer than the run lasts; its connection stays open
    idle = []
    for users in (100, conns):
        path = os.path.join(tmp, f"idle-{users}.json")
        with open(path, "w") as f:
            json.dump({"steps": [{"request": {"url": url}}], "duration": f"{seconds}s",
                       "load": {"closed": {"users": users, "thinkTime": f"{seconds * 2}s"}}}, f)
        idle.append(rss_after([cli, "run", path, "-q"] + TUNED, at))
    print(f"{'idle':>12} {'stampede':>9} {idle[0]:>7} KiB at 100, {idle[1]:>7} KiB at {conns} idle connections: "
          f"{(idle[1] - idle[0]) * 1024 / (conns - 100):.0f} bytes per idle connection")


def open_model_case(cli, url, rate, seconds, tmp):
    """One engine thread at `rate` requests/s, open model: every full second within 1 % of plan, and the
    send lag's p99 (from the intended start to the send). Against nginx (3 runs, the median p99 is the
    figure: one run's tail is at the mercy of a stall of the machine), whose ceiling on one CPU wrk
    shows first, and against stampede-cli mock (one thread, CPU 1), a target that serves more."""
    ceiling = run_wrk(url, 200, seconds)[0]
    print(f"{'open':>12} {'wrk':>9} nginx serves {ceiling:.0f} req/s to wrk -c200 (its ceiling here)")
    lags = [open_model_run(cli, url, rate, seconds, tmp, "nginx") for _ in range(3)]
    print(f"{'open ' + str(rate):>12} {'nginx':>9} send lag p99, median of 3 runs: {statistics.median(lags):.3f} ms")
    mock, port = start_mock(cli)
    try:
        for r in (rate, rate * 7 // 10):
            open_model_run(cli, f"http://127.0.0.1:{port}/", r, seconds, tmp, "mock")
    finally:
        mock.send_signal(signal.SIGINT)
        mock.wait()


def open_model_run(cli, url, rate, seconds, tmp, target):
    summary = os.path.join(tmp, "summary.json")
    _, cpu, _ = timed([cli, "run", "--url", url, "--rate", str(rate), "-c", "200", "-d", f"{seconds}s", "-q",
                       "--summary-json", summary] + TUNED)
    s = json.load(open(summary))
    t = s["total"]
    per_second = [p["sent"] for p in s["timeline"]][:int(s["duration_s"])]
    worst = max(abs(n - rate) / rate * 100 for n in per_second) if per_second else 100
    lag = t.get("send_lag_ms", {})
    print(f"{'open ' + str(rate):>12} {target:>9} sent per second {min(per_second)}..{max(per_second)} "
          f"(worst {worst:.2f} % off plan; bar 1 %), send lag p50 {lag.get('p50', 0):.3f} ms p99 "
          f"{lag.get('p99', 0):.3f} ms (bar 1 ms), errors {t['errors']}, generator CPU {cpu / seconds * 100:.1f} %")
    return lag.get("p99", 0)


def rss_kib(pid):
    """Resident memory of a process and its children (the controller and its agents)."""
    total = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    for task in os.listdir(f"/proc/{pid}/task"):
        with open(f"/proc/{pid}/task/{task}/children") as f:
            for child in f.read().split():
                total += rss_kib(int(child))
    return total


def soak(cli, url):
    p = subprocess.Popen(["taskset", "-c", "0", cli, "run", "--url", url, "-c", "50", "-d", "62s", "--engines", "1",
                          "-t", "1", "-q"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    time.sleep(10)
    at10 = rss_kib(p.pid)
    time.sleep(50)
    at60 = rss_kib(p.pid)
    p.wait()
    growth = (at60 - at10) / at10 * 100
    print(f"resident memory at 10 s: {at10} KiB, at 60 s: {at60} KiB, growth {growth:+.2f} % (limit 5 %)")
    return abs(growth) < 5


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cli", default="build/release/app/cli/stampede-cli")
    ap.add_argument("--duration", type=int, default=10, help="seconds per run (default 10)")
    ap.add_argument("--pairs", type=int, default=3, help="alternating wrk/stampede pairs per case (default 3)")
    ap.add_argument("--connections", default="10,50,200")
    ap.add_argument("--soak", action="store_true", help="the 60 s memory check instead")
    ap.add_argument("--h2", default="10x10", help="HTTP/2 case: connections x streams (default 10x10); none to skip")
    ap.add_argument("--only-h2", action="store_true", help="skip the HTTP/1.1 cases")
    ap.add_argument("--grpc", default="10x10", help="gRPC case: connections x streams (default 10x10); none to skip")
    ap.add_argument("--grpc-rate", type=int, default=5000, help="gRPC open-model rate to check (default 5000/s)")
    ap.add_argument("--only-grpc", action="store_true", help="only the gRPC cases")
    ap.add_argument("--tls", default="yes", help="HTTPS cases (keep-alive h1 and h2, new connections); no to skip")
    ap.add_argument("--many", type=int, default=10000, help="many-connections case: connections (0 skips)")
    ap.add_argument("--open-rate", type=int, default=100000, help="open-model case: requests/s (0 skips)")
    ap.add_argument("--only", help="only these cases, comma-separated: checks,h1,dflt,close,many,h2,tls,open,grpc")
    ap.add_argument("--checks", default="50", help="checks case: users (default 50); none to skip")
    ap.add_argument("--only-checks", action="store_true", help="only the checks case")
    ap.add_argument("--baseline", help="another stampede-cli (an earlier build): h1 and h2 cases against it, "
                    "alternating, instead of against wrk and h2load; and the same at --fixed-rate")
    ap.add_argument("--fixed-rate", type=int, default=30000,
                    help="with --baseline: also both builds at this open-model rate, which neither the target nor "
                    "the generator saturates, so req/CPU-s is the cost of a request alone (default 30000; 0 skips)")
    a = ap.parse_args()
    for tool in ("wrk", "h2load", "taskset", "/usr/sbin/nginx"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is missing: run scripts/install-deps.sh")
    tmp = tempfile.mkdtemp(prefix="stampede-bench-")
    nginx, port, h2port = start_nginx(tmp)
    url = f"http://127.0.0.1:{port}/"
    h2url = f"http://127.0.0.1:{h2port}/"
    try:
        if a.soak:
            return 0 if soak(a.cli, url) else 1
        print(f"target: nginx (1 worker, CPU 1) at {url} (h2c: {h2url}); generators on CPU 0, 1 thread; "
              f"{a.pairs} alternating pairs of {a.duration} s")
        print(f"{'case':>12} {'tool':>9} {'req/s':>10} {'req/CPU-s':>10}   ratio (req/CPU-s, median of pairs)")
        if a.baseline:
            # the same cases, this build against an earlier one (a change's cost on the hot path)
            if a.checks != "none":  # native checks and an extraction on 1 KiB JSON answers
                users = int(a.checks)
                native = native_checks(url + "json", users, a.duration)
                compare(f"checks {users}", a.pairs, "baseline", lambda: run_stampede_scenario(a.baseline, native, tmp),
                        lambda: run_stampede_scenario(a.cli, native, tmp))
            for conns in [int(c) for c in a.connections.split(",")]:
                compare(f"h1 {conns}", a.pairs, "baseline", lambda: run_stampede(a.baseline, url, conns, a.duration, tmp),
                        lambda: run_stampede(a.cli, url, conns, a.duration, tmp))
            if a.h2 != "none":
                conns, streams = (int(x) for x in a.h2.split("x"))
                compare(f"h2 {conns}x{streams}", a.pairs, "baseline",
                        lambda: run_stampede_h2(a.baseline, h2url, conns, streams, a.duration, tmp),
                        lambda: run_stampede_h2(a.cli, h2url, conns, streams, a.duration, tmp))
            if a.fixed_rate:
                # a saturated target makes req/CPU-s depend on how answers batch; at a rate both
                # builds deliver, it is what a request costs
                r = a.fixed_rate
                compare(f"h1 @{r}/s", a.pairs, "baseline", lambda: run_stampede(a.baseline, url, 100, a.duration, tmp, r),
                        lambda: run_stampede(a.cli, url, 100, a.duration, tmp, r))
                if a.h2 != "none":
                    compare(f"h2 @{r}/s", a.pairs, "baseline",
                            lambda: run_stampede_h2(a.baseline, h2url, conns, streams, a.duration, tmp, r),
                            lambda: run_stampede_h2(a.cli, h2url, conns, streams, a.duration, tmp, r))
            return 0
        only = set(a.only.split(",")) if a.only else None
        if a.only_checks:
            only = {"checks"}
        elif a.only_h2:
            only = {"h2", "grpc"}
        elif a.only_grpc:
            only = {"grpc"}

        def wanted(case):
            return only is None or case in only
        if a.checks != "none" and wanted("checks"):
            checks_case(a.cli, url + "json", int(a.checks), a.duration, a.pairs, tmp)
        if wanted("h1"):
            for conns in [int(c) for c in a.connections.split(",")]:
                compare(f"h1 {conns}", a.pairs, "wrk", lambda: run_wrk(url, conns, a.duration),
                        lambda: run_stampede(a.cli, url, conns, a.duration, tmp))
        if a.h2 != "none" and wanted("h2"):
            conns, streams = (int(x) for x in a.h2.split("x"))
            compare(f"h2 {conns}x{streams}", a.pairs, "h2load", lambda: run_h2load(h2url, conns, streams, a.duration),
                    lambda: run_stampede_h2(a.cli, h2url, conns, streams, a.duration, tmp))
        if wanted("dflt"):
            defaults_cases(a.cli, url, h2url, a.pairs, a.duration, tmp, a.h2)
        if wanted("close"):
            close_case(a.cli, url, a.pairs, a.duration, tmp)
        if a.many and wanted("many"):
            many_connections_case(a.cli, url, a.pairs, a.duration, tmp, a.many)
        if a.tls != "no" and wanted("tls"):
            tls_cases(a.cli, a.pairs, a.duration, tmp, a.h2)
        if a.open_rate and wanted("open"):
            open_model_case(a.cli, url, a.open_rate, a.duration, tmp)
        if a.grpc != "none" and wanted("grpc"):
            mock, gport = start_grpc_mock(a.cli, tmp)
            try:
                conns, streams = (int(x) for x in a.grpc.split("x"))
                compare(f"grpc {conns}x{streams}", a.pairs, "h2load",
                        lambda: run_h2load_grpc(gport, conns, streams, a.duration, tmp),
                        lambda: run_stampede_grpc(a.cli, gport, conns, streams, a.duration, tmp))
                grpc_rate(a.cli, gport, a.grpc_rate, a.duration, tmp)
            finally:
                mock.send_signal(signal.SIGINT)
                mock.wait()
    finally:
        nginx.send_signal(signal.SIGQUIT)
        nginx.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
