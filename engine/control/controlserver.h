#pragma once
// The controller's control endpoint (`stampede-cli run --control ADDR`): a
// small HTTP/1.1 server, one request per connection, on a thread of its own,
// that hands each request to a handler (the run's: status, pause, resume,
// scale, stop). Its rules are the agents': on a loopback address it may go
// without a token and TLS; on any other it needs both (a bearer token, a
// certificate and key). A request is bounded (head 16 KiB, body 4 KiB, 2 s to
// arrive); whatever does not parse is answered 400, a wrong token 401.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <thread>

namespace stampede {

struct ControlServerOptions
{
    std::string address;           // "127.0.0.1:6565", port 0 picks one
    std::string token;             // required from callers when set (Authorization: Bearer)
    std::string certFile, keyFile; // set: TLS only
};

struct ControlRequest
{
    std::string method; // GET, POST
    std::string path;   // "/v1/status"
    std::string body;
    std::string peer; // "127.0.0.1:40312"
};

struct ControlReply
{
    int status = 200;
    std::string body; // JSON
};

class ControlServer
{
public:
    using Handler = std::function<ControlReply(const ControlRequest&)>;
    ControlServer();
    ~ControlServer();
    // Binds and serves on its thread; false with `error` (a bad address, a
    // non-loopback one without token or TLS, an unreadable certificate).
    bool start(const ControlServerOptions& options, Handler handler, std::string& error);
    std::string address() const { return m_address; } // bound "host:port"
    void stop();

private:
    struct Tls;
    void serve();
    void answer(int fd);

    ControlServerOptions m_options;
    Handler m_handler;
    std::unique_ptr<Tls> m_tls;
    int m_fd = -1;
    std::string m_address;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
};

// A request head (up to the blank line, without it): the method, path,
// Content-Length (at most 4 KiB) and Authorization; false with the status to
// answer (400, 413). Outside input: fuzzed (tests/fuzz/fuzz_controlrequest).
bool parseControlHead(const std::string& head, ControlRequest& rq, std::size_t& length, std::string& authorization,
                      int& status);
// The body of POST /v1/scale: {"factor": X} (0..kMaxLevelFactor) or {"rate": R}
// (0..RunLimits::kRate), one key and a plain number; false with `error`.
bool parseScaleBody(const std::string& body, bool& isRate, double& value, std::string& error);

// Whether `host` (numeric, as bound) is a loopback address: 127.0.0.0/8 or ::1.
bool loopbackHost(const std::string& host);

} // namespace stampede
