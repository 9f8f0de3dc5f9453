#pragma once
// One HTTP/1.1 request and its whole response, for the request builder's
// "Send": blocking, with timings. It runs the load path's own Http1Session
// (TCP or TLS, the fuzzed response parser) on an event loop of its own, with
// the headers and the body (up to a cap) kept so a person can read them.
#include "core/clock.h"

#include <string>
#include <utility>
#include <vector>

namespace stampede {

struct HttpExchangeRequest
{
    std::string method = "GET";
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
    Nanos timeout = 30 * kNanosPerSecond;
    bool verify = true; // https: verify the server's certificate
};

struct HttpExchangeResult
{
    bool ok = false;
    std::string error; // when !ok: what went wrong, for the user
    int status = 0;
    std::string reason;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body; // decoded (chunked removed), first `kBodyCap` bytes
    std::uint64_t bodyBytes = 0;
    bool truncated = false;
    Nanos connectTime = 0;
    Nanos totalTime = 0;
    static constexpr std::size_t kBodyCap = 4 * 1024 * 1024;
};

HttpExchangeResult exchange(const HttpExchangeRequest& request);

} // namespace stampede
