#include "contentcoding.h"

#include "core/text.h"

#include <brotli/decode.h>
#include <cstdint>
#include <zlib.h>

namespace stampede {

ContentCoding contentCodingOf(std::string_view headerValue)
{
    const std::size_t comma = headerValue.rfind(',');
    const std::string last =
        asciiLower(trimSpaces(comma == std::string_view::npos ? headerValue : headerValue.substr(comma + 1)));
    if (last == "gzip" || last == "x-gzip")
        return ContentCoding::Gzip;
    if (last == "deflate")
        return ContentCoding::Deflate;
    if (last == "br")
        return ContentCoding::Brotli;
    return ContentCoding::Identity;
}

namespace {

// One inflate over `body` with `windowBits`; Z_STREAM_END reached, or why not.
int inflateAll(std::string_view body, int windowBits, std::size_t limit, std::string& out, bool& truncated)
{
    z_stream z{};
    if (inflateInit2(&z, windowBits) != Z_OK)
        return Z_MEM_ERROR;
    z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(body.data()));
    z.avail_in = uInt(body.size());
    out.clear();
    truncated = false;
    char chunk[16384];
    int rc = Z_OK;
    while (rc == Z_OK) {
        z.next_out = reinterpret_cast<Bytef*>(chunk);
        z.avail_out = sizeof chunk;
        rc = inflate(&z, Z_NO_FLUSH);
        const std::size_t made = sizeof chunk - z.avail_out;
        if (rc != Z_OK && rc != Z_STREAM_END)
            break;
        if (out.size() + made > limit) {
            out.append(chunk, limit - out.size());
            truncated = true;
            rc = Z_STREAM_END;
            break;
        }
        out.append(chunk, made);
        if (rc == Z_OK && made == 0 && z.avail_in == 0) {
            rc = Z_BUF_ERROR; // the input ended before the stream did
            break;
        }
    }
    inflateEnd(&z);
    return rc;
}

// Brotli (RFC 7932) over `body`, streamed in chunks so that `limit` bounds what is made; true at its end.
bool brotliAll(std::string_view body, std::size_t limit, std::string& out, bool& truncated, std::string& why)
{
    BrotliDecoderState* s = BrotliDecoderCreateInstance(nullptr, nullptr, nullptr);
    if (!s) {
        why = "br: no memory";
        return false;
    }
    const auto* in = reinterpret_cast<const std::uint8_t*>(body.data());
    std::size_t availIn = body.size();
    out.clear();
    truncated = false;
    std::uint8_t chunk[16384];
    BrotliDecoderResult rc = BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT;
    while (rc == BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT) {
        std::uint8_t* next = chunk;
        std::size_t availOut = sizeof chunk;
        rc = BrotliDecoderDecompressStream(s, &availIn, &in, &availOut, &next, nullptr);
        const std::size_t made = sizeof chunk - availOut;
        if (out.size() + made > limit) {
            out.append(reinterpret_cast<const char*>(chunk), limit - out.size());
            truncated = true;
            rc = BROTLI_DECODER_RESULT_SUCCESS;
            break;
        }
        out.append(reinterpret_cast<const char*>(chunk), made);
    }
    if (rc != BROTLI_DECODER_RESULT_SUCCESS)
        why =
            rc == BROTLI_DECODER_RESULT_NEEDS_MORE_INPUT
                ? "br body cut short"
                : "br body not readable (" + std::string(BrotliDecoderErrorString(BrotliDecoderGetErrorCode(s))) + ")";
    BrotliDecoderDestroyInstance(s);
    return rc == BROTLI_DECODER_RESULT_SUCCESS;
}

} // namespace

bool decodeContent(ContentCoding coding, std::string_view body, std::size_t limit, std::string& out, bool& truncated,
                   std::string& why)
{
    truncated = false;
    if (coding == ContentCoding::Identity) {
        out.assign(body.substr(0, limit));
        truncated = body.size() > limit;
        return true;
    }
    if (body.size() > 0xFFFFFFFFu) {
        why = "a compressed body over 4 GiB";
        out.clear();
        return false;
    }
    if (coding == ContentCoding::Brotli) {
        if (brotliAll(body, limit, out, truncated, why))
            return true;
        out.clear();
        return false;
    }
    // gzip: its header; deflate: zlib's header (RFC 9110), else raw deflate as some servers send it
    int rc = inflateAll(body, coding == ContentCoding::Gzip ? 16 + MAX_WBITS : MAX_WBITS, limit, out, truncated);
    if (rc != Z_STREAM_END && coding == ContentCoding::Deflate)
        rc = inflateAll(body, -MAX_WBITS, limit, out, truncated);
    if (rc == Z_STREAM_END)
        return true;
    why = std::string(coding == ContentCoding::Gzip ? "gzip" : "deflate") +
          (rc == Z_BUF_ERROR ? " body cut short" : " body not readable (" + std::string(zError(rc)) + ")");
    out.clear();
    return false;
}

std::string_view decodedBody(const AnswerView& a, std::string& buffer)
{
    const std::string* encoding = a.headers ? findHeader(a, "content-encoding") : nullptr;
    const ContentCoding coding = encoding ? contentCodingOf(*encoding) : ContentCoding::Identity;
    if (coding == ContentCoding::Identity || a.body.empty())
        return a.body;
    bool truncated = false;
    std::string why;
    return decodeContent(coding, a.body, kMaxDecodedBody, buffer, truncated, why) ? std::string_view(buffer) : a.body;
}

} // namespace stampede
