#!/usr/bin/env python3
"""A small shop for the business-flow tests: not Stampede's mock.

POST /login    sets a session cookie and returns a token in JSON
GET  /cart     needs both (Authorization: Bearer <token> and the cookie), else 401
POST /order    needs both; every 5th order is a business error: 200 {"code": 500};
               an X-Sig header, when sent, must be the hex HMAC-SHA256 of the body with key "k"
GET  /old      302 -> /older, 301 -> /new (two hops), /new answers 200
GET  /stats    what the server counted, as JSON

Listens on 127.0.0.1 at the port given (0: any), prints the port on stdout.
"""
import hashlib
import hmac
import json
import socket
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
stats = {"logins": 0, "carts": 0, "orders": 0, "business_errors": 0, "unauthorised": 0, "hops": 0, "new": 0,
         "signed": 0, "badly_signed": 0}
tokens = {}  # token -> session id


def count(key, n=1):
    with lock:
        stats[key] += n
        return stats[key]


class Shop(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def setup(self):
        super().setup()
        # the head and the body go out in two writes: without this, each
        # answer waits for the client's delayed ACK
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_message(self, *args):
        pass

    def answer(self, status, body=b"", headers=()):
        self.send_response(status)
        for name, value in headers:
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def json(self, obj, headers=()):
        self.answer(200, json.dumps(obj).encode(), [("Content-Type", "application/json")] + list(headers))

    def authorised(self):
        auth = self.headers.get("Authorization", "")
        cookie = self.headers.get("Cookie", "")
        token = auth[len("Bearer "):] if auth.startswith("Bearer ") else ""
        sid = tokens.get(token)
        return sid is not None and ("sid=" + sid) in cookie

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        sig = self.headers.get("X-Sig")
        if sig is not None:
            good = hmac.new(b"k", body, hashlib.sha256).hexdigest()
            count("signed" if hmac.compare_digest(sig, good) else "badly_signed")
        if self.path == "/login":
            n = count("logins")
            token, sid = "tok-%d" % n, "s%d" % n
            with lock:
                tokens[token] = sid
            self.json({"code": 0, "data": {"token": token}},
                      [("Set-Cookie", "sid=%s; Path=/; HttpOnly" % sid), ("X-Session", sid)])
        elif self.path == "/order":
            if not self.authorised():
                count("unauthorised")
                self.answer(401)
                return
            n = count("orders")
            if n % 5 == 0:
                count("business_errors")
                self.json({"code": 500, "message": "stock service failed"})
            else:
                self.json({"code": 0, "order": n})
        else:
            self.answer(404)

    def do_GET(self):
        if self.path == "/cart":
            if not self.authorised():
                count("unauthorised")
                self.answer(401)
                return
            count("carts")
            self.json({"code": 0, "items": 3})
        elif self.path == "/old":
            count("hops")
            self.answer(302, headers=[("Location", "/older")])
        elif self.path == "/older":
            count("hops")
            self.answer(301, headers=[("Location", "http://127.0.0.1:%d/new" % self.server.server_port)])
        elif self.path == "/new":
            count("new")
            self.json({"code": 0, "page": "new"})
        elif self.path == "/stats":
            with lock:
                body = json.dumps(stats).encode()
            self.answer(200, body, [("Content-Type", "application/json")])
        else:
            self.answer(404)


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = ThreadingHTTPServer(("127.0.0.1", port), Shop)
    server.daemon_threads = True
    print(server.server_port, flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
