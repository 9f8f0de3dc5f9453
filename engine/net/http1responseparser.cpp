#include "http1responseparser.h"

#include "core/text.h"

#include <charconv>
#include <cstring>

namespace stampede {

namespace {
bool containsTokenNoCase(std::string_view value, std::string_view token)
{
    std::size_t pos = 0;
    while (pos <= value.size()) {
        std::size_t comma = value.find(',', pos);
        if (comma == std::string_view::npos)
            comma = value.size();
        std::string_view item = value.substr(pos, comma - pos);
        while (!item.empty() && (item.front() == ' ' || item.front() == '\t'))
            item.remove_prefix(1);
        while (!item.empty() && (item.back() == ' ' || item.back() == '\t'))
            item.remove_suffix(1);
        if (equalsNoCase(item, token))
            return true;
        pos = comma + 1;
    }
    return false;
}
} // namespace

void Http1ResponseParser::reset(bool noBody)
{
    m_state = State::StatusLine;
    m_line.clear();
    m_status = 0;
    m_keepAlive = true;
    m_noBody = noBody;
    m_chunked = false;
    m_transferEncoding = false;
    m_lastFraming = false;
    m_headBytes = 0;
    m_hasLength = false;
    m_started = false;
    m_http10 = false;
    m_contentLength = 0;
    m_remaining = 0;
    m_bodyBytes = 0;
    m_error.clear();
    if (m_capture) {
        const std::size_t limit = m_capture->bodyLimit;
        *m_capture = Capture();
        m_capture->bodyLimit = limit;
    }
}

void Http1ResponseParser::keepBody(const char* data, std::size_t n)
{
    const std::size_t room = m_capture->bodyLimit - std::min(m_capture->bodyLimit, m_capture->body.size());
    m_capture->body.append(data, std::min(n, room));
    m_capture->truncated |= n > room;
}

Http1ResponseParser::Result Http1ResponseParser::fail(std::string message)
{
    m_error = std::move(message);
    m_state = State::Done;
    return Result::Error;
}

bool Http1ResponseParser::parseStatusLine(std::string_view line)
{
    // HTTP/1.1 200 OK
    if (line.size() < 12 || line.substr(0, 7) != "HTTP/1." || (line[7] != '0' && line[7] != '1') || line[8] != ' ')
        return false;
    m_http10 = line[7] == '0';
    m_keepAlive = !m_http10;
    int status = 0;
    for (int i = 9; i < 12; ++i) {
        if (line[i] < '0' || line[i] > '9')
            return false;
        status = status * 10 + (line[i] - '0');
    }
    if (line.size() > 12 && line[12] != ' ')
        return false;
    if (status < 100 || status > 599) {
        m_error = "status " + std::to_string(status) + " is outside 100-599 (RFC 9110 15)";
        return false;
    }
    if (status == 101) {
        m_error = "101 Switching Protocols to a request that asked for no upgrade";
        return false;
    }
    m_status = status;
    if (m_capture && line.size() > 13)
        m_capture->reason = std::string(line.substr(13));
    return true;
}

// What a captured field value keeps: RFC 9110 5.5 - a CR, LF or NUL in a
// value is replaced with SP before anything reads it (an extraction, a
// cookie, a redirect's Location), so none can reach a request written later.
std::string Http1ResponseParser::cleanValue(std::string_view value)
{
    std::string v(value);
    for (char& c : v)
        if (c == '\r' || c == '\n' || c == '\0')
            c = ' ';
    return v;
}

bool Http1ResponseParser::parseHeader(std::string_view line)
{
    if (line.front() == ' ' || line.front() == '\t') {
        // obsolete line folding (RFC 9112 5.2): the value goes on, after one SP;
        // a folded framing header could be read two ways, so it is refused
        if (m_lastFraming) {
            m_error = "obsolete line folding of a framing header";
            return false;
        }
        if (m_capture && !m_capture->headers.empty()) {
            while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
                line.remove_prefix(1);
            m_capture->headers.back().second += " " + cleanValue(line);
        }
        return true;
    }
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos || colon == 0)
        return false;
    const std::string_view name = line.substr(0, colon);
    if (!isHttpToken(name)) // "Content-Length :" is no Content-Length to one reader and is to another
        return false;
    std::string_view value = line.substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t'))
        value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t'))
        value.remove_suffix(1);
    if (m_capture)
        (m_state == State::Trailer ? m_capture->trailers : m_capture->headers).emplace_back(name, cleanValue(value));
    m_lastFraming = false;
    if (m_state == State::Trailer)
        return true; // framing headers in trailers are not obeyed
    switch (name.size()) {
    case 14:
        if (equalsNoCase(name, "content-length")) {
            m_lastFraming = true;
            // one number, or a list of the same number (RFC 9110 8.6)
            for (std::size_t pos = 0; pos <= value.size();) {
                std::size_t comma = value.find(',', pos);
                if (comma == std::string_view::npos)
                    comma = value.size();
                const std::string_view item = trimSpaces(value.substr(pos, comma - pos));
                std::uint64_t n = 0;
                const auto r = std::from_chars(item.data(), item.data() + item.size(), n);
                if (item.empty() || r.ec != std::errc() || r.ptr != item.data() + item.size()) {
                    m_error = "malformed Content-Length";
                    return false;
                }
                if (m_hasLength && n != m_contentLength) {
                    m_error = "two different Content-Length values";
                    return false;
                }
                m_hasLength = true;
                m_contentLength = n;
                pos = comma + 1;
            }
        }
        break;
    case 17:
        if (equalsNoCase(name, "transfer-encoding")) {
            m_lastFraming = true;
            m_transferEncoding = true;
            // chunked must be the last coding; anything else is read to the close (RFC 9112 6.3)
            std::string_view last = value.substr(value.rfind(',') == std::string_view::npos ? 0 : value.rfind(',') + 1);
            while (!last.empty() && (last.front() == ' ' || last.front() == '\t'))
                last.remove_prefix(1);
            m_chunked = equalsNoCase(last, "chunked");
        }
        break;
    case 10:
        if (equalsNoCase(name, "connection")) {
            if (containsTokenNoCase(value, "close"))
                m_keepAlive = false;
            else if (containsTokenNoCase(value, "keep-alive"))
                m_keepAlive = true;
        }
        break;
    default:
        break;
    }
    return true;
}

