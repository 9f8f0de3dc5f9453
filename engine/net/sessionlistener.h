#pragma once
// What a client session (HTTP/1.1 or an HTTP/2 stream) reports to its owner,
// by the tag the owner gave the request.
#include "core/clock.h"
#include "metrics/runmetrics.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

// What a request submitted for capture keeps of its answer for
// SessionListener::onCaptured: nothing, the headers (and trailers), or the
// body too.
enum class CaptureMode : std::uint8_t
{
    None,
    Head,
    All
};

class SessionListener
{
public:
    virtual ~SessionListener() = default;
    // A whole response arrived. `bytesIn` counts its header and body bytes.
    // `errorSample`: for status 400 and above, the start of the answer (status
    // line or pseudo-header, headers, some body) as received.
    virtual void onResponse(std::uint32_t tag, int status, std::uint64_t bytesIn, const std::string& errorSample,
                            Nanos now) = 0;
    // A whole gRPC response (a request submitted with `grpc`): `grpcStatus` is
    // grpc-status from the trailers (or a trailers-only answer), -1 when the
    // server sent none. By default it is reported as a plain response.
    virtual void onGrpcResponse(std::uint32_t tag, int status, int grpcStatus, const std::string& grpcMessage,
                                std::uint64_t bytesIn, const std::string& errorSample, Nanos now)
    {
        (void)grpcStatus, (void)grpcMessage;
        onResponse(tag, status, bytesIn, errorSample, now);
    }
    // For a request submitted with `capture`: everything the server sent,
    // just before onResponse/onGrpcResponse.
    using HeaderList = std::vector<std::pair<std::string, std::string>>;
    virtual void onCaptured(std::uint32_t tag, const HeaderList& headers, const HeaderList& trailers,
                            const std::string& body)
    {
        (void)tag, (void)headers, (void)trailers, (void)body;
    }
    // The request failed (for HTTP/1.1, the connection has been closed).
    virtual void onFailure(std::uint32_t tag, ErrorClass error, const std::string& why, Nanos now) = 0;
    // Bytes arrived on the connection of `tag` while no request of it was
    // waiting for an answer (an answer nobody asked for, or more than the
    // last answer's framing allows): the connection has been closed. `bytes`
    // is valid during the call only. One `protocol` error of the connection,
    // not of a request.
    virtual void onStray(std::uint32_t tag, std::string_view bytes, Nanos now) { (void)tag, (void)bytes, (void)now; }
    // The request of `tag` went out on a kept-alive connection that the server
    // had closed (EOF or reset before any byte of answer): it is sent again
    // once on a fresh connection (RFC 9110 9.2.2: an idempotent method).
    virtual void onRetry(std::uint32_t tag, Nanos now) { (void)tag, (void)now; }
    // A connection was set up for the request `tag`: the TCP connect took
    // `connect`; with TLS, the handshake took `handshake` (resumed: an earlier
    // session was taken up again).
    virtual void onConnected(std::uint32_t tag, Nanos connect, Nanos handshake, bool tls, bool resumed)
    {
        (void)tag, (void)connect, (void)handshake, (void)tls, (void)resumed;
    }
};

} // namespace stampede
