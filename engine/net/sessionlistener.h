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

// What a request submitted for capture keeps of its answer (Answer::headers,
// trailers, body): nothing, the headers (and trailers), or the body too.
enum class CaptureMode : std::uint8_t
{
    None,
    Head,
    All
};

// What became of a request: its answer, or why none came. Everything it
// points to is valid during the listener's call only.
struct Answer
{
    using HeaderList = std::vector<std::pair<std::string, std::string>>;
    // No answer: the request failed (the transport, a timeout, a reset
    // stream; for HTTP/1.1 the connection has been closed), as `error`, `why`.
    bool failed = false;
    ErrorClass error = ErrorClass::Protocol;
    std::string_view why;
    int status = 0;            // the HTTP status (a gRPC call's is 200)
    std::uint64_t bytesIn = 0; // its header and body bytes
    // From the request's write (after any connect and TLS handshake) to the
    // answer's first bytes (read in a batch: the batch's time); -1: not timed.
    Nanos timeToFirstByte = -1;
    std::string_view errorSample; // status >= 400: the answer's start as received (status, headers, some body)
    // The answer as its protocol judges it, the same for every protocol: `code` is what a status check compares
    // (HTTP's status; a call protocol's own, gRPC's grpc-status), `statusName` what the protocol calls it,
    // `codeName` its name for the code (gRPC's NOT_FOUND; none for HTTP), `statusMessage` the server's words on it
    // (grpc-message). `statusError`: not a success by the protocol's rule, as it is counted (Http4xx, Http5xx,
    // Grpc); Count: a success. A failed request may carry one too: a deadline that the protocol turns into a
    // status (gRPC's DEADLINE_EXCEEDED).
    int code = 0;
    ErrorClass statusError = ErrorClass::Count;
    std::string_view statusName = "status";
    std::string_view codeName;
    std::string_view statusMessage;
    // A WebSocket conversation's replies: each from its message's send (the n-th in to the n-th out; else null).
    const std::vector<Nanos>* messageLatencies = nullptr;
    // Sent with a capture mode: what the server sent (else null).
    const HeaderList* headers = nullptr;
    const HeaderList* trailers = nullptr;
    const std::string* body = nullptr;

    // An HTTP answer's status: its code, and an error from 400 on.
    void setHttpStatus(int s)
    {
        status = code = s;
        statusError = s < 400 ? ErrorClass::Count : s < 500 ? ErrorClass::Http4xx : ErrorClass::Http5xx;
    }
    bool statusFailed() const { return statusError != ErrorClass::Count; }

    static Answer failure(ErrorClass e, std::string_view why)
    {
        Answer a;
        a.failed = true;
        a.error = e;
        a.why = why;
        return a;
    }
};

class SessionListener
{
public:
    virtual ~SessionListener() = default;
    using HeaderList = Answer::HeaderList;
    // The outcome of the request sent with `tag`: one call per request. The
    // listener may send the next request from inside it.
    virtual void onAnswer(std::uint32_t tag, const Answer& answer, Nanos now) = 0;
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
    // The request of `tag` is sent again (once) because the server said it
    // had not processed it: an HTTP/2 stream refused (REFUSED_STREAM) or past
    // a GOAWAY's last stream (RFC 9113 8.7).
    virtual void onResent(std::uint32_t tag, Nanos now) { (void)tag, (void)now; }
    // A stream step's messages as they go and come (a WebSocket message sent or received, an event read), counted
    // in the second they happen, before the step's answer.
    virtual void onStreamMessages(std::uint32_t tag, std::uint32_t out, std::uint32_t in, Nanos now)
    {
        (void)tag, (void)out, (void)in, (void)now;
    }
    // A streaming gRPC call's message in (its frame: the 5-byte prefix and its bytes), for a listener that shows
    // each (the builder's Send); told when the call keeps its messages (a capture of the body, or a `match`).
    virtual void onCallMessage(std::uint32_t tag, std::string_view frame, Nanos now)
    {
        (void)tag, (void)frame, (void)now;
    }
    // A connection was set up for the request `tag`: the TCP connect took
    // `connect`; with TLS, the handshake took `handshake` (resumed: an earlier
    // session was taken up again).
    virtual void onConnected(std::uint32_t tag, Nanos connect, Nanos handshake, bool tls, bool resumed)
    {
        (void)tag, (void)connect, (void)handshake, (void)tls, (void)resumed;
    }
};

} // namespace stampede
