#pragma once
// For tests that drive a client session against a server socket of their
// own (tst_nodelay, tst_tlsflight): a listening loopback socket and its
// endpoint, and a listener that keeps the last answer.
#include "net/endpoint.h"
#include "net/eventloop.h"
#include "net/sessionlistener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <string>
#include <sys/socket.h>
#include <unistd.h>
#include <vector>

namespace loopbacktest {

struct Answers final : stampede::SessionListener
{
    int answers = 0;
    int status = 0;
    std::string why;
    void onAnswer(std::uint32_t, const stampede::Answer& a, stampede::Nanos) override
    {
        ++answers;
        status = a.status;
        why = std::string(a.why);
    }
};

// Listens on 127.0.0.1, a port the kernel chooses; the socket (-1: failed)
// and, in `endpoint`, where to reach it.
inline int listenLoopback(stampede::Endpoint& endpoint)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof a;
    std::string error;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 || ::listen(fd, 16) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len) != 0) {
        ::close(fd);
        return -1;
    }
    auto resolved = stampede::Endpoint::resolve("127.0.0.1", ntohs(a.sin_port), error);
    if (!resolved) {
        ::close(fd);
        return -1;
    }
    endpoint = *resolved;
    return fd;
}

// A listening loopback socket for a test's lifetime.
struct Listener
{
    stampede::Endpoint endpoint;
    int fd = listenLoopback(endpoint);
    Listener() = default;
    Listener(const Listener&) = delete;
    Listener& operator=(const Listener&) = delete;
    ~Listener()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

// A listener, and a client's event loop and read buffer.
struct Loopback : Listener
{
    stampede::EventLoop loop;
    std::vector<char> buffer = std::vector<char>(65536);
};

} // namespace loopbacktest
