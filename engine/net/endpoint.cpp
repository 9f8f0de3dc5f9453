#include "endpoint.h"

#include <cstring>
#include <netdb.h>

namespace stampede {

Endpoint Endpoint::named(const std::string& host, unsigned port)
{
    Endpoint ep;
    ep.host = host;
    ep.port = port;
    ep.label = host + ":" + std::to_string(port);
    return ep;
}

bool Endpoint::lookUp(std::string& error)
{
    auto ep = resolve(host, port, error);
    if (!ep)
        return false;
    address = ep->address;
    length = ep->length;
    return true;
}

std::optional<Endpoint> Endpoint::resolve(const std::string& host, unsigned port, std::string& error)
{
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const std::string service = std::to_string(port);
    const int rc = getaddrinfo(host.c_str(), service.c_str(), &hints, &res);
    if (rc != 0 || !res) {
        error = "cannot resolve host \"" + host + "\": " + gai_strerror(rc);
        return std::nullopt;
    }
    Endpoint ep = named(host, port);
    std::memcpy(&ep.address, res->ai_addr, res->ai_addrlen);
    ep.length = res->ai_addrlen;
    freeaddrinfo(res);
    return ep;
}

bool Endpoint::sameAs(const Endpoint& o) const
{
    return length == o.length && std::memcmp(&address, &o.address, length) == 0 && tls == o.tls &&
           serverName == o.serverName && (length != 0 || label == o.label);
}

} // namespace stampede
