#pragma once
// Access-log lines read by an nginx `log_format`: the directive's text (or
// just its format string) is compiled once into literals and variables, then
// each line is matched in one pass: a variable's value runs up to the next
// literal. The combined format (nginx's and Apache's default) is built in.
//
// Variables that fill a TrafficRecord: $remote_addr, $time_local,
// $time_iso8601, $msec, $request (method, target, protocol), $request_method,
// $request_uri, $uri with $args / $query_string, $request_body, $http_NAME
// (a header: $http_user_agent is User-Agent), $host, $status,
// $request_time. Others nginx logs are known and skipped ($remote_user,
// $body_bytes_sent, $upstream_*, ...); an unknown one is an error naming it.
// Values are unescaped as nginx writes them (\xHH, and JSON's escapes with
// escape=json); "-" is no value.
#include "trafficrecord.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class LogFormat
{
public:
    // `text`: `log_format NAME [escape=...] 'part' "part" ...;` or a bare format
    // string. Null with `error` ("unknown variable $foo in the log format").
    static std::optional<LogFormat> compile(std::string_view text, std::string& error);
    // nginx's `combined` (Apache's combined log format too).
    static const LogFormat& combined();

    // Reads one line (without its line break); false with `why`.
    bool parse(std::string_view line, TrafficRecord& out, std::string& why) const;
    // Whether a time variable is in the format (without one, lines have no time).
    bool hasTime() const { return m_hasTime; }
    enum class Var : std::uint8_t; // what a variable fills (logformat.cpp)

private:
    struct Part
    {
        bool literal = true;
        std::string text; // a literal, or a header's lower-case name for $http_*
        Var var{};
    };
    bool assign(const Part& p, std::string_view value, TrafficRecord& out, std::string& why) const;
    std::vector<Part> m_parts;
    bool m_hasTime = false;
    bool m_hasTarget = false;
};

// "10/Oct/2000:13:55:36 -0700" as nanoseconds since the epoch (UTC).
std::optional<std::int64_t> parseTimeLocal(std::string_view text);
// "2000-10-10T13:55:36-07:00", "2024-05-01T10:00:00.123Z" (fractions allowed).
std::optional<std::int64_t> parseIso8601(std::string_view text);
// nginx's escapes undone: \xHH and \" \\ \n \r \t \uXXXX (escape=json).
std::string unescapeLogValue(std::string_view value);

} // namespace stampede
