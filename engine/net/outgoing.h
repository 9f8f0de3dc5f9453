#pragma once
// A request on its way to a client session: the request as rendered (the
// form its protocol sends), where it goes, and what the session applies to
// it as it encodes it - the user's Cookie header, a redirect hop's method and
// target. The session owns the encoding: HTTP/1.1 bytes, HTTP/2 (and gRPC on
// HTTP/2) header lists; the worker above it never touches either.
#include "core/clock.h"
#include "core/template.h"
#include "endpoint.h"
#include "grpcstream.h"
#include "metrics/runmetrics.h"
#include "sessionlistener.h"

#include <nghttp2/nghttp2.h>

#include <string>
#include <string_view>
#include <vector>

namespace stampede {

// A WebSocket step's conversation (its upgrade request is the step's head, rendered as an HTTP/1.1 GET; the
// plan compiles it, the sessions carry it out: wssessions.h).
struct WsPlan
{
    std::vector<Template> messages;
    std::vector<bool> binary;           // per message: a binary one (else text)
    std::vector<std::string> protocols; // subprotocols offered
    std::uint32_t receive = 0;          // messages awaited before the close
    bool requestReply = false;          // each message sent once the one before has had its reply
    bool keepOpen = false;              // the connection stays open for the user's next step to the same URL
    std::string match;                  // only messages holding this text are awaited ("" all)
    bool deflate = false;               // permessage-deflate offered (its header is in the rendered upgrade)
};

// A Server-Sent Events step's stream (its request is the step's GET, rendered as an HTTP/1.1 request; the
// sessions read it: ssesessions.h).
struct SsePlan
{
    std::uint32_t receive = 1;    // events awaited
    std::uint32_t reconnects = 0; // connections again after the stream ended early, each with Last-Event-ID
    std::string event;            // only events of this type count ("" all)
};

// A request as rendered for its protocol. The session reads it until the
// request's outcome is reported, so it must not change before then.
struct RenderedRequest
{
    std::string wire;                // HTTP/1.1: the whole request
    std::vector<std::string> values; // HTTP/2: header values, in the plan's h2Headers order
    std::string body;                // HTTP/2: the body (gRPC: the framed message)
    std::vector<nghttp2_nv> nv;      // HTTP/2: the header list nghttp2 reads, pointing into the plan and `values`
    std::vector<std::string> extra;  // HTTP/2: names and values a pre-request script added (the list points into it)
    std::vector<std::string> digest; // Digest authentication's fields, expanded (plan's DigestPlan order); else empty
    std::size_t bytes = 0;           // bytes out, for the counters
    std::string failure; // set: the request could not be made (a value its field refuses, gRPC JSON that does not fit)
    ErrorClass failureClass = ErrorClass::Render; // how such a request is counted (it is not sent)
    const Endpoint* endpoint = nullptr; // set: where it goes, found as it was rendered (else the step's server)
    std::vector<std::string> messages;  // a WebSocket step's messages, in order
};

// The request target (path and query) of a rendered request.
std::string_view requestTarget(const RenderedRequest& r);

// The protocol a request speaks, as its session needs to know it: HTTP (1.1 or 2), or a gRPC call on HTTP/2
// (its answer is judged by grpc-status, its deadline ends it as DEADLINE_EXCEEDED).
enum class Protocol : std::uint8_t
{
    Http,
    Grpc,
    WebSocket,  // a conversation: the upgrade, the messages out, the awaited messages in (wssessions.h)
    EventStream // a Server-Sent Events stream read until the awaited events (ssesessions.h)
};

struct Outgoing
{
    const RenderedRequest* request = nullptr;
    const Endpoint* endpoint = nullptr;
    std::uint32_t server = 0;    // the endpoint's place among the plan's servers (HTTP/2: its connections)
    Nanos timeout = 0;           // from the send to the end of the answer
    bool noResponseBody = false; // HEAD: the answer has no body whatever its headers say
    Protocol protocol = Protocol::Http;
    CaptureMode capture = CaptureMode::None;
    const WsPlan* ws = nullptr;   // a WebSocket step's: subprotocols, which messages are binary, what to await
    const SsePlan* sse = nullptr; // an event stream step's: what to await, how often to reconnect
    const CallStreamPlan* callStream = nullptr; // a streaming gRPC call's: its pacing, what to await
    // Applied by the session as it encodes the request (empty: as rendered).
    std::string_view cookie;        // a Cookie header's value
    std::string_view authorization; // an Authorization header's value (a Digest challenge answered)
    std::string_view method;        // a redirect hop: its method and target
    std::string_view target;
    bool dropBody = false; // the hop goes without the body and its Content-Length and Content-Type
};

// `o` aimed where its request was found to go as it was rendered (a host set at run time), if it was.
inline void aimAtRendered(Outgoing& o)
{
    if (o.request && o.request->endpoint)
        o.endpoint = o.request->endpoint;
}

// Whether the session must encode `o` anew (else the rendered form goes as it is).
inline bool changesRequest(const Outgoing& o)
{
    return !o.cookie.empty() || !o.authorization.empty() || !o.method.empty() || !o.target.empty() || o.dropBody;
}

// HTTP/1.1: the request with the Outgoing's changes, into `out`.
void encodeHttp1(const Outgoing& o, std::string& out);

// HTTP/2: the header list with the Outgoing's changes. The list points into
// the rendered request and into this encoding's own strings, so one is kept
// per request in flight.
struct Http2Encoding
{
    std::vector<nghttp2_nv> nv;
    std::string method, target, cookie, authorization;
    std::string_view body;
    std::size_t bytes = 0;
};
void encodeHttp2(const Outgoing& o, Http2Encoding& out);

} // namespace stampede
