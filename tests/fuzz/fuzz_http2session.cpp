// libFuzzer target: an HTTP/2 server's byte stream (after its SETTINGS, the
// frames the input holds, split anywhere) written by a loopback peer to a real
// Http2Session with several requests in flight, plain or gRPC (the input's
// second byte says), which submits its next request from inside each outcome
// as the worker does. The listener must hear of each request exactly once
// and only while it is outstanding, a request is resent at most once, and a
// gRPC answer that breaks its framing is never an answer; a streaming call
// (the first byte's high bit: bidirectional, request/reply or not, awaiting
// 0 to 4 messages) hears of its messages only while outstanding;
// AddressSanitizer watches the buffers. Driven by nghttp2's own frame
// handling and ours (HPACK, flow control, GOAWAY, RST_STREAM, the gRPC
// length prefix and trailers).
#include "loopbackpeer.h"
#include "net/endpoint.h"
#include "net/eventloop.h"
#include "net/http2session.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace stampede;

namespace {

using fuzzpeer::endpoint;
using fuzzpeer::listener;

nghttp2_nv nv(const char* name, const char* value)
{
    return {reinterpret_cast<std::uint8_t*>(const_cast<char*>(name)),
            reinterpret_cast<std::uint8_t*>(const_cast<char*>(value)), std::strlen(name), std::strlen(value),
            NGHTTP2_NV_FLAG_NONE};
}

const nghttp2_nv kGet[] = {nv(":method", "GET"), nv(":scheme", "http"), nv(":authority", "x"), nv(":path", "/")};
const nghttp2_nv kGrpc[] = {nv(":method", "POST"),
                            nv(":scheme", "http"),
                            nv(":authority", "x"),
                            nv(":path", "/p.S/M"),
                            nv("content-type", "application/grpc"),
                            nv("te", "trailers")};
const char kGrpcBody[] = {0, 0, 0, 0, 2, 8, 1};
const char kStreamBody[] = {0, 0, 0, 0, 2, 8, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 8, 3};

struct Listener final : SessionListener
{
    Http2Session* session = nullptr;
    bool grpc = false;
    const CallStreamPlan* stream = nullptr;
    std::uint32_t nextTag = 0, toSubmit = 0;
    std::map<std::uint32_t, int> outstanding; // tag -> resends heard
    void submit(Nanos now)
    {
        if (nextTag >= toSubmit)
            return;
        const std::uint32_t tag = nextTag++;
        outstanding[tag] = 0;
        if (stream)
            session->submit(tag, endpoint(), kGrpc, std::size(kGrpc), kStreamBody, sizeof kStreamBody, now,
                            50 * kNanosPerMilli, 50 * kNanosPerMilli, true, CaptureMode::All, stream);
        else if (grpc)
            session->submit(tag, endpoint(), kGrpc, std::size(kGrpc), kGrpcBody, sizeof kGrpcBody, now,
                            50 * kNanosPerMilli, 50 * kNanosPerMilli, true, CaptureMode::All);
        else
            session->submit(tag, endpoint(), kGet, std::size(kGet), nullptr, 0, now, 50 * kNanosPerMilli,
                            50 * kNanosPerMilli);
    }
    void onAnswer(std::uint32_t tag, const Answer& a, Nanos now) override
    {
        if (outstanding.erase(tag) != 1)
            __builtin_trap(); // an outcome for a request nobody is waiting for, or twice
        if (!a.failed && grpc && a.status < 400 && (a.statusName != "grpc-status" || a.code < 0 || a.code > 16))
            __builtin_trap(); // a call's answer is its grpc-status (0 to 16), or an HTTP error; else no answer
        if (!a.failed && (a.statusError == ErrorClass::Count) != (grpc && a.status < 400 ? a.code == 0 : a.code < 400))
            __builtin_trap(); // the protocol's verdict on its status, the same for every answer
        submit(now);
    }
    void onStreamMessages(std::uint32_t tag, std::uint32_t out, std::uint32_t, Nanos) override
    {
        if (!stream || !outstanding.count(tag) || out > 3)
            __builtin_trap(); // a streaming call's messages, while it is outstanding; at most its 3 out at once
    }
    void onResent(std::uint32_t tag, Nanos) override
    {
        const auto it = outstanding.find(tag);
        if (it == outstanding.end() || ++it->second > 1)
            __builtin_trap(); // at most once, and only while it is outstanding
    }
};

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 2)
        return 0;
    const std::size_t step = 1 + data[0] % 128;
    EventLoop loop;
    std::vector<char> buffer(64 + data[1] % 64 * 64); // small reads split frames further
    Listener l;
    l.grpc = data[1] & 0x80;
    l.toSubmit = 1 + data[1] % 6;
    CallStreamPlan plan;
    plan.clientStreams = plan.serverStreams = true;
    plan.requestReply = data[0] & 0x40;
    plan.receive = data[0] % 5;
    if (l.grpc && (data[0] & 0x80))
        l.stream = &plan;
    Http2Session session(loop, l, buffer.data(), buffer.size(), 1 + data[0] % 4);
    l.session = &session;
    Nanos now = SteadyClock::monotonicNow();
    for (int i = 0; i < 3; ++i)
        l.submit(now);
    int server = -1;
    // the server's SETTINGS (empty) first, then the input's frames
    std::string stream(9, '\0');
    stream[3] = 4; // SETTINGS
    stream.append(reinterpret_cast<const char*>(data + 2), size - 2);
    std::size_t sent = 0;
    char sink[65536];
    for (std::size_t turn = 0; turn < 64 + size && (sent < stream.size() || !l.outstanding.empty()); ++turn) {
        const int c = ::accept4(listener(), nullptr, nullptr, SOCK_CLOEXEC); // a new connection after a close
        if (c >= 0) {
            if (server >= 0)
                ::close(server);
            server = c;
            sent = 0; // each connection hears the stream from its start
        }
        if (server >= 0) {
            while (::recv(server, sink, sizeof sink, MSG_DONTWAIT) > 0) {
            } // what the client sends is read and dropped
            if (sent < stream.size()) {
                const std::size_t n = std::min(step, stream.size() - sent);
                if (::send(server, stream.data() + sent, n, MSG_NOSIGNAL | MSG_DONTWAIT) > 0)
                    sent += n;
            } else {
                ::shutdown(server, SHUT_WR); // the peer is done: what is still waiting ends
            }
        }
        const int events = loop.wait(0);
        now = SteadyClock::monotonicNow();
        dispatchEvents(loop, events, now);
        session.releaseDue(now);
        session.checkDeadlines(now + (turn > 32 + size ? kNanosPerSecond : 0)); // late on: every deadline passed
    }
    session.close();
    if (server >= 0)
        ::close(server);
    for (int c; (c = ::accept4(listener(), nullptr, nullptr, SOCK_CLOEXEC)) >= 0;)
        ::close(c);
    return 0;
}
