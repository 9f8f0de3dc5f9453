#include "metricsendpoint.h"

#include "core/clock.h"
#include "core/number.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stampede {

MetricsEndpoint::~MetricsEndpoint()
{
    stop();
}

bool MetricsEndpoint::start(const std::string& address, std::string& error, const std::string& option)
{
    const std::size_t colon = address.rfind(':');
    std::string host = colon == std::string::npos ? "127.0.0.1" : address.substr(0, colon);
    const std::string port = colon == std::string::npos ? address : address.substr(colon + 1);
    if (host == "localhost")
        host = "127.0.0.1";
    std::uint64_t portNumber = 0;
    if (!parseWhole(port, option + " port", 0, 65535, portNumber, error))
        return false;
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(portNumber));
    if (inet_pton(AF_INET, host.c_str(), &a.sin_addr) != 1) {
        error = option + ": \"" + address + "\" is not an IPv4 host:port";
        return false;
    }
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
    const int one = 1;
    ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(m_fd, 16) != 0) {
        error = option + ": cannot listen on " + address + ": " + std::strerror(errno);
        ::close(m_fd);
        m_fd = -1;
        return false;
    }
    socklen_t len = sizeof a;
    ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &len);
    m_port = ntohs(a.sin_port);
    m_thread = std::thread([this] { serve(); });
    return true;
}

struct MetricsEndpoint::Client
{
    int fd = -1;
    Nanos deadline = 0;
    std::string request;
    std::string response; // set once the request is read
    std::size_t sent = 0;
};

void MetricsEndpoint::accept(std::vector<Client>& clients)
{
    for (;;) {
        const int fd = ::accept4(m_fd, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0)
            return;
        if (clients.size() >= kMaxClients) { // the oldest gives way
            ::close(clients.front().fd);
            clients.erase(clients.begin());
        }
        Client c;
        c.fd = fd;
        c.deadline = SteadyClock::monotonicNow() + 2 * kNanosPerSecond;
        clients.push_back(std::move(c));
    }
}

bool MetricsEndpoint::step(Client& c, short revents)
{
    if (revents & (POLLERR | POLLNVAL))
        return false;
    if (c.response.empty()) {
        char buf[2048];
        const ssize_t n = ::recv(c.fd, buf, sizeof buf, 0);
        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
            return false;
        if (n > 0)
            c.request.append(buf, std::size_t(n));
        if (c.request.find("\r\n\r\n") == std::string::npos && c.request.size() < kMaxRequestBytes)
            return true;
        if (c.request.rfind("GET /metrics ", 0) == 0 || c.request.rfind("GET /metrics?", 0) == 0) {
            const std::string body = m_render();
            c.response = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; version=0.0.4\r\nContent-Length: " +
                         std::to_string(body.size()) + "\r\nConnection: close\r\n\r\n" + body;
        } else if (c.request.rfind("GET /healthz ", 0) == 0 || c.request.rfind("GET /readyz ", 0) == 0) {
            std::string said = "ok";
            const bool ready = c.request[5] == 'h' || !m_ready || m_ready(said);
            said += "\n";
            c.response =
                std::string(ready ? "HTTP/1.1 200 OK" : "HTTP/1.1 503 Service Unavailable") +
                "\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: " + std::to_string(said.size()) +
                "\r\nConnection: close\r\n\r\n" + said;
        } else {
            c.response = "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n";
        }
    }
    const ssize_t n = ::send(c.fd, c.response.data() + c.sent, c.response.size() - c.sent, MSG_NOSIGNAL);
    if (n < 0)
        return errno == EAGAIN || errno == EINTR;
    c.sent += std::size_t(n);
    return c.sent < c.response.size();
}

void MetricsEndpoint::serve()
{
    std::vector<Client> clients;
    std::vector<pollfd> fds;
    while (!m_stop) {
        fds.assign(1, pollfd{m_fd, POLLIN, 0});
        for (const auto& c : clients)
            fds.push_back({c.fd, short(c.response.empty() ? POLLIN : POLLOUT), 0});
        if (::poll(fds.data(), fds.size(), 200) < 0)
            continue;
        const Nanos now = SteadyClock::monotonicNow();
        std::vector<Client> kept;
        for (std::size_t i = 0; i < clients.size(); ++i) {
            Client& c = clients[i];
            const short ev = fds[i + 1].revents;
            if (now < c.deadline && (!ev || step(c, ev)))
                kept.push_back(std::move(c));
            else
                ::close(c.fd);
        }
        clients.swap(kept);
        if (fds[0].revents & POLLIN)
            accept(clients);
    }
    for (const auto& c : clients)
        ::close(c.fd);
}

void MetricsEndpoint::stop()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = -1;
}

} // namespace stampede
