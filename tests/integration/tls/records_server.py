#!/usr/bin/python3
"""A TLS 1.3 server that writes its own records, for the TLS conformance
target (tst_conformance_tlsrecords). OpenSSL (Python's ssl, over memory BIOs)
does the handshake and writes the traffic secrets to a key log; from then on
this server opens the client's records and seals its own with Python's
`cryptography` (RFC 8446 §5.2, §7.3), so it can send what no TLS library
sends: records padded past the limit, floods of empty records, malformed
tickets and key updates, alerts, records that do not authenticate.

Each request names its shape in its path (GET /<shape>); the shape decides
what goes back. It prints its port, serves until stdin closes, then prints one
JSON line: the requests seen by shape, and the client's key updates."""
import argparse
import hashlib
import hmac
import json
import os
import socket
import ssl
import struct
import sys
import tempfile
import threading
import time

from cryptography.hazmat.primitives.ciphers.aead import AESGCM, ChaCha20Poly1305

SUITES = {
    "TLS_AES_128_GCM_SHA256": (AESGCM, 16, hashlib.sha256),
    "TLS_AES_256_GCM_SHA384": (AESGCM, 32, hashlib.sha384),
    "TLS_CHACHA20_POLY1305_SHA256": (ChaCha20Poly1305, 32, hashlib.sha256),
}
ALERT, HANDSHAKE, DATA = 21, 22, 23
OK = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"


def expand_label(digest, secret, label, length):
    info = struct.pack(">H", length) + bytes([6 + len(label)]) + b"tls13 " + label + b"\x00"
    out, block, i = b"", b"", 1
    while len(out) < length:
        block = hmac.new(secret, block + info + bytes([i]), digest).digest()
        out += block
        i += 1
    return out[:length]


class Direction:
    """One direction's key, IV and sequence number."""

    def __init__(self, suite, secret):
        self.aead, self.key_length, self.digest = SUITES[suite]
        self.use(secret)

    def use(self, secret):
        self.secret = secret
        self.cipher = self.aead(expand_label(self.digest, secret, b"key", self.key_length))
        self.iv = expand_label(self.digest, secret, b"iv", 12)
        self.seq = 0

    def update(self):
        size = self.digest().digest_size
        self.use(expand_label(self.digest, self.secret, b"traffic upd", size))

    def nonce(self):
        n = bytes(4) + struct.pack(">Q", self.seq)
        return bytes(a ^ b for a, b in zip(self.iv, n))

    def seal(self, inner_type, content, pad=0, outer=DATA, version=b"\x03\x03", flip=False, no_type=False):
        inner = content + (b"" if no_type else bytes([inner_type])) + bytes(pad)
        header = bytes([outer]) + version + struct.pack(">H", len(inner) + 16)
        sealed = bytearray(self.cipher.encrypt(self.nonce(), inner, header))
        self.seq += 1
        if flip:
            sealed[0] ^= 0x01
        return header + bytes(sealed)

    def open(self, record):
        inner = self.cipher.decrypt(self.nonce(), record[5:], record[:5])
        self.seq += 1
        inner = inner.rstrip(b"\x00")
        return inner[-1], inner[:-1]


def ticket(body_ok=True):
    body = struct.pack(">II", 7200, 0x01020304) + b"\x08" + b"n" * 8 + struct.pack(">H", 32) + b"t" * 32 + b"\x00\x00"
    if not body_ok:
        body = body[:10]  # the nonce says 8 bytes: 1 comes
    return b"\x04" + struct.pack(">I", len(body))[1:] + body


