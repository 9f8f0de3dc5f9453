#pragma once
// Server-Sent Events (WHATWG HTML, "Interpreting an event stream"), read as
// the bytes come: lines ended by CRLF, LF or CR (a CR and its LF may come in
// two reads), a leading byte order mark skipped once, `:` comments, the
// fields `event`, `data`, `id` (not one holding NUL) and `retry` (digits
// only); a blank line dispatches the event when it has data, its type
// "message" unless named, its data without the last line feed; an event the
// stream ends in the middle of is not dispatched. A server is not trusted:
// a line or an event's data over its bound ends the stream as a fault (an
// answer that never ends a line holds no more than the bound), and text
// that is not UTF-8 is made so (utf8.h's \xHH: such an event may hold up to
// four times the data bound), counted.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace stampede {

struct SseEvent
{
    std::string type; // "message" unless the stream named it
    std::string data;
    std::string id; // the last event id as the event was dispatched ("" when none)
};

class SseParser
{
public:
    struct Limits
    {
        std::size_t line = 64 * 1024;    // the longest line
        std::size_t event = 1024 * 1024; // the most data one event may gather
    };
    // Called for each event dispatched; returns false to read no further (the step has what it waited for).
    using OnEvent = std::function<bool(const SseEvent&)>;

    SseParser() = default;
    explicit SseParser(Limits limits) : m_limits(limits) {}

    enum class Result
    {
        More,    // all of it read
        Stopped, // onEvent asked to stop; `consumed` says how far it read
        Fault    // a bound passed: error() says which; nothing more is read
    };
    Result feed(std::string_view bytes, const OnEvent& onEvent, std::size_t* consumed = nullptr);

    // The stream's last event id (sent back as Last-Event-ID on reconnect) and the retry it asked for (ms).
    const std::string& lastEventId() const { return m_lastId; }
    std::optional<std::uint64_t> retry() const { return m_retry; }
    std::uint64_t events() const { return m_events; }
    std::uint64_t comments() const { return m_comments; }
    std::uint64_t notUtf8() const { return m_notUtf8; } // events and ids whose text was not UTF-8
    const std::string& error() const { return m_error; }

private:
    // One whole line; false: a fault or a stop (m_stopped).
    bool line(std::string_view text, const OnEvent& onEvent);
    bool dispatch(const OnEvent& onEvent);

    Limits m_limits;
    std::string m_line;
    std::string m_data, m_type, m_idBuffer;
    bool m_anyData = false;
    std::string m_lastId;
    std::optional<std::uint64_t> m_retry;
    bool m_started = false; // the first bytes seen (a byte order mark is looked for there only)
    std::string m_head;     // a byte order mark's first bytes, until it is known to be one
    bool m_afterCr = false; // the last byte was a CR: an LF right after it ends nothing more
    bool m_stopped = false;
    bool m_fault = false;
    std::uint64_t m_events = 0, m_comments = 0, m_notUtf8 = 0;
    std::string m_error;
    SseEvent m_event; // the one handed out (its strings keep their capacity)
};

} // namespace stampede
