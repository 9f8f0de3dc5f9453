#pragma once
// The WebSocket opening handshake (RFC 6455, section 4), a client's side: the
// upgrade request and the check of the server's answer. A connection becomes a
// WebSocket only on a 101 whose Upgrade is "websocket", whose Connection has
// the "upgrade" token, whose Sec-WebSocket-Accept is the one the key asks
// for, and that names no subprotocol and no extension the client did not
// offer; else the answer says what was wrong, and the connection is closed.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

// A Sec-WebSocket-Key: the base64 of 16 random bytes (the caller's random source).
std::string wsKey(const std::uint8_t random[16]);
// The Sec-WebSocket-Accept a server answers `key` with.
std::string wsAccept(std::string_view key);

struct WsUpgrade
{
    std::string target = "/"; // path and query
    std::string host;         // the Host header's value
    std::string key;
    std::vector<std::string> protocols;                       // offered subprotocols, in order of preference
    std::vector<std::pair<std::string, std::string>> headers; // the user's own (cookies, authorization...)
    bool deflate = false;                                     // permessage-deflate offered (wsdeflate.h)
};
// The upgrade request's bytes (GET, HTTP/1.1, version 13).
std::string wsUpgradeRequest(const WsUpgrade& u);

// The server's answer to it: "" when the connection is a WebSocket (`protocol` the subprotocol it chose, or "";
// `deflate` whether it agreed to permessage-deflate), else why it is not.
std::string wsCheckAnswer(int status, const std::vector<std::pair<std::string, std::string>>& headers,
                          const WsUpgrade& u, std::string& protocol, bool* deflate = nullptr);

} // namespace stampede
