#include "httpexchange.h"

#include "core/text.h"
#include "core/url.h"
#include "endpoint.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace stampede {

namespace {

struct Fd
{
    int fd = -1;
    ~Fd()
    {
        if (fd >= 0)
            ::close(fd);
    }
};

bool waitFor(int fd, short events, Nanos deadline, std::string& error)
{
    const Nanos left = deadline - SteadyClock::monotonicNow();
    if (left <= 0) {
        error = "timed out";
        return false;
    }
    pollfd p{fd, events, 0};
    const int rc = ::poll(&p, 1, int(left / kNanosPerMilli) + 1);
    if (rc <= 0) {
        error = "timed out";
        return false;
    }
    return true;
}

} // namespace

HttpExchangeResult exchange(const HttpExchangeRequest& rq)
{
    HttpExchangeResult r;
    const Nanos start = SteadyClock::monotonicNow();
    const Nanos deadline = start + rq.timeout;
    std::string error;
    const auto url = Url::parse(rq.url, error);
    if (!url) {
        r.error = error;
        return r;
    }
    if (url->scheme != "http") {
        r.error = "https is not supported yet";
        return r;
    }
    const auto ep = Endpoint::resolve(url->host, url->port, error);
    if (!ep) {
        r.error = error;
        return r;
    }
    Fd sock;
    sock.fd = ::socket(ep->address.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(sock.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (::connect(sock.fd, reinterpret_cast<const sockaddr*>(&ep->address), ep->length) != 0 && errno != EINPROGRESS) {
        r.error = "cannot connect to " + ep->label + ": " + std::strerror(errno);
        return r;
    }
    if (!waitFor(sock.fd, POLLOUT, deadline, error)) {
        r.error = "connect to " + ep->label + " " + error;
        return r;
    }
    int soErr = 0;
    socklen_t len = sizeof soErr;
    ::getsockopt(sock.fd, SOL_SOCKET, SO_ERROR, &soErr, &len);
    if (soErr) {
        r.error = "cannot connect to " + ep->label + ": " + std::strerror(soErr);
        return r;
    }
    r.connectTime = SteadyClock::monotonicNow() - start;

    std::string out = rq.method + " " + url->target + " HTTP/1.1\r\n";
    bool hasHost = false, hasLength = false;
    for (const auto& [n, v] : rq.headers) {
        hasHost |= equalsNoCase(n, "host");
        hasLength |= equalsNoCase(n, "content-length");
        out += n + ": " + v + "\r\n";
    }
    if (!hasHost)
        out += "Host: " + url->hostHeader() + "\r\n";
    if (!hasLength && (!rq.body.empty() || rq.method == "POST" || rq.method == "PUT" || rq.method == "PATCH"))
        out += "Content-Length: " + std::to_string(rq.body.size()) + "\r\n";
    out += "Connection: close\r\n\r\n" + rq.body;
    for (std::size_t sent = 0; sent < out.size();) {
        const ssize_t n = ::send(sock.fd, out.data() + sent, out.size() - sent, MSG_NOSIGNAL);
        if (n > 0) {
            sent += std::size_t(n);
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EINTR) && waitFor(sock.fd, POLLOUT, deadline, error))
            continue;
        r.error = "cannot send the request: " + (error.empty() ? std::string(std::strerror(errno)) : error);
        return r;
    }

    // Read the head, then the body by its framing.
    std::string in;
    char buf[16384];
    bool eof = false;
    auto readMore = [&]() -> bool {
        for (;;) {
            const ssize_t n = ::recv(sock.fd, buf, sizeof buf, 0);
            if (n > 0) {
                if (!r.firstByteTime)
                    r.firstByteTime = SteadyClock::monotonicNow() - start;
                in.append(buf, std::size_t(n));
                return true;
            }
            if (n == 0) {
                eof = true;
                return false;
            }
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN) {
                error = std::strerror(errno);
                return false;
            }
            if (!waitFor(sock.fd, POLLIN, deadline, error))
                return false;
        }
    };
    std::size_t headEnd;
    while ((headEnd = in.find("\r\n\r\n")) == std::string::npos) {
        if (in.size() > 64 * 1024 || !readMore()) {
            r.error = eof                     ? "the server closed the connection without a complete response"
                      : in.size() > 64 * 1024 ? "the response head is larger than 64 KiB"
                                              : "no response: " + error;
            return r;
        }
    }
    const std::string_view head(in.data(), headEnd);
    const std::size_t lineEnd = head.find("\r\n");
    const std::string_view status = head.substr(0, lineEnd);
    if (status.size() < 12 || status.substr(0, 7) != "HTTP/1.") {
        r.error = "not an HTTP/1.x response";
        return r;
    }
    std::from_chars(status.data() + 9, status.data() + 12, r.status);
    r.reason = std::string(status.size() > 13 ? status.substr(13) : std::string_view());
    bool chunked = false;
    long long length = -1;
    for (std::size_t pos = lineEnd + 2; pos < head.size();) {
        std::size_t e = head.find("\r\n", pos);
        if (e == std::string_view::npos)
            e = head.size();
        const std::string_view line = head.substr(pos, e - pos);
        const std::size_t colon = line.find(':');
        if (colon != std::string_view::npos) {
            std::string name(line.substr(0, colon));
            std::string_view value = line.substr(colon + 1);
            while (!value.empty() && value.front() == ' ')
                value.remove_prefix(1);
            if (equalsNoCase(name, "content-length"))
                std::from_chars(value.data(), value.data() + value.size(), length);
            if (equalsNoCase(name, "transfer-encoding") && value.find("chunked") != std::string_view::npos)
                chunked = true;
            r.headers.emplace_back(std::move(name), std::string(value));
        }
        pos = e + 2;
    }
    std::string raw = in.substr(headEnd + 4);
    in.clear();
    auto keep = [&](std::string_view data) {
        r.bodyBytes += data.size();
        const std::size_t room = HttpExchangeResult::kBodyCap - std::min(r.body.size(), HttpExchangeResult::kBodyCap);
        r.body.append(data.substr(0, room));
        r.truncated |= data.size() > room;
    };
    const bool noBody =
        rq.method == "HEAD" || r.status == 204 || r.status == 304 || (r.status >= 100 && r.status < 200);
    if (noBody) {
        // nothing to read
    } else if (chunked) {
        std::size_t pos = 0;
        for (;;) {
            std::size_t crlf;
            while ((crlf = raw.find("\r\n", pos)) == std::string::npos) {
                if (!readMore()) {
                    r.error = "the chunked body ended early";
                    return r;
                }
                raw += in;
                in.clear();
            }
            unsigned long long size = 0;
            std::from_chars(raw.data() + pos, raw.data() + crlf, size, 16);
            pos = crlf + 2;
            if (size == 0)
                break;
            while (raw.size() < pos + size + 2) {
                if (!readMore()) {
                    r.error = "the chunked body ended early";
                    return r;
                }
                raw += in;
                in.clear();
            }
            keep(std::string_view(raw).substr(pos, size));
            pos += size + 2;
            if (pos > 1024 * 1024) { // keep the buffer small on long bodies
                raw.erase(0, pos);
                pos = 0;
            }
        }
    } else if (length >= 0) {
        keep(std::string_view(raw).substr(0, std::size_t(length)));
        while (r.bodyBytes < std::uint64_t(length)) {
            if (!readMore()) {
                r.error =
                    "the body ended after " + std::to_string(r.bodyBytes) + " of " + std::to_string(length) + " bytes";
                return r;
            }
            keep(std::string_view(in).substr(0, std::size_t(length) - r.bodyBytes));
            in.clear();
        }
    } else {
        keep(raw);
        while (readMore()) {
            keep(in);
            in.clear();
        }
        if (!eof) {
            r.error = "reading the body: " + error;
            return r;
        }
    }
    r.totalTime = SteadyClock::monotonicNow() - start;
    if (!r.firstByteTime)
        r.firstByteTime = r.totalTime;
    r.ok = true;
    return r;
}

} // namespace stampede
