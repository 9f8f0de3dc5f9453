#pragma once
// The controller's control endpoint (`stampede-cli run --control ADDR`): a
// small HTTP/1.1 server, one request per connection, each connection on a
// thread of its own (at most kMaxConnections at once: idle sockets cannot
// keep a stop out of reach), that hands each request to a handler (the run's:
// status, pause, resume, scale, stop). Its rules are the agents': on a
// loopback address it may go without a token and TLS; on any other it needs
// both (a bearer token, a certificate and key). A request is bounded (head
// 16 KiB, body 4 KiB, 2 s for the whole request, TLS handshake included);
// whatever does not parse is answered 400, a head too large 431, a body too
// large 413, a wrong token 401 (read from the head: the body is not read).
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
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
    static constexpr int kMaxConnections = 16; // served at once; more are closed at once
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
    void connection(int fd);

    ControlServerOptions m_options;
    Handler m_handler;
    std::unique_ptr<Tls> m_tls;
    int m_fd = -1;
    std::string m_address;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    std::mutex m_mutex;
    std::condition_variable m_idle;
    int m_serving = 0;         // connections being served
    std::mutex m_handlerMutex; // one request handled at a time, as the run expects
};

// A request head (up to the blank line, without it): the method, path,
// Content-Length (at most 4 KiB) and Authorization; false with the status to
// answer (400, 413). Outside input: fuzzed (tests/fuzz/fuzz_controlrequest).
bool parseControlHead(const std::string& head, ControlRequest& rq, std::size_t& length, std::string& authorization,
                      int& status);
// What POST /v1/scale takes: a factor of the plan from 1 % to 100 times (0
// would be a pause: /v1/pause says so), or an open model's rate above 0.
constexpr double kMinScaleFactor = 0.01;
constexpr double kMaxScaleFactor = 100;
// The body of POST /v1/scale: {"factor": X} (kMinScaleFactor..kMaxScaleFactor)
// or {"rate": R} (above 0, at most RunLimits::kRate), one key and a plain
// number; false with `error`.
bool parseScaleBody(const std::string& body, bool& isRate, double& value, std::string& error);

// Whether `host` (numeric, as bound) is a loopback address: 127.0.0.0/8 or ::1.
bool loopbackHost(const std::string& host);

} // namespace stampede
