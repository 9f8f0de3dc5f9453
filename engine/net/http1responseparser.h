#pragma once
// A streaming HTTP/1.1 response parser: status line, headers, and a body framed
// by Content-Length, chunked transfer coding, or the end of the connection.
// The body is counted and discarded, never buffered; only an incomplete header
// line is kept between reads (up to 16 KiB). With a Capture (the request
// builder's Send) it also keeps the reason, the headers, the trailers and the
// decoded body (up to a limit): the same parser for load and for a person.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

class Http1ResponseParser
{
public:
    struct Capture
    {
        std::string reason;
        std::vector<std::pair<std::string, std::string>> headers;
        std::vector<std::pair<std::string, std::string>> trailers; // after a chunked body
        std::string body; // decoded (no chunk framing), the first `bodyLimit` bytes
        std::size_t bodyLimit = 4 * 1024 * 1024;
        bool truncated = false;
    };
    // Keeps what `capture` asks for from the next reset() on; null: nothing kept.
    void setCapture(Capture* capture) { m_capture = capture; }

    enum class Result
    {
        NeedMore,
        Complete,
        Error
    };

    // Prepares for the next response; `noBody` for HEAD requests.
    void reset(bool noBody = false);
    // Consumes bytes of [data, data+size). On Complete, `consumed` tells how
    // many bytes belonged to this response (the rest starts the next one).
    Result feed(const char* data, std::size_t size, std::size_t& consumed);
    // The peer closed the connection: completes a body framed by the close.
    Result finish();

    int status() const { return m_status; }
    bool keepAlive() const { return m_keepAlive; }
    std::uint64_t bodyBytes() const { return m_bodyBytes; }
    // Whether any byte of this response has been seen.
    bool started() const { return m_started; }
    // The final answer's head (status line and headers) has been read: its body, if any, comes next.
    bool headDone() const { return m_state != State::StatusLine && m_state != State::Header; }
    const std::string& error() const { return m_error; }
    // The longest header or chunk-size line accepted.
    static constexpr std::size_t kLineLimit = 16 * 1024;
    // The most bytes of lines (status, headers, chunk sizes, trailers, interim answers) of one response.
    static constexpr std::size_t kHeadLimit = 1024 * 1024;

private:
    enum class State
    {
        StatusLine,
        Header,
        Body,
        BodyUntilClose,
        ChunkSize,
        ChunkData,
        ChunkDataEnd,
        Trailer,
        Done
    };
    bool parseLine(std::string_view line);
    bool parseStatusLine(std::string_view line);
    bool parseHeader(std::string_view line);
    static std::string cleanValue(std::string_view value);
    Result fail(std::string message);
    bool headersDone();
    void keepBody(const char* data, std::size_t n);

    State m_state = State::StatusLine;
    std::string m_line; // partial line carried across reads
    int m_status = 0;
    bool m_keepAlive = true;
    bool m_noBody = false;
    bool m_chunked = false;
    bool m_transferEncoding = false; // a Transfer-Encoding header came (chunked or not)
    bool m_lastFraming = false;      // the last header line was Content-Length or Transfer-Encoding
    std::size_t m_headBytes = 0;
    bool m_hasLength = false;
    bool m_started = false;
    bool m_http10 = false;
    std::uint64_t m_contentLength = 0;
    std::uint64_t m_remaining = 0;
    std::uint64_t m_bodyBytes = 0;
    std::string m_error;
    Capture* m_capture = nullptr;
};

// The one Content-Length rule for requests: a body, or a method that carries
// one (POST, PUT, PATCH) even when empty, is sent with its length.
inline bool requestNeedsLength(std::string_view method, bool hasBody)
{
    return hasBody || method == "POST" || method == "PUT" || method == "PATCH";
}

} // namespace stampede
