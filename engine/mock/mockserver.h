#pragma once
// The embedded mock server: HTTP/1.1 with keep-alive, and HTTP/2 (h2c with
// prior knowledge, told apart by the connection preface) with gRPC rules and
// server reflection (mockh2.h), answering by rules (see mockrules.h), counting
// what each rule served, readable at GET /__stampede/stats. Each thread runs
// its own epoll loop over a shared listening socket.
#include "mockrules.h"

#include <atomic>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace stampede {

class MockServer
{
public:
    explicit MockServer(std::shared_ptr<MockRuleSet> rules, unsigned threads = 1);
    ~MockServer();

    // Binds `address` ("127.0.0.1:8080", "[::1]:0", port 0 picks a free one) and
    // starts serving. Returns false with a message when it cannot.
    bool start(const std::string& address, std::string& error);
    void stop();
    std::uint16_t port() const { return m_port; }
    std::string baseUrl() const;
    const MockRuleSet& rules() const { return *m_rules; }
    // A request head must arrive whole within `header` of its first byte (408
    // then); a connection with nothing going on is closed after `idle`.
    // Before start(); the defaults are 10 s and 60 s.
    void setTimeouts(std::int64_t headerNanos, std::int64_t idleNanos)
    {
        m_headerTimeout = headerNanos;
        m_idleTimeout = idleNanos;
    }

private:
    void serve(unsigned index);

    std::shared_ptr<MockRuleSet> m_rules;
    unsigned m_threadCount;
    int m_listenFd = -1;
    int m_wakeFd = -1;
    std::string m_host;
    std::uint16_t m_port = 0;
    std::atomic<bool> m_stop{false};
    std::vector<std::thread> m_threads;
    std::int64_t m_headerTimeout = 10'000'000'000;
    std::int64_t m_idleTimeout = 60'000'000'000;
};

} // namespace stampede
