#pragma once
// A scripted HTTP/1.1 target for the conformance corpus: a loopback server
// (plain TCP, or TLS with the test's certificate) that serves every
// connection with one shape of answer, right or broken on purpose, and
// counts the requests it read and keeps their raw bytes.
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

struct ssl_ctx_st;
namespace testsupport {
class RawServer;
}
struct ssl_st;

namespace conformance {

// One accepted connection, plain or TLS.
class Peer
{
public:
    Peer(int fd, ::ssl_st* ssl) : m_fd(fd), m_ssl(ssl) {}
    // The next request's head (and its body, by Content-Length); "" at EOF.
    std::string readRequest();
    // The bytes that come next, as they come (at least one); "" at EOF.
    std::string readSome();
    bool write(const std::string& bytes);
    // Waits up to `ms` for bytes or a close from the client; true when some came.
    bool waitReadable(int ms);
    void close(); // FIN (TLS: close_notify first)
    void reset(); // RST
    int fd() const { return m_fd; }

private:
    int m_fd;
    ::ssl_st* m_ssl;
    std::string m_pending;
};

class Target
{
public:
    // `serve` is called on its own thread for each connection; with
    // `certDir`, the connection speaks TLS with certDir/server.pem and .key.
    Target(std::function<void(Peer&)> serve, const std::string& certDir = {});
    ~Target();
    int port() const;
    // Requests read by every connection so far, and their raw bytes.
    int requests() const { return m_requests.load(); }
    std::vector<std::string> received() const;
    void count(const std::string& request);

private:
    static ::ssl_ctx_st* makeContext(const std::string& certDir);
    void connection(int fd);
    std::function<void(Peer&)> m_serve;
    ::ssl_ctx_st* m_ctx = nullptr;
    std::atomic<int> m_requests{0};
    mutable std::mutex m_mutex;
    std::vector<std::string> m_received;
    std::unique_ptr<testsupport::RawServer> m_server; // last: its threads use the members above
};

// The target of the connection being served (set for the handler's thread).
Target& current();

} // namespace conformance
