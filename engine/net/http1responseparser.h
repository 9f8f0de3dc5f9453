#pragma once
// A streaming HTTP/1.1 response parser: status line, headers, and a body framed
// by Content-Length, chunked transfer coding, or the end of the connection.
// The body is counted and discarded, never buffered; only an incomplete header
// line is kept between reads (up to 16 KiB).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

class Http1ResponseParser
{
public:
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
    const std::string& error() const { return m_error; }
    // The longest header or chunk-size line accepted.
    static constexpr std::size_t kLineLimit = 16 * 1024;

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
    Result fail(std::string message);
    bool headersDone();

    State m_state = State::StatusLine;
    std::string m_line; // partial line carried across reads
    int m_status = 0;
    bool m_keepAlive = true;
    bool m_noBody = false;
    bool m_chunked = false;
    bool m_hasLength = false;
    bool m_started = false;
    bool m_http10 = false;
    std::uint64_t m_contentLength = 0;
    std::uint64_t m_remaining = 0;
    std::uint64_t m_bodyBytes = 0;
    std::string m_error;
};

} // namespace stampede
