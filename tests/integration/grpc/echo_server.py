#!/usr/bin/python3
"""An independent gRPC peer for the tests: Python grpcio (Debian's
python3-grpcio) serving stampede.test.Echo from a FileDescriptorSet that protoc
made of echo.proto (unary Say; streaming Listen, Collect, Chat). It prints its
port, serves until stdin closes, then prints one JSON line: calls, distinct ids,
UNAVAILABLE answers, users seen; per streaming method its calls and messages, and
how the calls ended ("chat.done", "listen.cancelled": the client ended it)."""
import argparse
import collections
import json
import re
import sys
import threading
import time
from concurrent import futures

import grpc
from google.protobuf import descriptor_pb2, message_factory


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--descriptors", required=True)
    ap.add_argument("--unavailable-every", type=int, default=0,
                    help="answer UNAVAILABLE to every Nth call (10: 10 %%)")
    ap.add_argument("--cert", help="serve over TLS with this certificate (PEM)...")
    ap.add_argument("--key", help="...and its key")
    args = ap.parse_args()

    fds = descriptor_pb2.FileDescriptorSet.FromString(open(args.descriptors, "rb").read())
    classes = message_factory.GetMessages(fds.file)
    Request = classes["stampede.test.EchoRequest"]
    Reply = classes["stampede.test.EchoReply"]

    lock = threading.Lock()
    state = {"calls": 0, "ids": set(), "unavailable": 0, "users": set(), "texts": set(), "traces": set(),
             "traced": 0, "listen": 0, "listen_out": 0, "collect": 0, "collect_in": 0, "chat": 0, "chat_in": 0,
             "chat_ids": [], "ends": collections.Counter()}
    # W3C traceparent: version 00, a trace id and a span id not all zero, sampled
    traceparent = re.compile(r"00-(?!0{32})([0-9a-f]{32})-(?!0{16})[0-9a-f]{16}-01")

    def say(request, context):
        with lock:
            state["calls"] += 1
            n = state["calls"]
            state["ids"].add(request.id)
            state["texts"].add(request.text)
        metadata = dict(context.invocation_metadata())
        user = metadata.get("x-user", "")
        trace = traceparent.fullmatch(metadata.get("traceparent", ""))
        with lock:
            state["users"].add(user)
            if trace:
                state["traced"] += 1
                state["traces"].add(trace.group(1))
        if args.unavailable_every and n % args.unavailable_every == 0:
            with lock:
                state["unavailable"] += 1
            context.abort(grpc.StatusCode.UNAVAILABLE, "busy: try again later")
        if request.delay_ms:
            time.sleep(request.delay_ms / 1000.0)
        return Reply(text=request.text, id=request.id, user=user)

    def ended(kind, context):
        # the call's end: "cancelled" when the client ended it before the server did
        done = {"normal": False}

        def callback():
            with lock:
                state["ends"][kind + (".done" if done["normal"] else ".cancelled")] += 1
        context.add_callback(callback)
        return done

    def listen(request, context):
        done = ended("listen", context)
        n = request.id or 3
        with lock:
            state["listen"] += 1
        for k in range(1, n + 1):
            if request.delay_ms and k > 1:
                time.sleep(request.delay_ms / 1000.0)
            if not context.is_active():
                return
            with lock:
                state["listen_out"] += 1
            yield Reply(text="%s #%d" % (request.text, k), id=k)
        done["normal"] = True

    def collect(requests, context):
        done = ended("collect", context)
        texts = [r.text for r in requests]
        with lock:
            state["collect"] += 1
            state["collect_in"] += len(texts)
        done["normal"] = True
        return Reply(text=",".join(texts), id=len(texts))

    def chat(requests, context):
        done = ended("chat", context)
        with lock:
            state["chat"] += 1
        for r in requests:
            with lock:
                state["chat_in"] += 1
                state["chat_ids"].append(r.id)
            if r.delay_ms:
                time.sleep(r.delay_ms / 1000.0)
            yield Reply(text=r.text, id=r.id)
        done["normal"] = True

    des, ser = Request.FromString, Reply.SerializeToString
    handler = grpc.method_handlers_generic_handler("stampede.test.Echo", {
        "Say": grpc.unary_unary_rpc_method_handler(say, request_deserializer=des, response_serializer=ser),
        "Listen": grpc.unary_stream_rpc_method_handler(listen, request_deserializer=des, response_serializer=ser),
        "Collect": grpc.stream_unary_rpc_method_handler(collect, request_deserializer=des, response_serializer=ser),
        "Chat": grpc.stream_stream_rpc_method_handler(chat, request_deserializer=des, response_serializer=ser),
    })
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=32))
    server.add_generic_rpc_handlers((handler,))
    if args.cert:
        creds = grpc.ssl_server_credentials([(open(args.key, "rb").read(), open(args.cert, "rb").read())])
        port = server.add_secure_port("127.0.0.1:0", creds)
    else:
        port = server.add_insecure_port("127.0.0.1:0")
    server.start()
    print(port, flush=True)
    sys.stdin.read()  # until the test closes it
    server.stop(0)
    with lock:
        print(json.dumps({"calls": state["calls"], "distinct_ids": len(state["ids"]),
                          "unavailable": state["unavailable"], "users": sorted(state["users"]),
                          "distinct_texts": len(state["texts"]), "traced": state["traced"],
                          "distinct_traces": len(state["traces"]), "listen": state["listen"],
                          "listen_out": state["listen_out"], "collect": state["collect"],
                          "collect_in": state["collect_in"], "chat": state["chat"], "chat_in": state["chat_in"],
                          "chat_ids": state["chat_ids"][:50], "ends": dict(state["ends"])}), flush=True)


if __name__ == "__main__":
    main()
