#pragma once
// A listening TCP socket (non-blocking, close-on-exec, SO_REUSEADDR) for the
// servers the engine runs (the mock server, the traffic recorder).
#include <cstdint>
#include <string>

namespace stampede {

// Binds `address` ("127.0.0.1:8080", "[::1]:0", ":9000" for 127.0.0.1, port
// 0 picks a free one) and listens. The socket, with the numeric host and the
// port bound; -1 and a message in `error` when it cannot.
int listenOn(const std::string& address, std::string& host, std::uint16_t& port, std::string& error);
// Whether `address` reads as one listenOn takes (checked before anything starts); false with `error`.
bool validListenAddress(const std::string& address, std::string& error);

} // namespace stampede
