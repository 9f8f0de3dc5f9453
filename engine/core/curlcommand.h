#pragma once
// A curl command line, as people paste it from browsers' "Copy as cURL", into
// a request, and back. Understands -X, -H, -d/--data/--data-raw/--data-binary,
// --json, -u, -I, --url, quotes ('...', "...", $'...') and backslash line breaks.
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace stampede {

struct CurlRequest
{
    std::string method;
    std::string url;
    std::vector<std::pair<std::string, std::string>> headers;
    std::string body;
};

// Returns nullopt with `error` set when the text is not a curl command.
std::optional<CurlRequest> parseCurl(const std::string& text, std::string& error);
// A command that curl runs as is (single-quoted for a POSIX shell).
std::string toCurl(const CurlRequest& request);

} // namespace stampede
