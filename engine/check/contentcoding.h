#pragma once
// An answer's body as a script, a check and an extractor read it: decoded
// from its Content-Encoding when that is gzip (x-gzip), deflate (zlib's
// format, or raw deflate as some servers send it) or br (Brotli), as newman and browsers
// decode it. Bounded: a body that inflates past `limit` is cut there (a
// small answer cannot become gigabytes), as a captured body is.
#include "checks.h"

#include <string>
#include <string_view>

namespace stampede {

enum class ContentCoding
{
    Identity, // nothing to decode (no header, "identity", or a coding not decoded here: zstd)
    Gzip,
    Deflate,
    Brotli
};

// The coding a Content-Encoding value names (its last, when several are listed, is applied last).
ContentCoding contentCodingOf(std::string_view headerValue);

// Decodes `body`; false (with `why`, `out` cleared) when it is not of that
// coding or is cut short; `truncated` when it inflated past `limit`.
bool decodeContent(ContentCoding coding, std::string_view body, std::size_t limit, std::string& out, bool& truncated,
                   std::string& why);

// The largest decoded body (as much as a session captures).
constexpr std::size_t kMaxDecodedBody = 4 * 1024 * 1024;

// The answer's body as scripts and checks read it: decoded into `buffer` when
// its Content-Encoding is gzip, deflate or br (cut at kMaxDecodedBody); as
// received otherwise, or when it does not decode (what came is what is read).
std::string_view decodedBody(const AnswerView& a, std::string& buffer);

} // namespace stampede
