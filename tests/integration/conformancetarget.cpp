#include "conformancetarget.h"

#include "testsupport.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <utility>

namespace conformance {

namespace {
thread_local Target* t_target = nullptr;
}

Target& current()
{
    return *t_target;
}

std::string Peer::readRequest()
{
    char buf[16384];
    for (;;) {
        const std::size_t headEnd = m_pending.find("\r\n\r\n");
        if (headEnd != std::string::npos) {
            std::size_t length = 0;
            // the body by Content-Length (the engine frames its requests so)
            for (const char* name : {"Content-Length: ", "content-length: "}) {
                const std::size_t at = m_pending.find(name);
                if (at != std::string::npos && at < headEnd)
                    length = std::strtoul(m_pending.c_str() + at + std::strlen(name), nullptr, 10);
            }
            if (m_pending.size() >= headEnd + 4 + length) {
                std::string request = m_pending.substr(0, headEnd + 4 + length);
                m_pending.erase(0, request.size());
                if (t_target)
                    t_target->count(request);
                return request;
            }
        }
        const int n = m_ssl ? SSL_read(m_ssl, buf, int(sizeof buf)) : int(::recv(m_fd, buf, sizeof buf, 0));
        if (n <= 0)
            return {};
        m_pending.append(buf, std::size_t(n));
    }
}

std::string Peer::readSome()
{
    if (!m_pending.empty())
        return std::exchange(m_pending, std::string());
    char buf[16384];
    const int n = m_ssl ? SSL_read(m_ssl, buf, int(sizeof buf)) : int(::recv(m_fd, buf, sizeof buf, 0));
    return n > 0 ? std::string(buf, std::size_t(n)) : std::string();
}

bool Peer::write(const std::string& bytes)
{
    std::size_t done = 0;
    while (done < bytes.size()) {
        const int n = m_ssl ? SSL_write(m_ssl, bytes.data() + done, int(bytes.size() - done))
                            : int(::send(m_fd, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL));
        if (n <= 0)
            return false;
        done += std::size_t(n);
    }
    return true;
}

bool Peer::waitReadable(int ms)
{
    if (m_ssl && SSL_pending(m_ssl) > 0)
        return true;
    pollfd p{m_fd, POLLIN, 0};
    return ::poll(&p, 1, ms) > 0;
}

void Peer::close()
{
    if (m_ssl)
        SSL_shutdown(m_ssl);
    ::shutdown(m_fd, SHUT_WR);
}

void Peer::reset()
{
    linger l{1, 0};
    ::setsockopt(m_fd, SOL_SOCKET, SO_LINGER, &l, sizeof l);
    ::shutdown(m_fd, SHUT_RD); // the RST goes with the close that follows the handler
}

Target::Target(std::function<void(Peer&)> serve, const std::string& certDir)
    : m_serve(std::move(serve)), m_ctx(makeContext(certDir)),
      m_server(std::make_unique<testsupport::RawServer>([this](int fd) { connection(fd); }))
{
    ::signal(SIGPIPE, SIG_IGN); // OpenSSL writes with write(2): a client gone must not end the test
}

::ssl_ctx_st* Target::makeContext(const std::string& certDir)
{
    if (certDir.empty())
        return nullptr;
    SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate_chain_file(ctx, (certDir + "/server.pem").c_str());
    SSL_CTX_use_PrivateKey_file(ctx, (certDir + "/server.key").c_str(), SSL_FILETYPE_PEM);
    return ctx;
}

// One accepted connection, on its own thread (RawServer's): TLS first when
// asked, the shape, then what the client still sends is read until it goes.
void Target::connection(int c)
{
    t_target = this;
    SSL* ssl = nullptr;
    if (m_ctx) {
        ssl = SSL_new(m_ctx);
        SSL_set_fd(ssl, c);
        if (SSL_accept(ssl) != 1) {
            SSL_free(ssl);
            ::close(c);
            return;
        }
    }
    Peer peer(c, ssl);
    m_serve(peer);
    char buf[4096];
    for (int i = 0; i < 100; ++i) {
        if (!peer.waitReadable(50))
            continue;
        const int n = ssl ? SSL_read(ssl, buf, sizeof buf) : int(::recv(c, buf, sizeof buf, 0));
        if (n <= 0)
            break;
    }
    if (ssl)
        SSL_free(ssl);
    ::close(c);
}

int Target::port() const
{
    return m_server->port();
}

Target::~Target()
{
    m_server.reset(); // every connection's thread joined first
    if (m_ctx)
        SSL_CTX_free(m_ctx);
}

void Target::count(const std::string& request)
{
    ++m_requests;
    std::lock_guard lock(m_mutex);
    m_received.push_back(request);
}

std::vector<std::string> Target::received() const
{
    std::lock_guard lock(m_mutex);
    return m_received;
}

} // namespace conformance
