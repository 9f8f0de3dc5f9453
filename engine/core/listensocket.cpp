#include "listensocket.h"

#include "number.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stampede {

namespace {

// The host and port of `address` into `ss`; false with `error`.
bool socketAddress(const std::string& address, std::string& host, sockaddr_storage& ss, socklen_t& len,
                   std::string& error)
{
    host = "127.0.0.1";
    std::string portText = address;
    if (!address.empty() && address.front() == '[') {
        const std::size_t close = address.find(']');
        if (close == std::string::npos || close + 1 >= address.size() || address[close + 1] != ':') {
            error = "bad listen address \"" + address + "\" (expected [::1]:PORT)";
            return -1;
        }
        host = address.substr(1, close - 1);
        portText = address.substr(close + 2);
    } else if (const std::size_t colon = address.rfind(':'); colon != std::string::npos) {
        if (colon)
            host = address.substr(0, colon);
        portText = address.substr(colon + 1);
    }
    std::uint64_t number = 0;
    std::string why;
    if (!parseWhole(portText, "port", 0, 65535, number, why)) {
        error = "bad port in listen address \"" + address + "\": " + why;
        return false;
    }
    if (host.find(':') != std::string::npos) {
        auto* a = reinterpret_cast<sockaddr_in6*>(&ss);
        a->sin6_family = AF_INET6;
        a->sin6_port = htons(std::uint16_t(number));
        if (inet_pton(AF_INET6, host.c_str(), &a->sin6_addr) != 1) {
            error = "bad IPv6 address \"" + host + "\"";
            return false;
        }
        len = sizeof *a;
    } else {
        auto* a = reinterpret_cast<sockaddr_in*>(&ss);
        a->sin_family = AF_INET;
        a->sin_port = htons(std::uint16_t(number));
        if (host == "localhost")
            host = "127.0.0.1";
        if (inet_pton(AF_INET, host.c_str(), &a->sin_addr) != 1) {
            error = "bad IPv4 address \"" + host + "\" (use a numeric address)";
            return false;
        }
        len = sizeof *a;
    }
    return true;
}

} // namespace

bool validListenAddress(const std::string& address, std::string& error)
{
    std::string host;
    sockaddr_storage ss{};
    socklen_t len = 0;
    return socketAddress(address, host, ss, len, error);
}

int listenOn(const std::string& address, std::string& host, std::uint16_t& port, std::string& error)
{
    sockaddr_storage ss{};
    socklen_t len = 0;
    if (!socketAddress(address, host, ss, len, error))
        return -1;
    const int fd = ::socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || ::bind(fd, reinterpret_cast<sockaddr*>(&ss), len) != 0 || ::listen(fd, 4096) != 0) {
        error = "cannot listen on " + address + ": " + std::strerror(errno);
        if (fd >= 0)
            ::close(fd);
        return -1;
    }
    getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
    port = ntohs(ss.ss_family == AF_INET6 ? reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port
                                          : reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
    return fd;
}

} // namespace stampede
