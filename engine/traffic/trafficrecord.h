#pragma once
// One recorded request of real traffic (an access log line, a HAR entry): when
// it was sent, by whom, and what it was. What the recording did not keep
// (a log without bodies or headers) is empty.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

struct TrafficRecord
{
    std::int64_t atNanos = 0; // when it was sent: nanoseconds since the Unix epoch, UTC
    std::string client;       // who sent it ($remote_addr; empty when unknown)
    std::string method = "GET";
    std::string target; // origin form ("/a?b=1") or, from HAR, the absolute URL
    std::string host;   // the Host header or the URL's authority; empty when unknown
    std::vector<std::pair<std::string, std::string>> headers; // lower-case names, as recorded
    std::string body;
    int status = 0;        // the recorded answer's status; 0 when unknown
    double durationS = -1; // the recorded request time; -1 when unknown
};

// Headers of the connection, not of the request: not kept in a record.
inline bool isHopByHopHeader(std::string_view lower)
{
    return lower == "content-length" || lower == "connection" || lower == "keep-alive" ||
           lower == "transfer-encoding" || lower == "upgrade" || lower == "te" || lower == "proxy-connection";
}

// A line (or entry) that could not be read: its 1-based number and why.
struct TrafficProblem
{
    std::uint64_t line = 0;
    std::string why;
    std::string text; // the line (at most 200 bytes of it)
};

} // namespace stampede