class Connection:
    def __init__(self, sock, cert, key, stats):
        self.sock, self.stats = sock, stats
        self.buffer = b""
        self.handled = 0
        self.key_update_pending = False
        fd, self.keylog = tempfile.mkstemp(prefix="stampede-keylog-")
        os.close(fd)
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_3
        ctx.load_cert_chain(cert, key)
        ctx.num_tickets = 0  # the server's first sealed record is ours: sequence 0
        ctx.keylog_filename = self.keylog
        self.ctx = ctx

    def handshake(self):
        incoming, outgoing = ssl.MemoryBIO(), ssl.MemoryBIO()
        obj = self.ctx.wrap_bio(incoming, outgoing, server_side=True)
        while True:
            try:
                obj.do_handshake()
                break
            except ssl.SSLWantReadError:
                self.sock.sendall(outgoing.read())
                data = self.sock.recv(65536)
                if not data:
                    return False
                incoming.write(data)
        self.sock.sendall(outgoing.read())
        self.buffer = incoming.read()  # what came past the client's Finished
        secrets = {}
        with open(self.keylog) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3:
                    secrets[parts[0]] = bytes.fromhex(parts[2])
        os.unlink(self.keylog)
        suite = obj.cipher()[0]
        self.reader = Direction(suite, secrets["CLIENT_TRAFFIC_SECRET_0"])
        self.writer = Direction(suite, secrets["SERVER_TRAFFIC_SECRET_0"])
        return True

    def record(self):
        while len(self.buffer) < 5 or len(self.buffer) < 5 + struct.unpack(">H", self.buffer[3:5])[0]:
            data = self.sock.recv(65536)
            if not data:
                return None
            self.buffer += data
        n = 5 + struct.unpack(">H", self.buffer[3:5])[0]
        record, self.buffer = self.buffer[:n], self.buffer[n:]
        return record

    def request(self):
        """The next request's head (None at the end), following the client's key updates."""
        data = b""
        while b"\r\n\r\n" not in data:
            record = self.record()
            if record is None or record[0] != DATA:
                return None
            try:
                inner_type, content = self.reader.open(record)
            except Exception:
                return None
            if inner_type == HANDSHAKE and content[:1] == b"\x18":
                self.reader.update()
                self.key_update_pending = False
                with self.stats["lock"]:
                    self.stats["client_key_updates"] += 1
            elif inner_type == ALERT:
                return None
            elif inner_type == DATA:
                data += content
        return data

    def send(self, data, delay=0.0):
        if delay:
            time.sleep(delay)
        self.sock.sendall(data)

    def data(self, content, **kw):
        return self.writer.seal(DATA, content, **kw)

    def serve(self):
        if not self.handshake():
            return
        while True:
            head = self.request()
            if head is None:
                return
            shape = head.split(b" ")[1].decode("latin-1").lstrip("/")
            with self.stats["lock"]:
                self.stats["shapes"][shape] = self.stats["shapes"].get(shape, 0) + 1
            self.handled += 1
            if self.key_update_pending:  # the client never answered the update it was asked for
                self.send(self.data(b"HTTP/1.1 500 No key update\r\nContent-Length: 0\r\n\r\n"))
                continue
            if SHAPES[shape](self) is False:
                return


def hs(c, message):
    return c.writer.seal(HANDSHAKE, message)


def alert(c, level, code):
    return c.writer.seal(ALERT, bytes([level, code]))


def key_update(c, requested):
    out = hs(c, b"\x18\x00\x00\x01" + bytes([1 if requested else 0]))
    c.writer.update()
    c.key_update_pending = requested
    return out


def padded(c, inner_length):
    head = b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"
    return c.data(head, pad=inner_length - len(head) - 1)


def read_to_close(c, close_notify):
    out = c.data(b"HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nhello")
    if close_notify:
        out += alert(c, 1, 0)
    c.send(out)
    c.sock.shutdown(socket.SHUT_WR)
    return False


def on_reuse(bad):
    """The first request of a connection gets a right answer, the second `bad`."""
    def shape(c):
        if c.handled == 1:
            c.send(c.data(OK))
            return None
        c.send(bad(c))
        return False
    return shape


