#include "httpexchange.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <netdb.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stampede::cli {

namespace {

int connectTo(const std::string& host, const std::string& port, std::string& error)
{
    addrinfo hints{};
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = getaddrinfo(host.c_str(), port.c_str(), &hints, &found); rc != 0) {
        error = host + " does not resolve: " + gai_strerror(rc);
        return -1;
    }
    int fd = -1;
    for (addrinfo* a = found; a && fd < 0; a = a->ai_next) {
        fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
        const timeval limit{5, 0};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, sizeof limit);
        if (fd >= 0 && ::connect(fd, a->ai_addr, a->ai_addrlen) != 0) {
            error = std::string("cannot connect: ") + std::strerror(errno);
            ::close(fd);
            fd = -1;
        }
    }
    freeaddrinfo(found);
    return fd;
}

} // namespace

bool splitAddress(const std::string& address, std::string& host, std::string& port)
{
    const std::size_t colon = address.rfind(':');
    if (colon == std::string::npos || colon == 0 || colon + 1 == address.size())
        return false;
    host = address.substr(0, colon);
    port = address.substr(colon + 1);
    if (host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    return port.find_first_not_of("0123456789") == std::string::npos;
}

bool exchange(const std::string& address, const std::string& caFile, const std::string& request, int& status,
              std::string& body, std::string& error)
{
    std::string host, port;
    if (!splitAddress(address, host, port)) {
        error = "\"" + address + "\" is not host:port";
        return false;
    }
    const int fd = connectTo(host, port, error);
    if (fd < 0)
        return false;
    SSL_CTX* ctx = nullptr;
    SSL* ssl = nullptr;
    const auto done = [&](bool result) {
        if (ssl)
            SSL_free(ssl);
        if (ctx)
            SSL_CTX_free(ctx);
        ::close(fd);
        return result;
    };
    if (!caFile.empty()) {
        ctx = SSL_CTX_new(TLS_client_method());
        if (!ctx || SSL_CTX_load_verify_locations(ctx, caFile.c_str(), nullptr) != 1) {
            error = "--ca: \"" + caFile + "\" holds no usable certificate";
            return done(false);
        }
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
        ssl = SSL_new(ctx);
        SSL_set_fd(ssl, fd);
        SSL_set_tlsext_host_name(ssl, host.c_str());
        X509_VERIFY_PARAM* param = SSL_get0_param(ssl);
        if (host.find_first_not_of("0123456789.:") == std::string::npos)
            X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
        else
            SSL_set1_host(ssl, host.c_str());
        if (SSL_connect(ssl) != 1) {
            char why[256];
            ERR_error_string_n(ERR_get_error(), why, sizeof why);
            error = "TLS with " + address + " failed: " + why + " (is it a TLS endpoint, of this CA, for this name?)";
            return done(false);
        }
    }
    for (std::size_t at = 0; at < request.size();) {
        const int n = ssl ? SSL_write(ssl, request.data() + at, int(request.size() - at))
                          : int(::send(fd, request.data() + at, request.size() - at, MSG_NOSIGNAL));
        if (n <= 0) {
            error = "the endpoint closed the connection";
            return done(false);
        }
        at += std::size_t(n);
    }
    std::string in;
    char buf[4096];
    for (int n; (n = ssl ? SSL_read(ssl, buf, sizeof buf) : int(::recv(fd, buf, sizeof buf, 0))) > 0;) {
        in.append(buf, std::size_t(n));
        if (in.size() > 1024 * 1024)
            break;
    }
    const std::size_t headEnd = in.find("\r\n\r\n");
    if (in.compare(0, 9, "HTTP/1.1 ") != 0 || headEnd == std::string::npos || in.size() < 12) {
        error = "the endpoint at " + address + " did not answer HTTP (a TLS endpoint asked without --ca?)";
        return done(false);
    }
    status = std::atoi(in.c_str() + 9);
    body = in.substr(headEnd + 4);
    return done(true);
}

} // namespace stampede::cli
