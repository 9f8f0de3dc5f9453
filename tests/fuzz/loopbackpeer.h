#pragma once
// What the connection fuzz targets share: one loopback listener for the
// process (the session under test connects to it, the target accepts and
// writes the input as the server) and the endpoint that names it.
#include "net/endpoint.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <string>

namespace fuzzpeer {

inline int listener()
{
    static const int fd = [] {
        const int s = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(s, 64);
        return s;
    }();
    return fd;
}

inline const stampede::Endpoint& endpoint()
{
    static const stampede::Endpoint e = [] {
        sockaddr_in a{};
        socklen_t len = sizeof a;
        ::getsockname(listener(), reinterpret_cast<sockaddr*>(&a), &len);
        std::string why;
        return *stampede::Endpoint::resolve("127.0.0.1", ntohs(a.sin_port), why);
    }();
    return e;
}

} // namespace fuzzpeer
