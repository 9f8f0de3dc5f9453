#!/usr/bin/python3
# For tst_verifytag: a traced service and a small fake of its tracing
# system's query API, on one port. Each request to /orders or /leaky is a
# trace (its traceparent's trace id) of four spans, as an instrumented
# system would report them:
#   gateway    "GET /path"    the X-Stress-Tag header's value as a tag
#   orders     "reserve"      the tag as W3C baggage (a log's fields, as Jaeger keeps baggage)
#   orders     "SELECT stock" db.system=mysql; on /leaky the driver loses the context: no tag
#   billing    "publish"      messaging.system=kafka, the tag as a process tag
# GET /api/traces/ID answers as Jaeger's query service ({"data": [...]}, 404
# {"data": null, "errors": [...]} when unknown); GET /tempo/api/traces/ID as
# Grafana Tempo (OTLP JSON, {"batches": [...]}). Prints its port, serves
# until its stdin closes, then one JSON line: {"traces": n}.
import json
import threading
import urllib.parse

import peerserver

lock = threading.Lock()
traces = {}  # trace id -> [(path, tag)]: a flow's requests share their iteration's trace


def spans_of(trace_id, path, tag):
    db_tag = None if path == "/leaky" else tag
    return [
        ("gateway", "GET " + path, {"http.method": "GET", "stress_tag": tag}, None),
        ("orders", "reserve", {"span.kind": "server"}, tag),
        ("orders", "SELECT stock", {"db.system": "mysql", "db.statement": "SELECT stock FROM items",
                                    "stress_tag": db_tag}, None),
        ("billing", "publish", {"messaging.system": "kafka"}, None),
    ]


def all_spans(trace_id, requests):
    return [s for path, tag in requests for s in spans_of(trace_id, path, tag)]


def jaeger(trace_id, requests):
    tag = requests[0][1]
    processes = {"p1": {"serviceName": "gateway", "tags": []},
                 "p2": {"serviceName": "orders", "tags": [{"key": "hostname", "type": "string", "value": "o-1"}]},
                 "p3": {"serviceName": "billing", "tags": [{"key": "stress_tag", "type": "string", "value": tag}]}}
    pid = {"gateway": "p1", "orders": "p2", "billing": "p3"}
    spans = []
    for n, (service, op, tags, baggage) in enumerate(all_spans(trace_id, requests)):
        logs = []
        if baggage:
            logs.append({"timestamp": 1, "fields": [{"key": "event", "type": "string", "value": "baggage"},
                                                    {"key": "key", "type": "string", "value": "stress_test"},
                                                    {"key": "value", "type": "string", "value": "stress_test=" + baggage}]})
        spans.append({"traceID": trace_id, "spanID": "%016x" % (n + 1), "operationName": op, "references": [],
                      "startTime": 1, "duration": 10, "processID": pid[service], "warnings": None, "logs": logs,
                      "tags": [{"key": k, "type": "string", "value": v} for k, v in tags.items() if v is not None]})
    return {"data": [{"traceID": trace_id, "spans": spans, "processes": processes, "warnings": None}],
            "total": 0, "limit": 0, "offset": 0, "errors": None}


def tempo(trace_id, requests):
    tag = requests[0][1]
    batches = []
    for service in ("gateway", "orders", "billing"):
        attrs = [{"key": "service.name", "value": {"stringValue": service}}]
        if service == "billing":
            attrs.append({"key": "stress_tag", "value": {"stringValue": tag}})
        spans = []
        for n, (s, op, tags, baggage) in enumerate(all_spans(trace_id, requests)):
            if s != service:
                continue
            a = [{"key": k, "value": {"stringValue": v}} for k, v in tags.items() if v is not None]
            if baggage:
                a.append({"key": "baggage", "value": {"stringValue": "stress_test=" + baggage}})
            spans.append({"traceId": trace_id, "spanId": "%016x" % (n + 1), "name": op, "attributes": a})
        batches.append({"resource": {"attributes": attrs}, "scopeSpans": [{"scope": {"name": "t"}, "spans": spans}]})
    return {"batches": batches}


class Handler(peerserver.Handler):
    def do_GET(self):
        path = urllib.parse.urlsplit(self.path).path
        for prefix, fmt in (("/api/traces/", jaeger), ("/tempo/api/traces/", tempo)):
            if path.startswith(prefix):
                trace_id = path[len(prefix):]
                with lock:
                    known = traces.get(trace_id)
                if not known:
                    self.answer(404, {"data": None, "total": 0, "limit": 0, "offset": 0,
                                      "errors": [{"code": 404, "msg": "trace not found"}]})
                else:
                    self.answer(200, fmt(trace_id, list(known)))
                return
        parent = self.headers.get("traceparent", "")
        parts = parent.split("-")
        if len(parts) == 4:
            with lock:
                traces.setdefault(parts[1], []).append((path, self.headers.get("X-Stress-Tag", "")))
        self.answer(200, {"ok": True})


def report():
    with lock:
        return {"traces": len(traces)}


peerserver.serve(Handler, report)
