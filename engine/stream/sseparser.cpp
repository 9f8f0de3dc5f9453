#include "sseparser.h"

#include "core/utf8.h"

namespace stampede {

SseParser::Result SseParser::feed(std::string_view bytes, const OnEvent& onEvent, std::size_t* consumed)
{
    if (m_fault)
        return Result::Fault;
    m_stopped = false;
    std::size_t at = 0;
    if (!m_started) {
        // a byte order mark, once, at the very start; it may come split over reads
        constexpr std::string_view bom = "\xEF\xBB\xBF";
        while (at < bytes.size() && m_head.size() < 3 && bom[m_head.size()] == bytes[at])
            m_head.push_back(bytes[at++]);
        if (m_head.size() < 3 && at == bytes.size()) {
            if (consumed)
                *consumed = bytes.size();
            return Result::More; // a mark, perhaps, still
        }
        m_started = true;
        if (m_head.size() < 3)
            m_line = m_head; // not a mark: its bytes (no line end among them) begin the first line
        m_head.clear();
    }
    for (std::size_t i = at; i < bytes.size(); ++i) {
        const char c = bytes[i];
        if (c == '\n' && m_afterCr) {
            m_afterCr = false;
            continue; // the LF of a CRLF: the line ended at the CR
        }
        m_afterCr = c == '\r';
        if (c != '\n' && c != '\r') {
            if (m_line.size() >= m_limits.line) {
                m_fault = true;
                m_error = "a line of the event stream passed " + std::to_string(m_limits.line) + " bytes";
                return Result::Fault;
            }
            m_line.push_back(c);
            continue;
        }
        if (!line(m_line, onEvent)) {
            m_line.clear();
            if (m_fault)
                return Result::Fault;
            if (consumed)
                *consumed = i + 1;
            return Result::Stopped;
        }
        m_line.clear();
    }
    if (consumed)
        *consumed = bytes.size();
    return Result::More;
}

bool SseParser::line(std::string_view text, const OnEvent& onEvent)
{
    if (text.empty())
        return dispatch(onEvent);
    if (text.front() == ':') {
        ++m_comments;
        return true;
    }
    const std::size_t colon = text.find(':');
    const std::string_view field = text.substr(0, colon);
    std::string_view value = colon == std::string_view::npos ? std::string_view() : text.substr(colon + 1);
    if (!value.empty() && value.front() == ' ')
        value.remove_prefix(1);
    if (field == "event") {
        m_type.assign(value);
    } else if (field == "data") {
        if (m_data.size() + value.size() + 1 > m_limits.event) {
            m_fault = true;
            m_error = "an event's data passed " + std::to_string(m_limits.event) + " bytes";
            return false;
        }
        m_data.append(value);
        m_data.push_back('\n');
        m_anyData = true;
    } else if (field == "id") {
        if (value.find('\0') == std::string_view::npos)
            m_idBuffer.assign(value);
    } else if (field == "retry") {
        if (!value.empty() && value.size() <= 18 && value.find_first_not_of("0123456789") == std::string_view::npos)
            m_retry = std::stoull(std::string(value));
    }
    return true; // any other field is ignored
}

bool SseParser::dispatch(const OnEvent& onEvent)
{
    m_lastId = m_idBuffer; // set whether or not an event goes out
    if (!m_anyData) {
        m_type.clear();
        return true;
    }
    m_data.pop_back(); // the last line feed
    m_event.type = m_type.empty() ? std::string("message") : m_type;
    m_event.data.swap(m_data);
    m_event.id = m_lastId;
    bool bad = !makeUtf8(m_event.data);
    bad |= !makeUtf8(m_event.type);
    bad |= !makeUtf8(m_event.id);
    m_notUtf8 += bad;
    m_data.clear();
    m_type.clear();
    m_anyData = false;
    ++m_events;
    if (onEvent && !onEvent(m_event)) {
        m_stopped = true;
        return false;
    }
    return true;
}

} // namespace stampede
