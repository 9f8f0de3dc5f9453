#!/usr/bin/python3
"""Independent stream peers for the tests, from Debian's packages: a WebSocket
server (python3-websockets) and a Server-Sent Events server (python3-aiohttp).
Prints its port, serves until stdin closes.

--mode ws: echoes each message (text as text, binary as binary), offers the
subprotocol "chat"; "close-me" closes with 4001 "asked"; "ping-me" sends a ping
with payload "hi" before the echo; "two" answers with two messages.
--mode sse: GET /events answers text/event-stream in pieces: a comment, retry,
a named event with an id and two data lines, a UTF-8 event, and, when the
request has Last-Event-ID, an event "last=<it>"; then the answer ends.
/forever?n=N&every=MS: N JSON events (odd ones of type "odd"), then held open;
/drops: two events per connection from Last-Event-ID on, retry 20, then ends;
/cut: an event, then the connection broken mid-answer; /noline: 8 MiB with no
line feed; /plain: text/plain; /missing: 404. When stdin closes, sse mode
prints the connections and the Last-Event-ID values seen.
--cert/--key: ws mode over TLS (wss://).
When stdin closes, ws mode prints one JSON line: connections, messages,
distinct texts, the subprotocols chosen, the X-Stress-Tag values seen."""
import argparse
import asyncio
import json
import sys
import threading


SEEN = {"connections": 0, "messages": 0, "texts": set(), "protocols": set(), "tags": set(), "extensions": set(),
        "longest": 0}


def serve_ws(ready, tls=None):
    import websockets

    async def handler(ws, path=None):
        SEEN["connections"] += 1
        SEEN["protocols"].add(ws.subprotocol or "")
        SEEN["tags"].add(ws.request_headers.get("X-Stress-Tag", ""))
        SEEN["extensions"].add(ws.response_headers.get("Sec-WebSocket-Extensions", ""))
        async for message in ws:
            SEEN["messages"] += 1
            if isinstance(message, str):
                SEEN["texts"].add(message)
                SEEN["longest"] = max(SEEN["longest"], len(message))
            if message == "close-me":
                await ws.close(4001, "asked")
                return
            if message == "ping-me":
                await ws.ping(b"hi")
            await ws.send(message)
            if message == "two":
                await ws.send("second")

    async def main():
        async with websockets.serve(handler, "127.0.0.1", 0, subprotocols=["chat"], ssl=tls,
                                    ping_interval=None, max_size=1 << 20) as server:
            ready(server.sockets[0].getsockname()[1])
            await asyncio.Future()

    asyncio.run(main())


SSE_SEEN = {"connections": 0, "last_ids": []}


def serve_sse(ready):
    from aiohttp import web

    async def stream(request, status=200, ctype="text/event-stream"):
        SSE_SEEN["connections"] += 1
        last = request.headers.get("Last-Event-ID")
        if last is not None:
            SSE_SEEN["last_ids"].append(last)
        resp = web.StreamResponse(status=status, headers={"Content-Type": ctype, "Cache-Control": "no-cache"})
        await resp.prepare(request)
        return resp, last

    async def events(request):
        resp, last = await stream(request)
        pieces = [b": hello\n\n", b"retry: 1500\n", b"id: 1\nevent: tick\nda", b"ta: a\ndata: b\n\n",
                  "data: \u00fc\u4f60\r\n\r\n".encode()]
        if last is not None:
            pieces.append(("data: last=%s\n\n" % last).encode())
        for p in pieces:
            await resp.write(p)
            await asyncio.sleep(0.01)
        await resp.write_eof()
        return resp

    async def forever(request):
        # ?n=N events {"i": i} (ids 1..N, every `every` ms, odd ones of type "odd"), then the stream stays open
        resp, _ = await stream(request)
        n = int(request.query.get("n", "3"))
        every = int(request.query.get("every", "5")) / 1000.0
        for i in range(1, n + 1):
            kind = "event: odd\n" if i % 2 else ""
            await resp.write(("id: %d\n%sdata: {\"i\": %d}\n\n" % (i, kind, i)).encode())
            await asyncio.sleep(every)
        await asyncio.sleep(30)
        return resp

    async def drops(request):
        # two events per connection, from after Last-Event-ID on; retry 20 ms; then the answer ends
        resp, last = await stream(request)
        start = int(last) + 1 if last else 1
        await resp.write(b"retry: 20\n\n")
        for i in (start, start + 1):
            await resp.write(("id: %d\ndata: n%d\n\n" % (i, i)).encode())
        await resp.write_eof()
        return resp

    async def cut(request):
        # one event, then the connection broken in the middle of the chunked answer
        resp, _ = await stream(request)
        await resp.write(b"data: one\n\ndata: half")
        await asyncio.sleep(0.05)
        request.transport.abort()
        return resp

    async def noline(request):
        # a line that never ends: 8 MiB without a line feed, then held open
        resp, _ = await stream(request)
        chunk = b"data: " + b"x" * 65536
        for _ in range(128):
            await resp.write(chunk)
        await asyncio.sleep(30)
        return resp

    async def plain(request):
        resp, _ = await stream(request, ctype="text/plain")
        await resp.write(b"data: not a stream\n\n")
        await resp.write_eof()
        return resp

    async def missing(request):
        SSE_SEEN["connections"] += 1
        return web.Response(status=404, text="no such stream")

    async def main():
        app = web.Application()
        def quiet(handler):  # a client that lets go of the stream is no error of the peer's
            async def wrapped(request):
                try:
                    return await handler(request)
                except (ConnectionError, asyncio.CancelledError):
                    return web.Response(status=499)
            return wrapped

        for path, handler in (("/events", events), ("/forever", forever), ("/drops", drops), ("/cut", cut),
                              ("/noline", noline), ("/plain", plain), ("/missing", missing)):
            app.router.add_get(path, quiet(handler))
        runner = web.AppRunner(app)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        ready(site._server.sockets[0].getsockname()[1])
        await asyncio.Future()

    asyncio.run(main())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["ws", "sse"], required=True)
    ap.add_argument("--cert", help="ws mode: serve wss:// with this certificate (PEM) and --key")
    ap.add_argument("--key")
    args = ap.parse_args()
    tls = None
    if args.cert:
        import ssl
        tls = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        tls.load_cert_chain(args.cert, args.key)

    def ready(port):
        print(port, flush=True)

    if args.mode == "ws":
        t = threading.Thread(target=serve_ws, args=(ready, tls), daemon=True)
    else:
        t = threading.Thread(target=serve_sse, args=(ready,), daemon=True)
    t.start()
    sys.stdin.read()  # serves until stdin closes
    if args.mode == "sse":
        print(json.dumps(SSE_SEEN), flush=True)
    if args.mode == "ws":
        print(json.dumps({"connections": SEEN["connections"], "messages": SEEN["messages"],
                          "distinct_texts": len(SEEN["texts"]), "protocols": sorted(SEEN["protocols"]),
                          "tags": sorted(SEEN["tags"]), "extensions": sorted(SEEN["extensions"]),
                          "longest": SEEN["longest"]}), flush=True)


if __name__ == "__main__":
    main()
