#pragma once
// A curl command line, as people paste it from browsers' "Copy as cURL", into
// a request, and back. Quotes ('...', "...", $'...'), backslash line breaks and
// joined short options (-sSL, -XPOST) as a shell and curl read them. Every
// option curl documents (curloptions.h) is applied or named as not taken:
// applied are -X, -H, -A, -b, -e, -I, -G, --url, -d and its kinds (--data-raw,
// --data-binary, --data-ascii, --data-urlencode, --json), -F, -u, -k, -m,
// --http1.1 and --http2; a proxy, a socket or a connect-to that would send the
// request elsewhere is refused; the rest (-L, --compressed, -s, -o, …) are
// named in `notTaken`.
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
    // -F: multipart fields (name=<file, a field's value from a file, is not taken)
    std::vector<std::pair<std::string, std::string>> form;
    // -F name=@path: the fields that send a file (their index in `form`, whose value is then empty) and the path
    // as written; its ;type= and ;filename= are not taken
    std::vector<std::pair<std::size_t, std::string>> formFiles;
    // toCurl: a body that is a file's bytes (--data-binary @path); not read by parseCurl
    std::string bodyFile;
    // -u user:password (Basic; with --digest, Digest)
    bool basic = false;
    bool digest = false;
    std::string user, password;
    bool insecure = false;             // -k
    double maxTimeSeconds = 0;         // -m; 0: not given
    int http = 0;                      // 0: curl's default, 1: --http1.1, 2: --http2 / --http2-prior-knowledge
    std::vector<std::string> notTaken; // options (as written) the request does not carry
};

// Returns nullopt with `error` set when the text is not a curl command.
std::optional<CurlRequest> parseCurl(const std::string& text, std::string& error);
// A command that curl runs as is (single-quoted for a POSIX shell).
std::string toCurl(const CurlRequest& request);

} // namespace stampede
