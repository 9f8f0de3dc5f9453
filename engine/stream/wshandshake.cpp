#include "wshandshake.h"

#include "core/text.h"
#include "wsdeflate.h"

#include <openssl/sha.h>

namespace stampede {

std::string wsKey(const std::uint8_t random[16])
{
    std::string out;
    appendBase64(out, std::string_view(reinterpret_cast<const char*>(random), 16));
    return out;
}

std::string wsAccept(std::string_view key)
{
    const std::string text = std::string(key) + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";
    unsigned char digest[SHA_DIGEST_LENGTH];
    SHA1(reinterpret_cast<const unsigned char*>(text.data()), text.size(), digest);
    std::string out;
    appendBase64(out, std::string_view(reinterpret_cast<const char*>(digest), sizeof digest));
    return out;
}

std::string wsUpgradeRequest(const WsUpgrade& u)
{
    std::string r = "GET " + u.target + " HTTP/1.1\r\nHost: " + u.host +
                    "\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: " + u.key +
                    "\r\nSec-WebSocket-Version: 13\r\n";
    if (!u.protocols.empty()) {
        r += "Sec-WebSocket-Protocol: ";
        for (std::size_t i = 0; i < u.protocols.size(); ++i)
            r += (i ? ", " : "") + u.protocols[i];
        r += "\r\n";
    }
    if (u.deflate)
        r += "Sec-WebSocket-Extensions: " + std::string(kWsDeflateOffer) + "\r\n";
    for (const auto& [name, value] : u.headers)
        r += name + ": " + value + "\r\n";
    return r + "\r\n";
}

namespace {

// Whether the comma-separated list `value` holds `token` (case-insensitive).
bool hasToken(std::string_view value, std::string_view token)
{
    while (!value.empty()) {
        const std::size_t comma = value.find(',');
        if (equalsNoCase(trimSpaces(value.substr(0, comma)), token))
            return true;
        if (comma == std::string_view::npos)
            break;
        value.remove_prefix(comma + 1);
    }
    return false;
}

} // namespace

std::string wsCheckAnswer(int status, const std::vector<std::pair<std::string, std::string>>& headers,
                          const WsUpgrade& u, std::string& protocol, bool* deflate)
{
    protocol.clear();
    bool agreed = false;
    if (status != 101)
        return "the server answered " + std::to_string(status) + ", not 101 Switching Protocols";
    bool upgrade = false, connection = false, accepted = false, sawAccept = false;
    for (const auto& [name, value] : headers) {
        if (equalsNoCase(name, "upgrade")) {
            upgrade = equalsNoCase(trimSpaces(value), "websocket");
        } else if (equalsNoCase(name, "connection")) {
            connection |= hasToken(value, "upgrade");
        } else if (equalsNoCase(name, "sec-websocket-accept")) {
            if (sawAccept)
                return "the server sent Sec-WebSocket-Accept twice";
            sawAccept = true;
            accepted = trimSpaces(value) == wsAccept(u.key);
        } else if (equalsNoCase(name, "sec-websocket-protocol")) {
            const std::string chosen(trimSpaces(value));
            bool offered = false;
            for (const auto& p : u.protocols)
                offered |= p == chosen;
            if (!offered || !protocol.empty())
                return "the server chose the subprotocol \"" + chosen + "\", which was not offered";
            protocol = chosen;
        } else if (equalsNoCase(name, "sec-websocket-extensions") && !trimSpaces(value).empty()) {
            if (!u.deflate || agreed)
                return "the server named the extension \"" + std::string(trimSpaces(value).substr(0, 120)) +
                       "\", which was not offered";
            if (std::string why = wsDeflateAnswer(value, agreed); !why.empty())
                return why;
        }
    }
    if (!upgrade)
        return "the answer's Upgrade is not websocket";
    if (!connection)
        return "the answer's Connection has no upgrade token";
    if (!accepted)
        return sawAccept ? "the answer's Sec-WebSocket-Accept is not the one the key asks for"
                         : "the answer has no Sec-WebSocket-Accept";
    if (deflate)
        *deflate = agreed;
    return {};
}

} // namespace stampede
