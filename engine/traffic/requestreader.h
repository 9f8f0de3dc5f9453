#pragma once
// HTTP/1.0 and 1.1 requests read from a peer's bytes (a gateway's mirror):
// the request line, headers (names lower-cased), and a body framed by
// Content-Length or chunked transfer coding, decoded. Strict: a request both
// chunked and with a length, two different lengths, an obsolete folded line,
// a control character in the target or a value, or anything past the limits
// is an error, and the connection is not to be read further.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

struct HttpRequest
{
    std::string method;
    std::string target;
    bool http10 = false;
    std::vector<std::pair<std::string, std::string>> headers; // lower-case names, in order
    std::string body;
    bool keepAlive = true;
};

class HttpRequestReader
{
public:
    static constexpr std::size_t kHeadLimit = 64 * 1024;     // request line and headers
    static constexpr std::size_t kHeaderCount = 256;         // header lines
    static constexpr std::uint64_t kBodyLimit = 16ull << 20; // a body, decoded
    static constexpr std::size_t kChunkLineLimit = 1024;     // a chunk-size line with its extensions

    enum class Result
    {
        NeedMore,
        Complete,
        Error
    };

    // Reads the request at the front of `data` (everything received and not
    // yet consumed; it may grow between calls, never change). On Complete the
    // request is in `out` and `consumed` says how many bytes of `data` it
    // took; the reader is then ready for the next one.
    Result read(std::string_view data, HttpRequest& out, std::size_t& consumed);
    const std::string& error() const { return m_error; }

private:
    enum class State
    {
        Head,
        Length,
        ChunkSize,
        ChunkData,
        Trailer
    };
    Result head(std::string_view data, HttpRequest& out);
    Result chunks(std::string_view data, HttpRequest& out);
    Result fail(std::string why);
    void reset();

    HttpRequest m_request; // the one being read
    State m_state = State::Head;
    std::size_t m_pos = 0;      // bytes of `data` read so far for this request
    std::size_t m_scanned = 0;  // Head: how far the end of the head has been looked for
    std::uint64_t m_left = 0;   // Length, ChunkData: body bytes still to come
    std::uint64_t m_length = 0; // Length: the body's
    std::string m_error;
};

} // namespace stampede
