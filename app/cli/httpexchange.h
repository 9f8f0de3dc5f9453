#pragma once
// One HTTP/1.1 request to a controller's endpoint (`stampede-cli control`,
// `agent --join`): over plaintext, or TLS verified against a CA file (never
// the system's CAs); 5 s for each send and receive, at most 1 MiB answered.
#include <string>

namespace stampede::cli {

// host:port or [v6]:port.
bool splitAddress(const std::string& address, std::string& host, std::string& port);
// `request` (whole, with its head) to `address`; the answer's status and body.
bool exchange(const std::string& address, const std::string& caFile, const std::string& request, int& status,
              std::string& body, std::string& error);

} // namespace stampede::cli