bool Http1ResponseParser::headersDone()
{
    // 1xx interim responses are followed by the real one.
    if (m_status >= 100 && m_status < 200) {
        const bool noBody = m_noBody;
        const std::size_t head = m_headBytes; // interim answers count toward the head's limit
        reset(noBody);
        m_headBytes = head;
        m_started = true;
        return true;
    }
    if (m_transferEncoding && m_hasLength)
        m_keepAlive = false; // both framings (RFC 9112 6.3): the chunks are read, the connection is not kept
    if (m_noBody || m_status == 204 || m_status == 304) {
        m_state = State::Done;
    } else if (m_chunked) {
        m_state = State::ChunkSize;
    } else if (m_transferEncoding) {
        m_state = State::BodyUntilClose;
        m_keepAlive = false;
    } else if (m_hasLength) {
        m_remaining = m_contentLength;
        m_state = m_remaining ? State::Body : State::Done;
    } else {
        m_state = State::BodyUntilClose;
        m_keepAlive = false;
    }
    return true;
}

bool Http1ResponseParser::parseLine(std::string_view line)
{
    if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
    switch (m_state) {
    case State::StatusLine:
        if (!parseStatusLine(line)) {
            if (m_error.empty())
                m_error = "not an HTTP/1.x status line";
            return false;
        }
        m_state = State::Header;
        return true;
    case State::Header:
        if (line.empty())
            return headersDone();
        if (!parseHeader(line)) {
            if (m_error.empty())
                m_error = "malformed header line";
            return false;
        }
        return true;
    case State::ChunkSize: {
        const std::size_t semi = line.find(';');
        const std::string_view hex = line.substr(0, semi);
        std::uint64_t n = 0;
        const auto r = std::from_chars(hex.data(), hex.data() + hex.size(), n, 16);
        if (hex.empty() || r.ec != std::errc() || (r.ptr != hex.data() + hex.size() && *r.ptr != ' ')) {
            m_error = "malformed chunk size";
            return false;
        }
        m_remaining = n;
        m_state = n ? State::ChunkData : State::Trailer;
        return true;
    }
    case State::ChunkDataEnd:
        if (!line.empty()) {
            m_error = "chunk data longer than its size";
            return false;
        }
        m_state = State::ChunkSize;
        return true;
    case State::Trailer:
        if (line.empty())
            m_state = State::Done;
        else if (m_capture && line.find(':') != std::string_view::npos && line.front() != ' ' && line.front() != '\t')
            parseHeader(line); // kept as a trailer; framing headers there are not obeyed
        return true;
    default:
        return false;
    }
}

Http1ResponseParser::Result Http1ResponseParser::feed(const char* data, std::size_t size, std::size_t& consumed)
{
    std::size_t pos = 0;
    if (size)
        m_started = true;
    while (pos < size || m_state == State::Done) {
        switch (m_state) {
        case State::Done:
            consumed = pos;
            return Result::Complete;
        case State::Body:
        case State::ChunkData: {
            const std::size_t n = std::size_t(std::min<std::uint64_t>(m_remaining, size - pos));
            if (m_capture)
                keepBody(data + pos, n);
            m_remaining -= n;
            m_bodyBytes += n;
            pos += n;
            if (!m_remaining)
                m_state = m_state == State::Body ? State::Done : State::ChunkDataEnd;
            continue;
        }
        case State::BodyUntilClose:
            if (m_capture)
                keepBody(data + pos, size - pos);
            m_bodyBytes += size - pos;
            pos = size;
            continue;
        default: {
            const char* nl = static_cast<const char*>(std::memchr(data + pos, '\n', size - pos));
            if (!nl) {
                if (m_line.size() + (size - pos) > kLineLimit)
                    return fail("header line longer than 16 KiB");
                m_line.append(data + pos, size - pos);
                pos = size;
                continue;
            }
            const std::size_t len = std::size_t(nl - (data + pos));
            if (m_line.size() + len > kLineLimit) // the same limit however the line was split
                return fail("header line longer than 16 KiB");
            m_headBytes += m_line.size() + len + 1;
            if (m_headBytes > kHeadLimit)
                return fail("the response's head (or its trailers) is over 1 MiB");
            bool ok;
            if (m_line.empty()) {
                ok = parseLine(std::string_view(data + pos, len));
            } else {
                m_line.append(data + pos, len);
                ok = parseLine(m_line);
                m_line.clear();
            }
            if (!ok) {
                const std::string msg = m_error;
                return fail(msg);
            }
            pos += len + 1;
        }
        }
    }
    consumed = pos;
    return Result::NeedMore;
}

Http1ResponseParser::Result Http1ResponseParser::finish()
{
    if (m_state == State::BodyUntilClose) {
        m_state = State::Done;
        return Result::Complete;
    }
    if (m_state == State::Done)
        return Result::Complete;
    return fail(m_started ? "the connection closed in the middle of a response" : "the connection closed");
}

} // namespace stampede
