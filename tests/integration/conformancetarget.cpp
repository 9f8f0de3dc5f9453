#include "conformancetarget.h"

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

Target::Target(std::function<void(Peer&)> serve, const std::string& certDir) : m_serve(std::move(serve))
{
    ::signal(SIGPIPE, SIG_IGN); // OpenSSL writes with write(2): a client gone must not end the test
    if (!certDir.empty()) {
        m_ctx = SSL_CTX_new(TLS_server_method());
        SSL_CTX_use_certificate_chain_file(m_ctx, (certDir + "/server.pem").c_str());
        SSL_CTX_use_PrivateKey_file(m_ctx, (certDir + "/server.key").c_str(), SSL_FILETYPE_PEM);
    }
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(m_fd, 128);
    socklen_t len = sizeof a;
    ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &len);
    m_port = ntohs(a.sin_port);
    m_thread = std::thread([this] {
        std::vector<std::thread> handlers;
        while (!m_stop) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            const int c = ::accept(m_fd, nullptr, nullptr);
            if (c < 0)
                continue;
            handlers.emplace_back([this, c] {
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
                // wait for the client to go, so that what was sent is read before the close
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
            });
        }
        for (auto& h : handlers)
            h.join();
    });
}

Target::~Target()
{
    m_stop = true;
    m_thread.join();
    ::close(m_fd);
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
