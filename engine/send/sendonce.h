#pragma once
// The workbench's Send, on the run's own path: one step as written (the
// request, its form and auth with ${…}), compiled as a run compiles it with
// the given values as constants, rendered by the run's renderer, and sent
// once, blocking (call it off the GUI thread), over HTTP/1.1 or HTTP/2; a
// gRPC call's answer is decoded to JSON with its schema; a WebSocket step is
// one conversation (net/wsexchange.h). So what Send sends
// is byte for byte what a run sends for the same step and values.
#include "net/http2exchange.h"
#include "net/httpexchange.h"
#include "net/wsexchange.h"

#include <string>
#include <utility>
#include <vector>

namespace stampede {

namespace v1 {
class Step;
}

struct SendOnceRequest
{
    // A scenario step's JSON (proto3), the request as written. Its checks,
    // extractions and think time are the caller's, not sent.
    std::string stepJson;
    // ${name} -> value, as constants (the environment, the data sets' first
    // rows, a name nothing defines as its own text "${name}").
    std::vector<std::pair<std::string, std::string>> values;
    bool http2 = false;  // an HTTP request over HTTP/2 (h2c for http://); gRPC always is
    std::string baseDir; // where the request's files (a form's file fields) are read from: the project's folder
};

// The request as it went out (for the history and for a person to read).
struct SentRequest
{
    std::string method;
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

// An event stream read once (the builder's Send of an `sse` step): each event as it came, with its time.
struct SseExchangeResult
{
    bool ok = false;   // the awaited events came
    std::string error; // else why (the status, the type, the stream's end, the timeout)
    struct Event
    {
        Nanos at = 0; // since the send
        std::string id, type, data;
    };
    std::vector<Event> events; // at most kEventCap (the rest counted in `received`)
    std::uint32_t received = 0;
    std::vector<std::pair<std::string, std::string>> headers; // the stream's
    int status = 0;                                           // the stream's HTTP status
    std::string answer; // the last awaited event's data (what checks and a test script read)
    Nanos totalTime = 0;
    static constexpr std::size_t kEventCap = 10000;
};

struct SendOnceResult
{
    std::string error; // set: not sent (the step's fault, named by its field), nothing else is
    SentRequest sent;
    bool grpc = false;
    HttpExchangeResult http;  // an HTTP request's answer
    Http2ExchangeResult call; // a gRPC call's answer
    bool websocket = false;   // a WebSocket conversation: `ws` (the upgrade as sent is `sent`)
    WsExchangeResult ws;
    bool eventStream = false; // an event stream: `sse`
    SseExchangeResult sse;
    std::string answerJson;  // its message as JSON (grpc-status 0; a streaming call's last awaited one)
    std::string answerError; // why the message could not be read
    // A streaming call's messages both ways, as JSON (the message's type; a message that does not read: why),
    // each with its time from the send (r.call.messages, decoded).
    struct CallMessage
    {
        bool out = false;
        Nanos at = 0;
        std::string json;
        std::size_t bytes = 0;
    };
    std::vector<CallMessage> callMessages;
    // The step's scripts, run as a run runs them: the test script's pm.test
    // results, what the scripts set of names the requests use, their
    // console.log lines, and why one failed ("" none; a pre-request script's
    // failure is `error`: nothing was sent).
    struct Test
    {
        std::string name;
        bool passed = false;
        std::string error;
    };
    std::vector<Test> tests;
    std::vector<std::pair<std::string, std::string>> scriptSet;
    std::vector<std::string> scriptLogs;
    std::string scriptError;
    bool skipped = false; // the pre-request script said pm.execution.skipRequest(): nothing was sent
};

SendOnceResult sendOnce(const SendOnceRequest& request);
// The same request rendered and not sent (a curl command of it); false with `error`.
bool renderOnce(const SendOnceRequest& request, SentRequest& out, std::string& error);

} // namespace stampede
