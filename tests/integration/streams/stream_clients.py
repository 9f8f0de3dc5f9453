#!/usr/bin/python3
"""Independent stream clients for the tests, from Debian's packages, run
against the mock's stream endpoints; each prints one JSON line of what it saw.

ws URL [--send N] [--wait K] [--protocol P]: python3-websockets connects
(offering P), sends "m1".."mN", reads K messages (default N) or until the
server closes; prints the messages, the subprotocol, the close code and
reason.
sse URL [--last-id ID]: python3-aiohttp GETs the stream and reads it to its
end; prints the content type, the retry and each event's id, type and data.
Every wait is bounded (10 s)."""
import argparse
import asyncio
import json
import sys


async def ws(args):
    import websockets
    out = {"messages": [], "protocol": None, "close_code": None, "close_reason": None}
    protocols = [args.protocol] if args.protocol else None
    async with websockets.connect(args.url, subprotocols=protocols, max_size=1 << 24, open_timeout=10,
                                  close_timeout=10, ping_interval=None) as c:
        out["protocol"] = c.subprotocol
        for i in range(1, args.send + 1):
            await c.send("m%d" % i)
        want = args.send if args.wait is None else args.wait
        try:
            while len(out["messages"]) < want:
                m = await asyncio.wait_for(c.recv(), 10)
                out["messages"].append(m if isinstance(m, str) else "binary:%d" % len(m))
        except websockets.ConnectionClosed:
            pass
        if args.wait_close:
            try:
                await asyncio.wait_for(c.wait_closed(), 10)
            except asyncio.TimeoutError:
                pass
        else:
            await c.close()
        out["close_code"] = c.close_code
        out["close_reason"] = c.close_reason
    return out


async def sse(args):
    import aiohttp
    out = {"content_type": None, "retry": None, "events": []}
    headers = {"Last-Event-ID": args.last_id} if args.last_id else {}
    timeout = aiohttp.ClientTimeout(total=10)
    async with aiohttp.ClientSession(timeout=timeout) as s:
        async with s.get(args.url, headers=headers) as r:
            out["status"] = r.status
            out["content_type"] = r.headers.get("Content-Type")
            event = {}
            async for raw in r.content:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if "data" in event:
                        out["events"].append(event)
                    event = {}
                    continue
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "retry":
                    out["retry"] = int(value)
                elif field == "data":
                    event["data"] = event["data"] + "\n" + value if "data" in event else value
                elif field in ("id", "event"):
                    event[field] = value
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["ws", "sse"])
    ap.add_argument("url")
    ap.add_argument("--send", type=int, default=0)
    ap.add_argument("--wait", type=int)
    ap.add_argument("--wait-close", action="store_true", help="ws: wait for the server to close")
    ap.add_argument("--protocol")
    ap.add_argument("--last-id")
    args = ap.parse_args()
    out = asyncio.run(ws(args) if args.mode == "ws" else sse(args))
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    sys.exit(main())
