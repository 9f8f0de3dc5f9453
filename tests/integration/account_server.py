#!/usr/bin/python3
# The target of tst_accountpool: an iteration logs in with an account
# (/login?acct=A), holds it 20 ms, and orders with it (/order?acct=A). The
# server keeps, per account, whether a login is open: a second login before
# the order, or an order without a login, is a clash (two users on one account
# at once). Prints its port, serves until its stdin closes, then one JSON line:
# {"logins": {acct: n}, "orders": {acct: n}, "clashes": [...], "most_open": n}.
import threading
import time
import urllib.parse

import peerserver

lock = threading.Lock()
open_logins = {}
logins = {}
orders = {}
clashes = []
most = {"open": 0}


class Handler(peerserver.Handler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        acct = urllib.parse.parse_qs(url.query).get("acct", [""])[0]
        with lock:
            if url.path == "/login":
                logins[acct] = logins.get(acct, 0) + 1
                if open_logins.get(acct):
                    clashes.append("second login of " + acct)
                open_logins[acct] = True
                most["open"] = max(most["open"], sum(1 for v in open_logins.values() if v))
            elif url.path == "/order":
                orders[acct] = orders.get(acct, 0) + 1
                if not open_logins.get(acct):
                    clashes.append("order of " + acct + " without its login")
                open_logins[acct] = False
        if url.path == "/login":
            time.sleep(0.02)
        self.answer(200, b"ok", "text/plain")


def report():
    with lock:
        return {"logins": logins, "orders": orders, "clashes": clashes, "most_open": most["open"]}


peerserver.serve(Handler, report)
