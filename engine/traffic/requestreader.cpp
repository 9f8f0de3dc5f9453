#include "requestreader.h"

#include "core/number.h"
#include "core/text.h"

namespace stampede {

namespace {

bool badValueByte(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && c != '\t') || u == 0x7f;
}

bool validTarget(std::string_view t)
{
    if (t.empty())
        return false;
    for (const char c : t) {
        const auto u = static_cast<unsigned char>(c);
        if (u <= 0x20 || u == 0x7f)
            return false;
    }
    return true;
}

} // namespace

void HttpRequestReader::reset()
{
    m_state = State::Head;
    m_pos = m_scanned = 0;
    m_left = m_length = 0;
}

HttpRequestReader::Result HttpRequestReader::fail(std::string why)
{
    m_error = std::move(why);
    return Result::Error;
}

HttpRequestReader::Result HttpRequestReader::read(std::string_view data, HttpRequest& out, std::size_t& consumed)
{
    HttpRequest& r = m_request; // kept across calls until it is complete
    if (m_state == State::Head) {
        const Result got = head(data, r);
        if (got != Result::Complete)
            return got;
    }
    if (m_state == State::Length) {
        const std::size_t take = std::size_t(std::min<std::uint64_t>(m_left, data.size() - m_pos));
        m_left -= take;
        m_pos += take;
        if (m_left)
            return Result::NeedMore;
        r.body.assign(data.substr(m_pos - std::size_t(m_length), std::size_t(m_length)));
    } else if (m_state != State::Head) {
        const Result got = chunks(data, r);
        if (got != Result::Complete)
            return got;
    }
    out = std::move(r);
    r = HttpRequest{};
    consumed = m_pos;
    reset();
    return Result::Complete;
}

HttpRequestReader::Result HttpRequestReader::head(std::string_view data, HttpRequest& out)
{
    // tolerated: empty lines before a request line (RFC 9112 2.2)
    std::size_t start = 0;
    while (start + 1 < data.size() && data[start] == '\r' && data[start + 1] == '\n')
        start += 2;
    const std::size_t from = m_scanned > start + 3 ? m_scanned - 3 : start;
    const std::size_t end = data.find("\r\n\r\n", from);
    if (end == std::string_view::npos) {
        m_scanned = data.size();
        return data.size() - start > kHeadLimit ? fail("the request's head passes 64 KiB") : Result::NeedMore;
    }
    if (end - start > kHeadLimit)
        return fail("the request's head passes 64 KiB");
    out = HttpRequest{};
    const std::string_view head = data.substr(start, end - start);
    std::size_t lineEnd = head.find("\r\n");
    const std::string_view line = head.substr(0, lineEnd);
    const std::size_t sp1 = line.find(' ');
    const std::size_t sp2 = line.rfind(' ');
    if (sp1 == std::string_view::npos || sp2 == sp1)
        return fail("not an HTTP request line");
    const std::string_view method = line.substr(0, sp1), version = line.substr(sp2 + 1);
    out.target.assign(line.substr(sp1 + 1, sp2 - sp1 - 1));
    if (!isHttpToken(method))
        return fail("not an HTTP method");
    if (!validTarget(out.target))
        return fail("a request target with a space or a control character");
    if (version == "HTTP/1.0")
        out.http10 = true;
    else if (version != "HTTP/1.1")
        return fail("not HTTP/1.0 or HTTP/1.1");
    out.method.assign(method);
    out.keepAlive = !out.http10;
    bool chunked = false, haveLength = false;
    std::uint64_t length = 0;
    std::size_t pos = lineEnd == std::string_view::npos ? head.size() : lineEnd + 2;
    while (pos < head.size()) {
        std::size_t e = head.find("\r\n", pos);
        if (e == std::string_view::npos)
            e = head.size();
        const std::string_view h = head.substr(pos, e - pos);
        pos = e + 2;
        if (out.headers.size() == kHeaderCount)
            return fail("more than 256 header lines");
        if (!h.empty() && (h[0] == ' ' || h[0] == '\t'))
            return fail("an obsolete folded header line");
        const std::size_t colon = h.find(':');
        if (colon == std::string_view::npos || colon == 0 || !isHttpToken(h.substr(0, colon)))
            return fail("a header line without a name and a colon");
        const std::string_view value = trimSpaces(h.substr(colon + 1));
        for (const char c : value)
            if (badValueByte(c))
                return fail("a control character in a header's value");
        std::string name = asciiLower(h.substr(0, colon));
        if (name == "content-length") {
            std::uint64_t n = 0;
            std::string why;
            if (!parseWhole(value, "content-length", 0, kBodyLimit, n, why))
                return fail(why);
            if (haveLength && n != length)
                return fail("two different content-length headers");
            haveLength = true;
            length = n;
        } else if (name == "transfer-encoding") {
            const std::string_view last = trimSpaces(value.substr(value.rfind(',') + 1));
            if (!equalsNoCase(last, "chunked"))
                return fail("a transfer coding other than chunked");
            chunked = true;
        } else if (name == "connection") {
            if (asciiLower(value).find("close") != std::string::npos)
                out.keepAlive = false;
            else if (asciiLower(value).find("keep-alive") != std::string::npos)
                out.keepAlive = true;
        }
        out.headers.emplace_back(std::move(name), std::string(value));
    }
    if (chunked && haveLength)
        return fail("both chunked and a content-length");
    m_pos = end + 4;
    if (chunked) {
        m_state = State::ChunkSize;
    } else if (length) {
        m_state = State::Length;
        m_left = m_length = length;
    }
    return Result::Complete;
}

HttpRequestReader::Result HttpRequestReader::chunks(std::string_view data, HttpRequest& out)
{
    for (;;) {
        if (m_state == State::ChunkData) {
            const std::size_t take = std::size_t(std::min<std::uint64_t>(m_left, data.size() - m_pos));
            out.body.append(data.substr(m_pos, take));
            m_pos += take;
            m_left -= take;
            if (m_left)
                return Result::NeedMore;
            if (data.size() - m_pos < 2)
                return Result::NeedMore;
            if (data.substr(m_pos, 2) != "\r\n")
                return fail("a chunk not followed by CRLF");
            m_pos += 2;
            m_state = State::ChunkSize;
        }
        const std::size_t e = data.find("\r\n", m_pos);
        if (e == std::string_view::npos)
            return data.size() - m_pos > kChunkLineLimit ? fail("a chunk-size line passes 1 KiB") : Result::NeedMore;
        if (e - m_pos > kChunkLineLimit)
            return fail("a chunk-size line passes 1 KiB");
        const std::string_view line = data.substr(m_pos, e - m_pos);
        m_pos = e + 2;
        if (m_state == State::Trailer) {
            if (line.empty())
                return Result::Complete; // trailer fields are not kept
            continue;
        }
        std::string_view size = line.substr(0, line.find(';'));
        size = trimSpaces(size);
        std::uint64_t n = 0;
        if (size.empty() || size.size() > 8)
            return fail("a chunk size that is not 1 to 8 hex digits");
        for (const char c : size) {
            const int d = hexDigit(c);
            if (d < 0)
                return fail("a chunk size that is not 1 to 8 hex digits");
            n = n * 16 + std::uint64_t(d);
        }
        if (out.body.size() + n > kBodyLimit)
            return fail("a body past 16 MiB");
        if (n == 0) {
            m_state = State::Trailer;
            continue;
        }
        m_left = n;
        m_state = State::ChunkData;
    }
}

} // namespace stampede
