#pragma once
// One HTTP/2 request and its whole answer, blocking: for the request builder's
// "Send" (HTTP/2 and gRPC) and for fetching descriptors by server reflection.
// It runs an Http2Session on an event loop of its own until the stream ends.
#include "core/clock.h"
#include "grpcstream.h"
#include "httpexchange.h"
#include "sessionlistener.h"

#include <string>
#include <vector>

namespace stampede {

struct Http2ExchangeRequest
{
    std::string url; // http:// (h2c, prior knowledge) or https:// (h2 by ALPN)
    std::string method = "GET";
    SessionListener::HeaderList headers; // names are sent lower-cased
    std::string body;
    Nanos timeout = 30 * kNanosPerSecond;
    bool grpc = false;                      // read grpc-status and grpc-message
    bool verify = true;                     // https: verify the server's certificate
    std::string caPem;                      // https: the CA to verify against (empty: the system's)
    std::string serverName;                 // https: SNI and the name verified (empty: the URL's host)
    const CallStreamPlan* stream = nullptr; // a streaming call's: `body` holds its messages out, framed
};

struct Http2ExchangeResult
{
    bool ok = false;
    std::string error; // when !ok: what went wrong, for the user
    int status = 0;
    SessionListener::HeaderList headers, trailers;
    std::string body; // the first 16 MiB
    int grpcStatus = -1;
    std::string grpcMessage;
    bool tls = false;
    Nanos connectTime = 0, handshakeTime = 0, totalTime = 0;
    // A streaming call's messages both ways, in order, each framed, with its time from the send (at most
    // kMessageCap; the rest counted in `messagesIn`).
    struct Message
    {
        bool out = false;
        Nanos at = 0;
        std::string frame;
    };
    std::vector<Message> messages;
    std::uint32_t messagesIn = 0;
    static constexpr std::size_t kMessageCap = 10000;
};

Http2ExchangeResult http2Exchange(const Http2ExchangeRequest& request);
// The builder's HTTP request sent over HTTP/2 (h2c for http://, h2 by ALPN
// for https://), answered in HttpExchange's terms; the reason reads "(HTTP/2)".
HttpExchangeResult exchangeOverHttp2(const HttpExchangeRequest& request, bool verify);

} // namespace stampede
