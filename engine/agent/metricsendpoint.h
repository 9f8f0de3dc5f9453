#pragma once
// A minimal HTTP endpoint for Prometheus: GET /metrics answers the text that
// `render` returns (text exposition format 0.0.4). Blocking, one thread: it
// serves a scraper every few seconds, not load.
#include <atomic>
#include <functional>
#include <string>
#include <thread>

namespace stampede {

class MetricsEndpoint
{
public:
    explicit MetricsEndpoint(std::function<std::string()> render) : m_render(std::move(render)) {}
    ~MetricsEndpoint();
    // `address` is host:port (port 0 picks one). Returns false with a message.
    bool start(const std::string& address, std::string& error);
    int port() const { return m_port; }
    void stop();

private:
    void serve();
    std::function<std::string()> m_render;
    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

} // namespace stampede
