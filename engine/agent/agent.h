#pragma once
// The agent: one engine process exposed over the control protocol (gRPC).
// One run at a time; a second controller is told who holds it. A dead-man
// timer stops the load when the controller has been silent too long.
#include "core/clock.h"
#include "wire/protocolversion.h"

#include <map>
#include <memory>
#include <string>

namespace stampede {

struct AgentOptions
{
    std::string name = "agent";
    std::string token;       // required in the `authorization: Bearer TOKEN` metadata when set
    std::string tlsCertFile; // PEM; with tlsKeyFile, the agent speaks TLS only
    std::string tlsKeyFile;
    unsigned defaultDeadManSeconds = 3; // also the longest a controller may ask for
    std::string version = "0";
    std::string metricsAddress;                // host:port for GET /metrics (Prometheus); empty: off
    std::map<std::string, std::string> labels; // told in Hello: controllers choose agents by them
    bool log = true;                           // one line on stderr per run started and ended
    ClockPtr clock;                            // the runs' and the dead-man timer's time; null: the steady clock
};

// True for host:port addresses on loopback (127.x.x.x, localhost, [::1]).
bool isLoopbackAddress(const std::string& address);

class Agent
{
public:
    explicit Agent(AgentOptions options);
    ~Agent();
    // Listens on `address` (host:port, port 0 picks one). Returns false with a message.
    bool start(const std::string& address, std::string& error);
    int port() const;
    int metricsPort() const;
    // Blocks until shutdown() (from another thread or a signal handler's helper).
    void wait();
    void shutdown();

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace stampede