SHAPES = {
    "one-record": lambda c: c.send(c.data(OK)),
    "a-record-a-byte": lambda c: c.send(b"".join(c.data(OK[i:i + 1]) for i in range(len(OK)))),
    "header-split-across-writes": lambda c: [c.send(r[:3]) or c.send(r[3:], 0.02) for r in [c.data(OK)]],
    "padded-to-the-limit": lambda c: c.send(padded(c, 16385)),
    "padded-past-the-limit": lambda c: c.send(padded(c, 16386)),
    "ciphertext-past-the-limit": lambda c: c.send(b"\x17\x03\x03" + struct.pack(">H", 16641) + bytes(16641)),
    "32-empty-records": lambda c: c.send(b"".join(c.data(b"") for _ in range(32)) + c.data(OK)),
    "33-empty-records": lambda c: c.send(b"".join(c.data(b"") for _ in range(33)) + c.data(OK)),
    "a-ticket": lambda c: c.send(hs(c, ticket()) + c.data(OK)),
    "a-malformed-ticket": lambda c: c.send(hs(c, ticket(False)) + c.data(OK)),
    "a-ticket-split-in-two-records": lambda c: c.send(hs(c, ticket()[:20]) + hs(c, ticket()[20:]) + c.data(OK)),
    "a-ticket-split-around-data": lambda c: c.send(hs(c, ticket()[:20]) + c.data(OK) + hs(c, ticket()[20:])),
    "a-key-update": lambda c: c.send(key_update(c, False) + c.data(OK)),
    "a-key-update-requested": lambda c: c.send(key_update(c, True) + c.data(OK)),
    "a-malformed-key-update": lambda c: c.send(hs(c, b"\x18\x00\x00\x01\x02") + c.data(OK)),
    "a-certificate-request": lambda c: c.send(hs(c, b"\x0d\x00\x00\x05\x00\x00\x02\x00\x00") + c.data(OK)),
    "an-unknown-inner-type": lambda c: c.send(c.writer.seal(99, b"x") + c.data(OK)),
    "no-inner-type": lambda c: c.send(c.writer.seal(0, bytes(8), no_type=True) + c.data(OK)),
    "a-change-cipher-spec": lambda c: c.send(b"\x14\x03\x03\x00\x01\x01" + c.data(OK)),
    "a-plaintext-handshake-record": lambda c: c.send(b"\x16\x03\x03\x00\x04\x18\x00\x00\x00" + c.data(OK)),
    "an-unknown-outer-type": lambda c: c.send(c.writer.seal(DATA, OK, outer=24)),
    "an-old-record-version": lambda c: c.send(c.writer.seal(DATA, OK, version=b"\x03\x01")),
    "a-record-that-does-not-authenticate": lambda c: c.send(c.writer.seal(DATA, OK, flip=True)),
    "a-bad-record-on-a-reused-connection": on_reuse(lambda c: c.writer.seal(DATA, OK, flip=True)),
    "a-fatal-alert": lambda c: c.send(alert(c, 2, 80)),
    "an-alert-of-3-bytes": lambda c: c.send(c.writer.seal(ALERT, b"\x01\x5a\x00") + c.data(OK)),
    "a-user-canceled-alert": lambda c: c.send(alert(c, 1, 90) + c.data(OK)),
    "4-user-canceled-alerts": lambda c: c.send(b"".join(alert(c, 1, 90) for _ in range(4)) + c.data(OK)),
    "5-user-canceled-alerts": lambda c: c.send(b"".join(alert(c, 1, 90) for _ in range(5)) + c.data(OK)),
    "read-to-close-with-close-notify": lambda c: read_to_close(c, True),
    "read-to-close-without-close-notify": lambda c: read_to_close(c, False),
    "close-notify-before-the-answer": lambda c: c.send(alert(c, 1, 0)) or False,
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cert", required=True)
    ap.add_argument("--key", required=True)
    ap.add_argument("--list", action="store_true", help="print the shapes' names and end")
    args = ap.parse_args()
    if args.list:
        print("\n".join(SHAPES))
        return
    stats = {"lock": threading.Lock(), "shapes": {}, "client_key_updates": 0}
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    print(listener.getsockname()[1], flush=True)

    def accept():
        while True:
            try:
                sock, _ = listener.accept()
            except OSError:
                return
            sock.settimeout(10)
            conn = Connection(sock, args.cert, args.key, stats)

            def serve(conn=conn, sock=sock):
                try:
                    conn.serve()
                except (OSError, ssl.SSLError, KeyError):
                    pass
                finally:
                    sock.close()
            threading.Thread(target=serve, daemon=True).start()

    threading.Thread(target=accept, daemon=True).start()
    sys.stdin.read()
    listener.close()
    print(json.dumps({"shapes": stats["shapes"], "client_key_updates": stats["client_key_updates"]}), flush=True)


if __name__ == "__main__":
    main()
