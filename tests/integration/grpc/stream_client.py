#!/usr/bin/python3
"""An independent gRPC client for the tests: Python grpcio (Debian's
python3-grpcio) calling stampede.test.Echo's streaming methods on a server
(the mock) from a FileDescriptorSet of echo.proto. Prints one JSON line: what
each call read (texts and ids), and its status.

  stream_client.py --descriptors echo.pb --target 127.0.0.1:PORT --call listen|collect|chat [--messages N]
  stream_client.py ... --bench N --connections C   (server-streaming calls of N messages each, for benchmarks:
                                                     prints messages read and the process's CPU seconds)
"""
import argparse
import json
import resource
import sys
import threading
import time

import grpc
from google.protobuf import descriptor_pb2, message_factory


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--descriptors", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("--call", default="listen")
    ap.add_argument("--messages", type=int, default=3)
    ap.add_argument("--bench", type=int, default=0, help="calls of Listen to make, counting every message")
    ap.add_argument("--connections", type=int, default=1)
    args = ap.parse_args()

    fds = descriptor_pb2.FileDescriptorSet.FromString(open(args.descriptors, "rb").read())
    classes = message_factory.GetMessages(fds.file)
    Request = classes["stampede.test.EchoRequest"]
    Reply = classes["stampede.test.EchoReply"]
    ser, des = Request.SerializeToString, Reply.FromString

    def channel():
        # a channel of its own per connection (local subchannel pool: no sharing)
        return grpc.insecure_channel(args.target, options=[("grpc.use_local_subchannel_pool", 1)])

    if args.bench:
        counts = [0] * args.connections

        def worker(i):
            ch = channel()
            listen = ch.unary_stream("/stampede.test.Echo/Listen", request_serializer=ser,
                                     response_deserializer=des)
            for _ in range(args.bench // args.connections):
                for _reply in listen(Request(text="bench")):
                    counts[i] += 1
            ch.close()

        start = time.monotonic()
        usage0 = resource.getrusage(resource.RUSAGE_SELF)
        threads = [threading.Thread(target=worker, args=(i,)) for i in range(args.connections)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        usage = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (usage.ru_utime - usage0.ru_utime) + (usage.ru_stime - usage0.ru_stime)
        print(json.dumps({"messages": sum(counts), "seconds": time.monotonic() - start, "cpu": cpu}), flush=True)
        return

    ch = channel()
    out = {"texts": [], "ids": [], "code": "OK"}
    try:
        if args.call == "listen":
            call = ch.unary_stream("/stampede.test.Echo/Listen", request_serializer=ser, response_deserializer=des)
            replies = list(call(Request(text="hi", id=args.messages)))
        elif args.call == "collect":
            call = ch.stream_unary("/stampede.test.Echo/Collect", request_serializer=ser,
                                   response_deserializer=des)
            replies = [call(iter([Request(text="m%d" % k, id=k) for k in range(1, args.messages + 1)]))]
        else:
            call = ch.stream_stream("/stampede.test.Echo/Chat", request_serializer=ser, response_deserializer=des)
            replies = list(call(iter([Request(text="m%d" % k, id=k) for k in range(1, args.messages + 1)])))
        out["texts"] = [r.text for r in replies]
        out["ids"] = [r.id for r in replies]
    except grpc.RpcError as e:
        out["code"] = e.code().name
        out["details"] = e.details()
    print(json.dumps(out), flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()
