#pragma once
// A minimal HTTP endpoint for Prometheus: GET /metrics answers the text that
// `render` returns (text exposition format 0.0.4). One thread polls every
// client at once, without blocking on any: a client that connects and says
// nothing, or reads nothing, delays no other and is closed after its deadline
// (2 s); at most kMaxClients are open (the oldest is closed for a new one).
// GET /healthz answers 200 while the process serves (liveness); GET /readyz
// 200 or 503 as `setReadiness`'s function says (readiness: Kubernetes' probes).
#include <atomic>
#include <functional>
#include <string>
#include <thread>
#include <vector>

namespace stampede {

class MetricsEndpoint
{
public:
    explicit MetricsEndpoint(std::function<std::string()> render) : m_render(std::move(render)) {}
    ~MetricsEndpoint();
    // `address` is host:port (port 0 picks one); an address alone is the port
    // on 127.0.0.1. Returns false with a message that names `option`.
    bool start(const std::string& address, std::string& error, const std::string& option = "--metrics");
    int port() const { return m_port; }
    void stop();
    // What /readyz says: true (200) or false (503), with a line of text; set before start().
    void setReadiness(std::function<bool(std::string& said)> ready) { m_ready = std::move(ready); }

    static constexpr std::size_t kMaxClients = 64;
    static constexpr std::size_t kMaxRequestBytes = 16384;

private:
    struct Client;
    void serve();
    void accept(std::vector<Client>& clients);
    bool step(Client& c, short revents); // false: done with this client
    std::function<std::string()> m_render;
    std::function<bool(std::string&)> m_ready;
    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace stampede
