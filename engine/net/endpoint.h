#pragma once
// A server to connect to: named by the plan (host and port, no lookup), its TCP
// address looked up once before a run starts (resolve/targets.h).
#include <memory>
#include <netinet/in.h>
#include <optional>
#include <string>
#include <sys/socket.h>

namespace stampede {

class TlsContext;

struct Endpoint
{
    sockaddr_storage address{};
    socklen_t length = 0;
    std::string host; // as written (a name or an address)
    unsigned port = 0;
    std::string label; // host:port, for messages
    // Set: TLS over the connection, with this context (shared by the run).
    std::shared_ptr<TlsContext> tls;
    std::string serverName; // sent as SNI (unless an IP address) and verified against
    // No address (length 0): why ("cannot resolve host ..."); each connection to it fails with it, a connect
    // error of its request (a collection run goes on past a name that does not resolve, as newman does).
    std::string unresolved;

    // A server by its name, not yet looked up (no address).
    static Endpoint named(const std::string& host, unsigned port);
    // Resolves host and port (numeric or by name). Returns nullopt and sets
    // `error` when the name does not resolve.
    static std::optional<Endpoint> resolve(const std::string& host, unsigned port, std::string& error);
    // Looks its name up, keeping its TLS and server name; false with `error` when the name does not resolve.
    bool lookUp(std::string& error);
    bool sameAs(const Endpoint& o) const;
};

} // namespace stampede
