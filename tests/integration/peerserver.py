# What the Python targets of the integration tests share (account_server.py,
# shared_server.py, traced_service.py; each runs as /usr/bin/python3 FILE, so
# this file is beside it on sys.path): an answer with its length, and the
# protocol with the test — print the port, serve until stdin closes, then
# print what was seen as one JSON line.
import json
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json"):
        """`body` as is when bytes, else as JSON."""
        out = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(out)))
        self.end_headers()
        self.wfile.write(out)


def serve(handler, report):
    """Serves `handler` on a port of 127.0.0.1 it prints, until stdin closes; then prints report() as JSON."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    server.daemon_threads = True
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()
    print(json.dumps(report()), flush=True)
