// `stampede-cli control ADDR status|pause|resume|scale X|stop`: a client of a
// running controller's control endpoint (`run --control ADDR`).
#include "cli.h"

#include "control/controlserver.h"
#include "core/number.h"
#include "core/textfile.h"
#include "run/runengine.h"

#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <cstdio>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stampede::cli {

namespace {

const char* const kControlUsage =
    "Usage: stampede-cli control ADDR status|pause|resume|scale X|stop [--token-file F] [--ca F]\n"
    "\n"
    "Steers a running test through its controller's control endpoint (stampede-cli run\n"
    "--control ADDR). ADDR is host:port.\n"
    "  status       print the live second, the plan and the agents (JSON)\n"
    "  pause        no new iterations until resume (the level goes to 0)\n"
    "  resume       back to the level before the pause\n"
    "  scale X      the planned level times X (0.5 halves it), or a rate: scale 800/s\n"
    "  stop         end the run now (saved as stopped)\n"
    "  --token-file F  the run's token (required when the run was given one)\n"
    "  --ca F          speak TLS and verify the endpoint against this CA (required off loopback)\n"
    "Each call is an event in the run's record. Exit 0 when the run took it, 1 when it\n"
    "refused it (already paused, ending), 2 bad input, 3 the endpoint could not be reached.\n";

// host:port or [v6]:port.
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

// One request over plaintext or TLS (verified against `caFile`); the status and body.
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

} // namespace

int controlCommand(const std::vector<std::string>& args)
{
    std::vector<std::string> words;
    std::string tokenFile, caFile, error;
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        if (a == "-h" || a == "--help") {
            std::fputs(kControlUsage, stdout);
            return Passed;
        }
        if (a == "--token-file" || a.rfind("--token-file=", 0) == 0) {
            if (!r.value("--token-file", tokenFile, error))
                break;
        } else if (a == "--ca" || a.rfind("--ca=", 0) == 0) {
            if (!r.value("--ca", caFile, error))
                break;
        } else if (!a.empty() && a[0] == '-' && a.find_first_not_of("-0123456789.") != std::string::npos) {
            error = "unknown option " + a;
            break;
        } else {
            words.push_back(a);
        }
    }
    if (error.empty() && (words.size() < 2 || (words[1] == "scale") != (words.size() == 3) || words.size() > 3))
        error = "expected ADDR status|pause|resume|scale X|stop";
    const std::string what = words.size() > 1 ? words[1] : "";
    std::string method = "POST", path = "/v1/" + what, body;
    if (error.empty()) {
        if (what == "status") {
            method = "GET";
        } else if (what == "scale") {
            std::string x = words[2];
            const bool rate = x.size() > 2 && x.compare(x.size() - 2, 2, "/s") == 0;
            double v = 0;
            bool isRate = false;
            if (rate)
                x.resize(x.size() - 2);
            body = std::string("{\"") + (rate ? "rate" : "factor") + "\": " + x + "}";
            if (!parseScaleBody(body, isRate, v, error)) // the endpoint's own rule, said before the call
                body.clear();
        } else if (what != "pause" && what != "resume" && what != "stop") {
            error = "\"" + what + "\" is not status, pause, resume, scale or stop";
        }
    }
    std::string token, why;
    if (error.empty() && !tokenFile.empty() && !readTokenFile(tokenFile, token, why))
        error = "--token-file: cannot read a token from \"" + tokenFile + "\": " + why;
    if (!error.empty()) {
        std::fprintf(stderr, "stampede-cli control: %s\n\n%s", error.c_str(), kControlUsage);
        return BadInput;
    }
    std::string request = method + " " + path + " HTTP/1.1\r\nHost: " + words[0] + "\r\nConnection: close\r\n";
    if (!token.empty())
        request += "Authorization: Bearer " + token + "\r\n";
    if (method == "POST")
        request += "Content-Type: application/json\r\nContent-Length: " + std::to_string(body.size()) + "\r\n";
    request += "\r\n" + body;
    int status = 0;
    std::string answer;
    if (!exchange(words[0], caFile, request, status, answer, error)) {
        std::fprintf(stderr, "stampede-cli control: %s\n", error.c_str());
        return RunFailed;
    }
    std::fputs(answer.c_str(), status / 100 == 2 ? stdout : stderr);
    if (!answer.empty() && answer.back() != '\n')
        std::fputc('\n', status / 100 == 2 ? stdout : stderr);
    if (status == 401 || status == 400)
        return BadInput;
    return status / 100 == 2 ? Passed : ThresholdFailed;
}

} // namespace stampede::cli
