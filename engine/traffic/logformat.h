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
//
// A format that is a JSON object (`log_format main escape=json '{"time":
// "$time_iso8601", "req": {"uri": "$request_uri"}, "status": $status}'`)
// reads JSON lines by key: in any order, nested keys by dots ("req.uri"),
// unknown keys ignored. Presets by name: "caddy" and "traefik" (their JSON
// access logs), "envoy" (its default text format) and "haproxy" (the
// `option httplog` format, with or without a syslog prefix).
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

    // Reads one line (without its line break); false with `why`, which names
    // the format and the first field that did not match.
    bool parse(std::string_view line, TrafficRecord& out, std::string& why) const;
    // "combined", a preset's name, "json" or "custom": for messages.
    const std::string& name() const { return m_name; }
    // The presets' names.
    static const std::vector<std::string>& presets();
    // Whether a time variable is in the format (without one, lines have no time).
    bool hasTime() const { return m_hasTime; }
    enum class Var : std::uint8_t; // what a variable fills (logformat.cpp)

private:
    struct Part
    {
        bool literal = true;
        std::string text; // a literal, or a header's lower-case name for $http_*
        Var var{};
        std::string name; // a variable's, for messages
    };
    // A JSON line's key (dotted) and what its value holds; `prefix`: every key under it is a header.
    struct Field
    {
        std::string path;
        std::vector<Part> parts;
        bool prefix = false;
    };
    struct Pending; // a line's $uri and $args until its end
    bool assign(const Part& p, std::string_view value, TrafficRecord& out, std::string& why) const;
    bool match(const std::vector<Part>& parts, std::string_view text, TrafficRecord& out, Pending& pending,
               std::string& why) const;
    bool parseJson(std::string_view line, TrafficRecord& out, Pending& pending, std::string& why) const;
    static bool compileParts(const std::string& format, std::vector<Part>& parts, LogFormat& f, std::string& error);
    static std::optional<LogFormat> compileJson(const std::string& format, std::string& error);
    static std::optional<LogFormat> preset(std::string_view name);
    std::vector<Part> m_parts;
    std::vector<Field> m_fields; // a JSON format's
    bool m_json = false;
    bool m_stripSyslog = false; // HAProxy: "Feb  6 12:14:14 host haproxy[1]: " before the line
    std::string m_name = "custom";
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
