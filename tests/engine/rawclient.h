#pragma once
// A raw loopback client for the tests of the servers the engine runs (the
// control endpoint, the mock): connect, write bytes as they are, read what
// comes until the server closes.
#include <QElapsedTimer>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>

namespace rawclient {

// A connected socket to 127.0.0.1:`port`, or -1.
inline int connectTo(std::uint16_t port)
{
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_port = htons(port);
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

inline void sendAll(int fd, const std::string& bytes)
{
    for (std::size_t at = 0; at < bytes.size();) {
        const ssize_t n = ::send(fd, bytes.data() + at, bytes.size() - at, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        at += std::size_t(n);
    }
}

// What the server sends until it closes or `ms` pass; `closed`: it closed;
// `reset`: the connection was reset.
inline std::string readUntilClose(int fd, int ms, bool* closed = nullptr, bool* reset = nullptr)
{
    std::string out;
    char buf[4096];
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 20) <= 0)
            continue;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n < 0 && reset)
            *reset = errno == ECONNRESET;
        if (n <= 0) {
            if (closed)
                *closed = true;
            break;
        }
        out.append(buf, std::size_t(n));
    }
    return out;
}

// One request written whole, the answer read to the close (5 s at most).
inline std::string ask(std::uint16_t port, const std::string& request, bool* closed = nullptr, bool* reset = nullptr)
{
    const int fd = connectTo(port);
    if (fd < 0)
        return {};
    sendAll(fd, request);
    std::string out = readUntilClose(fd, 5000, closed, reset);
    ::close(fd);
    return out;
}

} // namespace rawclient
