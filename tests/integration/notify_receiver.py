#!/usr/bin/python3
# Webhook receivers for tst_notify, as the platforms answer: prints its port,
# serves until its stdin closes, then prints one JSON line with every request.
# The signatures are checked here, by Python's hmac, as each platform documents
# them (not by the product's code):
#   /dingtalk  timestamp (ms) and sign in the query; sign = base64(HMAC-SHA256(key=secret,
#              msg=timestamp + "\n" + secret)), answered {"errcode": 0} or {"errcode": 310000}
#   /feishu    timestamp (s) and sign in the body; sign = base64(HMAC-SHA256(key=timestamp + "\n" + secret,
#              msg="")), answered {"code": 0} or {"code": 19021}
#   /flaky     500 the first time, then 200
#   /slow      200 after 2 s
#   /plain, /slack, /wecom  200, and kept
import base64
import hashlib
import hmac
import json
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

SECRET = "SEC-test-secret"
seen = []
lock = threading.Lock()
flaky = {"n": 0}


def signed(key, msg):
    return base64.b64encode(hmac.new(key.encode(), msg.encode(), hashlib.sha256).digest()).decode()


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def do_POST(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        verified = None
        answer = {}
        status = 200
        if url.path == "/dingtalk":
            ts = query.get("timestamp", [""])[0]
            fresh = ts.isdigit() and abs(int(ts) - time.time() * 1000) < 3600 * 1000
            verified = fresh and query.get("sign", [""])[0] == signed(SECRET, ts + "\n" + SECRET)
            answer = {"errcode": 0, "errmsg": "ok"} if verified else {"errcode": 310000, "errmsg": "sign not match"}
        elif url.path == "/feishu":
            ts = str((body or {}).get("timestamp", ""))
            fresh = ts.isdigit() and abs(int(ts) - time.time()) < 3600
            verified = fresh and (body or {}).get("sign") == signed(ts + "\n" + SECRET, "")
            answer = {"code": 0, "msg": "success"} if verified else {"code": 19021, "msg": "sign match fail"}
        elif url.path == "/slow":
            time.sleep(2)
        elif url.path == "/flaky":
            with lock:
                flaky["n"] += 1
                status = 500 if flaky["n"] == 1 else 200
        with lock:
            seen.append({"path": url.path, "body": body, "verified": verified, "status": status,
                         "type": self.headers.get("Content-Type", "")})
        out = json.dumps(answer).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
threading.Thread(target=server.serve_forever, daemon=True).start()
sys.stdin.read()
server.shutdown()
with lock:
    print(json.dumps({"requests": seen}), flush=True)
