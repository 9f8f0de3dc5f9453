#!/usr/bin/python3
# The target of tst_shareddata: /make hands out a fresh id ({"id": "m17"});
# /use?id=ID takes one back (an id used twice, or one never made, is a clash:
# two readers popped it, or a value came from nowhere); /read?last=L&n=N tells
# what a step's ${shared.last} and its iteration's own counter N were (each L
# must be a count of makes already answered; an N seen twice is a clash: the
# run's counter gave one number twice). Prints its port, serves until its
# stdin closes, then one JSON line:
# {"made": n, "used": n, "reads": n, "clashes": [...], "ns": [...], "missing": n}.
import threading
import urllib.parse

import peerserver

lock = threading.Lock()
state = {"made": 0, "used": 0, "reads": 0, "missing": 0}
made = set()
used = set()
ns = []
clashes = []


class Handler(peerserver.Handler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        q = urllib.parse.parse_qs(url.query, keep_blank_values=True)
        out = {"ok": True}
        with lock:
            if url.path == "/make":
                state["made"] += 1
                ident = "m%d" % state["made"]
                made.add(ident)
                out = {"id": ident}
            elif url.path == "/use":
                ident = q.get("id", [""])[0]
                state["used"] += 1
                if ident not in made:
                    clashes.append("used " + ident + ", never made")
                elif ident in used:
                    clashes.append("used " + ident + " twice")
                used.add(ident)
            elif url.path == "/read":
                state["reads"] += 1
                last, n = q.get("last", [""])[0], q.get("n", [""])[0]
                if not last.isdigit() or not 1 <= int(last) <= state["made"]:
                    clashes.append("read last=" + last + " with " + str(state["made"]) + " made")
                if n in ns:
                    clashes.append("counter gave " + n + " twice")
                ns.append(n)
            else:
                state["missing"] += 1
        self.answer(200, out)


def report():
    with lock:
        return dict(state, clashes=clashes, ns=ns)


peerserver.serve(Handler, report)
