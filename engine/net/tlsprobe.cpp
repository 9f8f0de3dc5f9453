#include "tlsprobe.h"

#include "core/number.h"
#include "tlscontext.h"

#include <arpa/inet.h>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <memory>
#include <utility>

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

// host:port (or [v6]:port) looked up; `host` is the name as written.
std::optional<Endpoint> resolveAddress(const std::string& address, std::string& host, std::string& why)
{
    const std::size_t colon = address.rfind(':');
    std::uint64_t port = 0;
    host = colon == std::string::npos ? std::string() : address.substr(0, colon);
    if (host.size() >= 2 && host.front() == '[' && host.back() == ']')
        host = host.substr(1, host.size() - 2);
    if (host.empty() || !parseWhole(address.substr(colon + 1), "port", 1, 65535, port, why)) {
        why = "\"" + address + "\" is not host:port";
        return std::nullopt;
    }
    return Endpoint::resolve(host, unsigned(port), why);
}

} // namespace

std::string certificateProblem(long verifyResult, const std::string& name)
{
    const std::string openssl = X509_verify_cert_error_string(verifyResult);
    switch (verifyResult) {
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY:
    case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT:
    case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT:
    case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN:
    case X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
    case X509_V_ERR_CERT_UNTRUSTED:
        return "unknown CA: the certificate is not signed by a CA trusted here (" + openssl + ")";
    case X509_V_ERR_HOSTNAME_MISMATCH:
    case X509_V_ERR_IP_ADDRESS_MISMATCH:
        return "name mismatch: the certificate is not for " + name + " (" + openssl + ")";
    case X509_V_ERR_CERT_HAS_EXPIRED:
        return "expired certificate (" + openssl + ")";
    case X509_V_ERR_CERT_NOT_YET_VALID:
        return "certificate not yet valid (" + openssl + ")";
    default:
        return openssl;
    }
}

int connectBlocking(const Endpoint& endpoint, Nanos timeout, std::string& why)
{
    Fd s{::socket(endpoint.address.ss_family, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0)};
    if (s.fd < 0) {
        why = std::string("socket: ") + std::strerror(errno);
        return -1;
    }
    if (::connect(s.fd, reinterpret_cast<const sockaddr*>(&endpoint.address), endpoint.length) != 0 &&
        errno != EINPROGRESS) {
        why = std::strerror(errno);
        return -1;
    }
    pollfd p{s.fd, POLLOUT, 0};
    if (::poll(&p, 1, int(timeout / kNanosPerMilli)) != 1) {
        why = "no answer within " + std::to_string(timeout / kNanosPerMilli) + " ms";
        return -1;
    }
    int error = 0;
    socklen_t len = sizeof error;
    ::getsockopt(s.fd, SOL_SOCKET, SO_ERROR, &error, &len);
    if (error) {
        why = std::strerror(error);
        return -1;
    }
    ::fcntl(s.fd, F_SETFL, ::fcntl(s.fd, F_GETFL) & ~O_NONBLOCK);
    timeval tv{time_t(timeout / kNanosPerSecond), suseconds_t(timeout % kNanosPerSecond / 1000)};
    ::setsockopt(s.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    ::setsockopt(s.fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    return std::exchange(s.fd, -1);
}

bool tcpAnswers(const std::string& address, Nanos timeout)
{
    std::string host, why;
    const auto endpoint = resolveAddress(address, host, why);
    Fd s{endpoint ? connectBlocking(*endpoint, timeout, why) : -1};
    return s.fd >= 0;
}

TlsProbe probeTls(const std::string& address, const std::string& caPem, Nanos timeout)
{
    TlsProbe out;
    std::string host;
    const auto endpoint = resolveAddress(address, host, out.detail);
    if (!endpoint)
        return out;
    Fd s{connectBlocking(*endpoint, timeout, out.detail)};
    if (s.fd < 0) {
        out.detail = "nothing answers at " + address + " (" + out.detail + ")";
        return out;
    }
    TlsOptions o;
    o.verify = !caPem.empty();
    o.caPem = caPem;
    o.alpn = {"h2"};
    std::string error;
    auto ctx = TlsContext::create(o, error);
    if (!ctx) {
        out.kind = TlsProbe::Kind::HandshakeFailed;
        out.detail = error;
        return out;
    }
    std::unique_ptr<SSL, decltype(&::SSL_free)> ssl(SSL_new(ctx->handle()), ::SSL_free);
    SSL_set_verify(ssl.get(), SSL_VERIFY_NONE, nullptr); // the result is read after the handshake
    in6_addr ip{};
    const bool literal = inet_pton(AF_INET, host.c_str(), &ip) == 1 || inet_pton(AF_INET6, host.c_str(), &ip) == 1;
    if (literal)
        X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl.get()), host.c_str());
    else {
        SSL_set1_host(ssl.get(), host.c_str());
        SSL_set_tlsext_host_name(ssl.get(), host.c_str());
    }
    SSL_set_fd(ssl.get(), s.fd);
    ERR_clear_error();
    if (SSL_connect(ssl.get()) == 1) {
        const long verify = SSL_get_verify_result(ssl.get());
        out.kind = !o.verify || verify == X509_V_OK ? TlsProbe::Kind::Tls : TlsProbe::Kind::CertificateRejected;
        out.detail = out.kind == TlsProbe::Kind::Tls ? "TLS" : certificateProblem(verify, host);
        SSL_shutdown(ssl.get());
        return out;
    }
    // A TLS peer that refuses says so with an alert; anything else (another
    // protocol's bytes, or a close without a word) is a peer that does not speak TLS.
    const unsigned long e = ERR_peek_error();
    if (ERR_GET_LIB(e) == ERR_LIB_SSL && ERR_GET_REASON(e) >= SSL_AD_REASON_OFFSET) {
        out.kind = TlsProbe::Kind::HandshakeFailed;
        out.detail = tlsErrorText("the TLS handshake failed");
        return out;
    }
    ERR_clear_error();
    out.kind = TlsProbe::Kind::Plaintext;
    out.detail = address + " does not speak TLS";
    return out;
}

} // namespace stampede
