#include "mockstreams.h"

#include "core/text.h"
#include "stream/wshandshake.h"

#include "stampede/v1/mock.pb.h"

#include <charconv>

namespace stampede {

namespace {

constexpr std::size_t kMaxMessage = 1024 * 1024;

std::string numbered(const std::string& text, std::uint64_t n)
{
    std::string out;
    const std::string id = std::to_string(n);
    std::size_t at = 0;
    for (std::size_t k; (k = text.find("${n}", at)) != std::string::npos; at = k + 4)
        out.append(text, at, k - at).append(id);
    out.append(text, at, std::string::npos);
    return out;
}

bool oneLine(const std::string& s)
{
    return s.find_first_of("\r\n") == std::string::npos;
}

} // namespace

bool compileMockStream(const v1::MockRule& r, const std::string& field, std::shared_ptr<const MockStreamRule>& out,
                       std::string& error)
{
    out.reset();
    if (!r.has_websocket() && !r.has_events())
        return true;
    if (r.has_websocket() && r.has_events()) {
        error = field + ": a rule is a WebSocket endpoint or an event stream, not both";
        return false;
    }
    if (r.has_grpc()) {
        error = field + ": a gRPC rule is no stream endpoint";
        return false;
    }
    auto s = std::make_shared<MockStreamRule>();
    const double every = r.has_websocket() ? r.websocket().every_ms() : r.events().every_ms();
    if (every < 0 || every > 3600 * 1000.0) {
        error = field + (r.has_websocket() ? ".websocket" : ".events") + ".everyMs: 0 to 3600000";
        return false;
    }
    s->every = every > 0 ? Nanos(every * 1e6) : kNanosPerSecond;
    if (r.has_websocket()) {
        const auto& w = r.websocket();
        s->websocket = true;
        s->text = w.push();
        s->echo = w.has_echo() ? w.echo() : w.push().empty();
        s->count = w.count();
        s->closeAfter = w.close_after();
        s->subprotocol = w.subprotocol();
        if (!s->subprotocol.empty() && s->subprotocol.find_first_of(" ,\t\r\n\"") != std::string::npos) {
            error = field + ".websocket.subprotocol: \"" + s->subprotocol + "\" is not a subprotocol's name";
            return false;
        }
    } else {
        const auto& e = r.events();
        s->text = e.data();
        s->event = e.event();
        s->count = e.has_count() ? e.count() : 10;
        s->retryMs = e.retry_ms();
        if (!oneLine(s->event)) {
            error = field + ".events.event: one line";
            return false;
        }
    }
    out = std::move(s);
    return true;
}

std::string mockWsUpgradeAnswer(const MockStreamRule& rule, std::string_view upgrade, std::string_view key,
                                std::string_view version, std::string_view offered, bool& ok)
{
    ok = false;
    std::string why;
    if (!equalsNoCase(upgrade, "websocket"))
        why = "a WebSocket endpoint: send GET with Upgrade: websocket\n";
    else if (version != "13")
        why = "Sec-WebSocket-Version must be 13\n";
    else if (key.size() != 24)
        why = "Sec-WebSocket-Key must be 16 bytes in base64\n";
    if (!why.empty()) {
        std::string answer = "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nSec-WebSocket-Version: 13\r\n"
                             "Connection: close\r\nContent-Length: " +
                             std::to_string(why.size()) + "\r\n\r\n" + why;
        return answer;
    }
    ok = true;
    std::string answer = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                         "Sec-WebSocket-Accept: " +
                         wsAccept(key) + "\r\n";
    if (!rule.subprotocol.empty()) {
        for (std::size_t at = 0; at <= offered.size();) {
            std::size_t end = offered.find(',', at);
            if (end == std::string_view::npos)
                end = offered.size();
            std::string_view p = offered.substr(at, end - at);
            while (!p.empty() && (p.front() == ' ' || p.front() == '\t'))
                p.remove_prefix(1);
            while (!p.empty() && (p.back() == ' ' || p.back() == '\t'))
                p.remove_suffix(1);
            if (p == rule.subprotocol) {
                answer += "Sec-WebSocket-Protocol: " + rule.subprotocol + "\r\n";
                break;
            }
            at = end + 1;
        }
    }
    return answer + "\r\n";
}

MockWsConnection::MockWsConnection(const MockStreamRule& rule)
    : m_rule(rule), m_reader(WsReader::Limits{kMaxMessage, true})
{
}

void MockWsConnection::send(WsOpcode op, std::string_view data, std::string& out)
{
    if (m_closing)
        return;
    appendWsFrame(out, op, data, nullptr);
    if (m_rule.closeAfter && ++m_sent >= m_rule.closeAfter) {
        appendWsFrame(out, WsOpcode::Close, wsClosePayload(1000, "done"), nullptr);
        m_closing = true;
    }
}

bool MockWsConnection::feed(std::string_view bytes, std::string& out)
{
    if (m_closing)
        return false;
    WsReader::Events ev;
    ev.message = [&](WsOpcode t, std::string_view d) {
        if (m_rule.echo)
            send(t, d, out);
        return !m_closing;
    };
    ev.ping = [&](std::string_view p) { appendWsFrame(out, WsOpcode::Pong, p, nullptr); };
    const WsReader::Result r = m_reader.feed(bytes, ev);
    if (r == WsReader::Result::Closed) { // the client's close echoed with its code
        const std::uint16_t code = m_reader.closeCode();
        appendWsFrame(out, WsOpcode::Close, wsClosePayload(code == 1005 ? 0 : code, {}), nullptr);
        m_closing = true;
    } else if (r == WsReader::Result::Fault) {
        appendWsFrame(out, WsOpcode::Close, wsClosePayload(m_reader.faultCode(), m_reader.error()), nullptr);
        m_closing = true;
    }
    return !m_closing;
}

bool MockWsConnection::push(std::string& out)
{
    if (m_closing || m_rule.text.empty())
        return false;
    ++m_pushed;
    send(WsOpcode::Text, numbered(m_rule.text, m_pushed), out);
    return !m_closing && (m_rule.count == 0 || m_pushed < m_rule.count);
}

MockEventStream::MockEventStream(const MockStreamRule& rule, std::string_view lastEventId) : m_rule(rule)
{
    std::uint64_t last = 0;
    if (!lastEventId.empty() &&
        std::from_chars(lastEventId.data(), lastEventId.data() + lastEventId.size(), last).ec == std::errc())
        m_next = last + 1;
}

std::string MockEventStream::start() const
{
    std::string head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\n"
                       "Connection: close\r\n\r\n";
    if (m_rule.retryMs)
        head += "retry: " + std::to_string(m_rule.retryMs) + "\n\n";
    return head;
}

bool MockEventStream::next(std::string& out)
{
    if (m_rule.count && m_sent >= m_rule.count)
        return false;
    const std::uint64_t id = m_next++;
    out += "id: " + std::to_string(id) + "\n";
    if (!m_rule.event.empty())
        out += "event: " + m_rule.event + "\n";
    const std::string data = numbered(m_rule.text, id);
    std::size_t at = 0;
    for (std::size_t nl; (nl = data.find('\n', at)) != std::string::npos; at = nl + 1)
        out += "data: " + data.substr(at, nl - at) + "\n";
    out += "data: " + data.substr(at) + "\n\n";
    ++m_sent;
    return m_rule.count == 0 || m_sent < m_rule.count;
}

} // namespace stampede
