#include "agentregistry.h"

#include "agentdiscovery.h"
#include "core/number.h"
#include "core/text.h"
#include "core/utf8.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cstdio>

namespace stampede {

namespace {

bool formDecode(const std::string& in, std::string& out)
{
    out.clear();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (in[i] == '+') {
            out += ' ';
        } else if (in[i] == '%') {
            if (i + 2 >= in.size())
                return false;
            const int hi = hexDigit(in[i + 1]), lo = hexDigit(in[i + 2]);
            if (hi < 0 || lo < 0)
                return false;
            out += char(hi * 16 + lo);
            i += 2;
        } else {
            out += in[i];
        }
    }
    return true;
}

// An IP literal, or a DNS name of letters, digits, '-' and '.' (at most 253).
bool plausibleHost(const std::string& host)
{
    unsigned char buf[16];
    if (inet_pton(AF_INET, host.c_str(), buf) == 1 || inet_pton(AF_INET6, host.c_str(), buf) == 1)
        return true;
    if (host.empty() || host.size() > 253 || host.front() == '-' || host.front() == '.')
        return false;
    return std::all_of(host.begin(), host.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == '.';
    });
}

std::string jsonQuoted(const std::string& text)
{
    const std::string s = utf8Escaped(text);
    std::string out = "\"";
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if ((unsigned char)c < 0x20) {
            char u[8];
            std::snprintf(u, sizeof u, "\\u%04x", unsigned(c));
            out += u;
        } else {
            out += c;
        }
    }
    return out + "\"";
}

} // namespace

bool parseJoinBody(const std::string& body, JoinRequest& out, std::string& error)
{
    out = {};
    bool havePort = false;
    std::size_t fields = 0;
    for (std::size_t at = 0; at <= body.size();) {
        std::size_t end = body.find('&', at);
        if (end == std::string::npos)
            end = body.size();
        const std::string pair = body.substr(at, end - at);
        at = end + 1;
        if (pair.empty())
            continue;
        if (++fields > 8) {
            error = "more than 8 fields";
            return false;
        }
        const std::size_t eq = pair.find('=');
        std::string key, value;
        if (eq == std::string::npos || !formDecode(pair.substr(0, eq), key) ||
            !formDecode(pair.substr(eq + 1), value)) {
            error = "\"" + utf8Escaped(utf8Prefix(pair, 40)) + "\" is not key=value (form-encoded)";
            return false;
        }
        if (key == "port") {
            std::uint64_t p = 0;
            if (!parseWhole(value, "port", 1, 65535, p, error)) { // said in its words: the value may be any bytes
                error = "port: \"" + utf8Escaped(utf8Prefix(value, 20)) + "\" is not a port (1 to 65535)";
                return false;
            }
            out.port = unsigned(p);
            havePort = true;
        } else if (key == "name") {
            if (value.size() > 63 || !isUtf8(value) ||
                std::any_of(value.begin(), value.end(), [](char c) { return (unsigned char)c < 0x20 || c == 0x7f; })) {
                error = "name: at most 63 bytes of UTF-8 without control characters";
                return false;
            }
            out.name = value;
        } else if (key == "host") {
            if (!plausibleHost(value)) {
                error = "host: \"" + utf8Escaped(utf8Prefix(value, 60)) + "\" is not an IP address or a DNS name";
                return false;
            }
            out.host = value;
        } else {
            error = "unknown field \"" + utf8Escaped(utf8Prefix(key, 40)) + "\" (port, name, host)";
            return false;
        }
    }
    if (!havePort) {
        error = "port: missing (the port the agent listens on)";
        return false;
    }
    return true;
}

std::string joinAddress(const std::string& host, unsigned port)
{
    const bool v6 = host.find(':') != std::string::npos;
    return (v6 ? "[" + host + "]" : host) + ":" + std::to_string(port);
}

AgentRegistry::AgentRegistry(ClockPtr clock, Nanos expiry) : m_clock(std::move(clock)), m_expiry(expiry) {}

ControlReply AgentRegistry::handle(const ControlRequest& rq)
{
    if (rq.path != "/v1/join")
        return {404, "{\"error\": \"not found: POST /v1/join\"}"};
    if (rq.method != "POST")
        return {405, "{\"error\": \"POST /v1/join\"}"};
    JoinRequest j;
    std::string why;
    if (!parseJoinBody(rq.body, j, why))
        return {400, "{\"error\": " + jsonQuoted(why) + "}"};
    std::string host = j.host;
    if (host.empty()) { // the caller's address: "1.2.3.4:5678" or "[::1]:5678"
        host = rq.peer.substr(0, rq.peer.rfind(':'));
        if (host.size() > 2 && host.front() == '[')
            host = host.substr(1, host.size() - 2);
    }
    const std::string address = joinAddress(host, j.port);
    const Nanos now = m_clock->now();
    std::lock_guard lock(m_mutex);
    auto it = std::find_if(m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.address == address; });
    if (it == m_entries.end()) {
        m_entries.erase(std::remove_if(m_entries.begin(), m_entries.end(),
                                       [&](const Entry& e) { return now - e.lastHeard > m_expiry; }),
                        m_entries.end());
        if (m_entries.size() >= kMaxAgents)
            return {503, "{\"error\": \"this controller holds " + std::to_string(kMaxAgents) + " agents already\"}"};
        m_entries.push_back({address, j.name, now});
        it = m_entries.end() - 1;
    }
    it->lastHeard = now;
    it->name = j.name;
    ++m_joins;
    const std::string shown = j.name.empty() ? address : j.name + " (" + address + ")";
    return {200, "{\"joined\": " + jsonQuoted(shown) +
                     ", \"heartbeat_s\": " + std::to_string(kJoinHeartbeat / kNanosPerSecond) + "}"};
}

std::vector<std::string> AgentRegistry::live() const
{
    const Nanos now = m_clock->now();
    std::lock_guard lock(m_mutex);
    std::vector<std::string> out;
    for (const Entry& e : m_entries)
        if (now - e.lastHeard <= m_expiry)
            out.push_back(e.address);
    return out;
}

std::size_t AgentRegistry::joins() const
{
    std::lock_guard lock(m_mutex);
    return m_joins;
}

} // namespace stampede
