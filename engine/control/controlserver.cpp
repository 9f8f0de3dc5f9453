#include "controlserver.h"

#include "core/listensocket.h"
#include "core/number.h"
#include "run/runengine.h"

#include <openssl/err.h>
#include <openssl/ssl.h>

#include <algorithm>
#include <arpa/inet.h>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stampede {

namespace {

constexpr std::size_t kMaxHead = 16 * 1024;
constexpr std::size_t kMaxBody = 4 * 1024;
constexpr int kIoSeconds = 2;

const char* reasonOf(int status)
{
    switch (status) {
    case 200:
        return "OK";
    case 400:
        return "Bad Request";
    case 401:
        return "Unauthorized";
    case 404:
        return "Not Found";
    case 405:
        return "Method Not Allowed";
    case 409:
        return "Conflict";
    case 413:
        return "Payload Too Large";
    case 431:
        return "Request Header Fields Too Large";
    default:
        return "Error";
    }
}

std::string lower(std::string s)
{
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Equal without leaking where they differ through the time taken.
bool sameToken(const std::string& a, const std::string& b)
{
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (std::size_t i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ (i < b.size() ? b[i] : 0));
    return diff == 0;
}

std::string peerOf(int fd)
{
    sockaddr_storage sa{};
    socklen_t len = sizeof sa;
    if (getpeername(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0)
        return "?";
    char host[INET6_ADDRSTRLEN] = {};
    if (sa.ss_family == AF_INET6) {
        const auto* a = reinterpret_cast<const sockaddr_in6*>(&sa);
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
        return "[" + std::string(host) + "]:" + std::to_string(ntohs(a->sin6_port));
    }
    const auto* a = reinterpret_cast<const sockaddr_in*>(&sa);
    inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
    return std::string(host) + ":" + std::to_string(ntohs(a->sin_port));
}

} // namespace

bool parseControlHead(const std::string& head, ControlRequest& rq, std::size_t& length, std::string& authorization,
                      int& status)
{
    status = 400;
    const std::size_t lineEnd = head.find("\r\n");
    const std::string line = head.substr(0, lineEnd);
    const std::size_t sp1 = line.find(' '), sp2 = line.rfind(' ');
    if (sp1 == std::string::npos || sp2 == sp1 || line.compare(sp2 + 1, 5, "HTTP/") != 0)
        return false;
    rq.method = line.substr(0, sp1);
    rq.path = line.substr(sp1 + 1, sp2 - sp1 - 1);
    if (rq.path.empty() || rq.path[0] != '/')
        return false;
    length = 0;
    std::size_t at = lineEnd == std::string::npos ? head.size() : lineEnd + 2;
    while (at < head.size()) {
        const std::size_t end = std::min(head.find("\r\n", at), head.size());
        const std::string h = head.substr(at, end - at);
        at = end + 2;
        const std::size_t colon = h.find(':');
        if (colon == std::string::npos || colon == 0)
            return false;
        const std::string name = lower(h.substr(0, colon));
        std::string value = h.substr(colon + 1);
        value.erase(0, value.find_first_not_of(" \t"));
        value.erase(value.find_last_not_of(" \t") + 1);
        if (name == "content-length") {
            if (value.empty() || value.size() > 6 || value.find_first_not_of("0123456789") != std::string::npos)
                return false;
            length = std::stoul(value);
            if (length > kMaxBody) {
                status = 413;
                return false;
            }
        } else if (name == "transfer-encoding") {
            return false; // a control request is small: a length or nothing
        } else if (name == "authorization") {
            authorization = value;
        }
    }
    return true;
}

namespace {
std::string trimmed(std::string s)
{
    s.erase(0, s.find_first_not_of(" \t\r\n"));
    s.erase(s.find_last_not_of(" \t\r\n") + 1);
    return s;
}
} // namespace

bool parseScaleBody(const std::string& body, bool& isRate, double& value, std::string& error)
{
    const std::string b = trimmed(body);
    const std::size_t colon = b.find(':');
    if (b.size() < 2 || b.front() != '{' || b.back() != '}' || colon == std::string::npos) {
        error = "the body is {\"factor\": 0.5} or {\"rate\": 800}";
        return false;
    }
    const std::string key = trimmed(b.substr(1, colon - 1));
    const std::string number = trimmed(b.substr(colon + 1, b.size() - colon - 2));
    if (key == "\"factor\"") {
        isRate = false;
        return parseDecimal(number, "factor", kMinScaleFactor, kMaxScaleFactor, value, error);
    }
    if (key == "\"rate\"") {
        isRate = true;
        if (!parseDecimal(number, "rate", 0, RunLimits::kRate, value, error))
            return false;
        if (value <= 0) {
            error = "rate: above 0 (POST /v1/pause stops new iterations)";
            return false;
        }
        return true;
    }
    error = "the body is {\"factor\": 0.5} or {\"rate\": 800}, not " + b.substr(0, 64);
    return false;
}

bool loopbackHost(const std::string& host)
{
    return host.rfind("127.", 0) == 0 || host == "::1" || host == "[::1]";
}

struct ControlServer::Tls
{
    SSL_CTX* ctx = nullptr;
    ~Tls()
    {
        if (ctx)
            SSL_CTX_free(ctx);
    }
};

ControlServer::ControlServer() = default;

ControlServer::~ControlServer()
{
    stop();
}

bool ControlServer::start(const ControlServerOptions& options, Handler handler, std::string& error)
{
    m_options = options;
    m_handler = std::move(handler);
    if (options.certFile.empty() != options.keyFile.empty()) {
        error = "give the control endpoint's certificate and key together";
        return false;
    }
    std::string host;
    std::uint16_t port = 0;
    m_fd = listenOn(options.address, host, port, error);
    if (m_fd < 0)
        return false;
    if (!loopbackHost(host) && (options.token.empty() || options.certFile.empty())) {
        ::close(m_fd);
        m_fd = -1;
        error = "the control endpoint on " + options.address +
                " is reachable from other machines: it needs a token (--token-file) and TLS "
                "(--control-cert, --control-key)";
        return false;
    }
    if (!options.certFile.empty()) {
        m_tls = std::make_unique<Tls>();
        m_tls->ctx = SSL_CTX_new(TLS_server_method());
        if (!m_tls->ctx || SSL_CTX_set_min_proto_version(m_tls->ctx, TLS1_2_VERSION) != 1 ||
            SSL_CTX_use_certificate_chain_file(m_tls->ctx, options.certFile.c_str()) != 1 ||
            SSL_CTX_use_PrivateKey_file(m_tls->ctx, options.keyFile.c_str(), SSL_FILETYPE_PEM) != 1 ||
            SSL_CTX_check_private_key(m_tls->ctx) != 1) {
            char why[256];
            ERR_error_string_n(ERR_get_error(), why, sizeof why);
            error = "the control endpoint's certificate " + options.certFile + " and key " + options.keyFile +
                    " cannot be used: " + why;
            ::close(m_fd);
            m_fd = -1;
            return false;
        }
    }
    m_address = (host.find(':') != std::string::npos ? "[" + host + "]" : host) + ":" + std::to_string(port);
    m_thread = std::thread([this] { serve(); });
    return true;
}

void ControlServer::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    {
        std::unique_lock lock(m_mutex); // each connection ends within its deadline
        m_idle.wait(lock, [this] { return m_serving == 0; });
    }
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

void ControlServer::serve()
{
    while (!m_stop.load()) {
        pollfd p{m_fd, POLLIN, 0};
        if (poll(&p, 1, 200) <= 0)
            continue;
        const int fd = accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            continue;
        {
            std::lock_guard lock(m_mutex);
            if (m_serving >= kMaxConnections) {
                ::close(fd); // busy: the caller tries again (a stop never waits behind idle sockets for long)
                continue;
            }
            ++m_serving;
        }
        std::thread([this, fd] { connection(fd); }).detach();
    }
}

void ControlServer::connection(int fd)
{
    answer(fd);
    ::close(fd);
    std::lock_guard lock(m_mutex);
    if (--m_serving == 0)
        m_idle.notify_all();
}

namespace {
// Non-blocking I/O on one connection (plain or TLS), every call bounded by
// the connection's deadline.
struct Conn
{
    int fd;
    SSL* ssl;
    std::chrono::steady_clock::time_point deadline;
    // Waits for the socket as `ssl`'s last result asks (or for reading); false past the deadline.
    bool wait(bool write) const
    {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        if (left.count() <= 0)
            return false;
        pollfd p{fd, short(write ? POLLOUT : POLLIN), 0};
        return poll(&p, 1, int(left.count()) + 1) > 0;
    }
    // For an SSL call's result: whether to try again (after waiting).
    bool retry(int result) const
    {
        const int e = SSL_get_error(ssl, result);
        return (e == SSL_ERROR_WANT_READ || e == SSL_ERROR_WANT_WRITE) && wait(e == SSL_ERROR_WANT_WRITE);
    }
    bool handshake() const
    {
        for (;;) {
            const int r = SSL_accept(ssl);
            if (r == 1)
                return true;
            if (!retry(r))
                return false;
        }
    }
    int read(char* buf, int n) const
    {
        for (;;) {
            if (ssl) {
                const int r = SSL_read(ssl, buf, n);
                if (r > 0 || !retry(r))
                    return r;
                continue;
            }
            const ssize_t r = ::recv(fd, buf, std::size_t(n), 0);
            if (r >= 0)
                return int(r);
            if ((errno != EAGAIN && errno != EINTR) || !wait(false))
                return -1;
        }
    }
    void writeAll(const std::string& out) const
    {
        for (std::size_t at = 0; at < out.size();) {
            int n = 0;
            if (ssl) {
                n = SSL_write(ssl, out.data() + at, int(out.size() - at));
                if (n <= 0 && retry(n))
                    continue;
            } else {
                const ssize_t r = ::send(fd, out.data() + at, out.size() - at, MSG_NOSIGNAL);
                if (r < 0 && (errno == EAGAIN || errno == EINTR) && wait(true))
                    continue;
                n = int(r);
            }
            if (n <= 0)
                return;
            at += std::size_t(n);
        }
    }
    // After the answer: what the client still sends (a body refused unread)
    // is read and dropped until it closes, 64 KiB or 500 ms, so that the
    // close does not reset the connection before the answer is read.
    void linger()
    {
        if (ssl)
            SSL_shutdown(ssl);
        ::shutdown(fd, SHUT_WR);
        deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(500);
        char buf[4096];
        for (std::size_t dropped = 0; dropped < 64 * 1024;) {
            const int n = ssl ? read(buf, int(sizeof buf)) : int(::recv(fd, buf, sizeof buf, 0));
            if (n > 0) {
                dropped += std::size_t(n);
                continue;
            }
            if (n < 0 && !ssl && errno == EAGAIN && wait(false))
                continue;
            return;
        }
    }
};
} // namespace

// One request, one answer, then the connection closes.
void ControlServer::answer(int fd)
{
    Conn c{fd, nullptr, std::chrono::steady_clock::now() + std::chrono::seconds(kIoSeconds)};
    if (m_tls) {
        c.ssl = SSL_new(m_tls->ctx);
        SSL_set_fd(c.ssl, fd);
        if (!c.handshake()) {
            SSL_free(c.ssl);
            return;
        }
    }
    std::string in;
    char buf[4096];
    std::size_t headEnd = std::string::npos;
    ControlRequest rq;
    ControlReply reply{400, "{\"error\": \"the request did not arrive whole\"}"};
    std::size_t length = 0;
    std::string authorization;
    const ControlReply tooLarge{431, "{\"error\": \"the request head is over 16 KiB\"}"};
    for (;;) {
        if (headEnd == std::string::npos && (headEnd = in.find("\r\n\r\n")) != std::string::npos) {
            if (headEnd > kMaxHead) {
                reply = tooLarge;
                break;
            }
            int status = 400;
            if (!parseControlHead(in.substr(0, headEnd), rq, length, authorization, status)) {
                reply = {status, status == 413 ? "{\"error\": \"a control request's body is at most 4 KiB\"}"
                                               : "{\"error\": \"not an HTTP request this endpoint reads\"}"};
                break;
            }
            // the token, from the head: a caller without one sends no body we read
            if (!m_options.token.empty() && !sameToken(authorization, "Bearer " + m_options.token)) {
                reply = {401, "{\"error\": \"a valid token is required (Authorization: Bearer TOKEN)\"}"};
                break;
            }
        }
        if (headEnd != std::string::npos && in.size() >= headEnd + 4 + length) {
            rq.body = in.substr(headEnd + 4, length);
            rq.peer = peerOf(fd);
            std::lock_guard lock(m_handlerMutex);
            reply = m_handler(rq);
            break;
        }
        if (headEnd == std::string::npos && in.size() > kMaxHead + 3) {
            reply = tooLarge;
            break;
        }
        const int n = c.read(buf, int(sizeof buf));
        if (n <= 0)
            break;
        in.append(buf, std::size_t(n));
    }
    c.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(kIoSeconds); // for the answer
    c.writeAll("HTTP/1.1 " + std::to_string(reply.status) + " " + reasonOf(reply.status) +
               "\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(reply.body.size()) +
               "\r\nConnection: close\r\n\r\n" + reply.body);
    c.linger();
    if (c.ssl)
        SSL_free(c.ssl);
}

} // namespace stampede
