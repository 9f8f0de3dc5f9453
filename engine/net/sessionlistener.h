#pragma once
// What a client session (HTTP/1.1 or an HTTP/2 stream) reports to its owner,
// by the tag the owner gave the request.
#include "core/clock.h"
#include "metrics/runmetrics.h"

#include <cstdint>
#include <string>

namespace stampede {

class SessionListener
{
public:
    virtual ~SessionListener() = default;
    // A whole response arrived. `bytesIn` counts its header and body bytes.
    // `errorSample`: for status 400 and above, the start of the answer (status
    // line or pseudo-header, headers, some body) as received.
    virtual void onResponse(std::uint32_t tag, int status, std::uint64_t bytesIn, const std::string& errorSample,
                            Nanos now) = 0;
    // The request failed (for HTTP/1.1, the connection has been closed).
    virtual void onFailure(std::uint32_t tag, ErrorClass error, const std::string& why, Nanos now) = 0;
    // A connection was set up for the request `tag`: the TCP connect took
    // `connect`; with TLS, the handshake took `handshake` (resumed: an earlier
    // session was taken up again).
    virtual void onConnected(std::uint32_t tag, Nanos connect, Nanos handshake, bool tls, bool resumed)
    {
        (void)tag, (void)connect, (void)handshake, (void)tls, (void)resumed;
    }
};

} // namespace stampede
