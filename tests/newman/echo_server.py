#!/usr/bin/python3
"""A local stand-in for postman-echo.com, for the newman parity harness
(compare.py): the endpoints newman's integration collections call, answered
as postman-echo answers them (JSON with args, headers, url, data, form,
json; cookies; statuses; gzip and deflate; redirects; delays; Basic and
Digest authentication). Python's
standard library only. It prints its port, then serves until stdin closes."""
import base64
import gzip
import hashlib
import json
import re
import secrets
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

NONCES = set()  # the Digest nonces this server gave


class Echo(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def answer(self, status, body, content_type="application/json; charset=utf-8", extra=()):
        if isinstance(body, (dict, list)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for k, v in extra:
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def parsed(self):
        u = urllib.parse.urlsplit(self.path)
        args = {}
        for k, v in urllib.parse.parse_qsl(u.query, keep_blank_values=True):
            args[k] = v if k not in args else (args[k] if isinstance(args[k], list) else [args[k]]) + [v]
        return u.path, args

    def body(self):
        n = int(self.headers.get("Content-Length") or 0)
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            data = b""
            while True:
                size = int(self.rfile.readline().strip() or b"0", 16)
                if size == 0:
                    self.rfile.readline()
                    break
                data += self.rfile.read(size)
                self.rfile.readline()
            return data
        return self.rfile.read(n) if n else b""

    def echo(self, path, args):
        raw = self.raw
        headers = {k.lower(): v for k, v in self.headers.items()}
        out = {"args": args, "data": "", "files": {}, "form": {}, "headers": headers, "json": None,
               "url": "http://" + (self.headers.get("Host") or "localhost") + self.path}
        ctype = headers.get("content-type", "")
        text = raw.decode("utf-8", "replace")
        if ctype.startswith("application/x-www-form-urlencoded"):
            out["form"] = dict(urllib.parse.parse_qsl(text, keep_blank_values=True))
        elif ctype.startswith("multipart/form-data"):
            boundary = ctype.split("boundary=")[-1].strip('"')
            for part in raw.split(b"--" + boundary.encode())[1:-1]:
                # a part is CRLF, its head, CRLF CRLF, its bytes as they are, CRLF
                part = part[2:] if part.startswith(b"\r\n") else part
                part = part[:-2] if part.endswith(b"\r\n") else part
                head, _, value = part.partition(b"\r\n\r\n")
                disposition = head.decode("utf-8", "replace")
                name = disposition.split('name="')[1].split('"')[0] if 'name="' in disposition else ""
                if 'filename="' in disposition:  # as postman-echo.com shows a file: a data URL
                    out["files"][disposition.split('filename="')[1].split('"')[0]] = (
                        "data:application/octet-stream;base64," + base64.b64encode(value).decode())
                else:
                    out["form"][name] = value.decode("utf-8", "replace")
        else:
            out["data"] = text
            try:
                out["json"] = json.loads(text) if text else None
            except ValueError:
                pass
        return out

    def route(self):
        self.raw = self.body()  # read whatever the route: a body left unread would be taken for the next request
        path, args = self.parsed()
        cookies = {}
        for part in (self.headers.get("Cookie") or "").split(";"):
            if "=" in part:
                k, v = part.strip().split("=", 1)
                cookies[k] = v
        if path in ("/get", "/post", "/put", "/patch", "/delete", "/") or path.startswith("/anything"):
            return self.answer(200, self.echo(path, args))
        if path == "/headers":
            return self.answer(200, {"headers": {k.lower(): v for k, v in self.headers.items()}})
        if path.startswith("/status/"):
            code = int(path.split("/")[2])
            return self.answer(code, {"status": code})
        if path == "/response-headers":
            return self.answer(200, args, extra=[(k, v) for k, v in args.items() if isinstance(v, str)])
        if path == "/cookies":
            return self.answer(200, {"cookies": cookies})
        if path == "/cookies/set":
            return self.answer(302, "", extra=[("Location", "/cookies")] +
                               [("Set-Cookie", f"{k}={v}; Path=/") for k, v in args.items()])
        if path == "/cookies/delete":
            return self.answer(302, "", extra=[("Location", "/cookies")] +
                               [("Set-Cookie", f"{k}=; Path=/; Expires=Thu, 01 Jan 1970 00:00:00 GMT") for k in args])
        if path == "/redirect-to":
            return self.answer(int(args.get("status_code", 302)), "", extra=[("Location", args.get("url", "/get"))])
        if path.startswith("/delay/"):
            time.sleep(min(float(path.split("/")[2]), 10))
            return self.answer(200, {"delay": path.split("/")[2]})
        if path == "/gzip":
            return self.answer(200, gzip.compress(json.dumps({"gzipped": True, "headers": dict(self.headers)}).encode()),
                               extra=[("Content-Encoding", "gzip")])
        if path == "/deflate":
            return self.answer(200, zlib.compress(json.dumps({"deflated": True}).encode()),
                               extra=[("Content-Encoding", "deflate")])
        if path == "/encoding/utf8":
            return self.answer(200, "<html><body>∮ E⋅da = Q</body></html>", "text/html; charset=utf-8")
        if path == "/type/xml":
            return self.answer(200, '<?xml version="1.0"?><root><a>1</a></root>', "application/xml; charset=utf-8")
        if path == "/type/html":
            return self.answer(200, "<html><body><p>hi</p></body></html>", "text/html; charset=utf-8")
        if path.startswith("/stream/"):
            n = int(path.split("/")[2])
            return self.answer(200, "\n".join(json.dumps({"n": i}) for i in range(n)))
        if path == "/digest-auth":  # postman-echo's: user postman, password password, MD5 with qop auth
            return self.digest_auth()
        if path == "/basic-auth":
            ok = self.headers.get("Authorization") == "Basic cG9zdG1hbjpwYXNzd29yZA=="
            return self.answer(200 if ok else 401, {"authenticated": ok})
        return self.answer(404, {"error": "not here: " + path})

    def digest_auth(self):
        given = dict(re.findall(r'(\w+)="?([^",]*)"?', self.headers.get("Authorization") or ""))
        nonce = given.get("nonce", "")
        if (self.headers.get("Authorization") or "").startswith("Digest ") and nonce in NONCES:
            h = lambda text: hashlib.md5(text.encode()).hexdigest()
            ha1 = h("postman:Users:password")
            ha2 = h(f"{self.command}:{given.get('uri', '')}")
            good = h(f"{ha1}:{nonce}:{given.get('nc', '')}:{given.get('cnonce', '')}:auth:{ha2}")
            if given.get("response") == good and given.get("username") == "postman":
                return self.answer(200, {"authenticated": True})
        nonce = secrets.token_hex(16)
        NONCES.add(nonce)
        return self.answer(401, "Unauthorized", "text/plain",
                           extra=[("WWW-Authenticate", f'Digest realm="Users", nonce="{nonce}", qop="auth"')])

    do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_HEAD = route

    def __getattr__(self, name):  # any other method (custom methods of the fixtures) echoes
        if name.startswith("do_"):
            return self.route
        raise AttributeError(name)


def main():
    server = ThreadingHTTPServer(("127.0.0.1", int(sys.argv[1]) if len(sys.argv) > 1 else 0), Echo)
    print(server.server_address[1], flush=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    sys.stdin.read()
    server.shutdown()


if __name__ == "__main__":
    main()
