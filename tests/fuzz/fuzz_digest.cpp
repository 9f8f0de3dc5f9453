// libFuzzer target: the WWW-Authenticate reader of Digest authentication
// (flow/digest.h) and the Authorization made from what it read. Each line of
// the input is one WWW-Authenticate value, as a server sent it (the seeds are
// lighttpd's, postman-echo's and RFC 7616's); the answer to a challenge read
// must be one header line that holds no byte a header cannot.
#include "flow/digest.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::size_t start = 0;
    while (start <= input.size()) {
        std::size_t end = input.find('\n', start);
        if (end == std::string::npos)
            end = input.size();
        const auto c = stampede::parseDigestChallenge(std::string_view(input).substr(start, end - start));
        start = end + 1;
        if (!c)
            continue;
        if (c->nonce.empty() || (c->qop != "" && c->qop != "auth" && c->qop != "auth-int"))
            __builtin_trap();
        stampede::DigestAnswerInput in;
        in.user = "u\"\\";
        in.password = "p";
        in.method = "GET";
        in.uri = "/x";
        in.cnonce = "0a4f113b";
        const std::string header = stampede::digestAuthorization(*c, in);
        if (header.rfind("Digest username=", 0) != 0)
            __builtin_trap(); // every challenge read can be answered
        for (const char ch : header)
            if ((static_cast<unsigned char>(ch) < 0x20 && ch != '\t') || ch == 0x7f)
                __builtin_trap(); // never a byte that ends or breaks the header line
    }
    return 0;
}
