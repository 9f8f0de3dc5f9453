#pragma once
// The client side of TLS for the engine's sessions (OpenSSL): one context per
// set of options, shared by every connection of a run. Verification is on by
// default (the system's CAs, or a CA file), against the server name also sent
// as SNI; ALPN offers the protocols asked for; a client certificate may be
// presented. Sessions are kept per connection and offered again when it
// reconnects, so that a reconnect resumes instead of a full handshake.
#include <memory>
#include <string>
#include <vector>

struct ssl_ctx_st;
struct ssl_session_st;

namespace stampede {

struct TlsOptions
{
    bool verify = true;
    std::string caPem;             // empty: the system's CAs
    std::string certPem;           // client certificate (chain), PEM
    std::string keyPem;            // its private key, PEM
    std::vector<std::string> alpn; // e.g. {"h2", "http/1.1"}; empty: no ALPN
    bool resume = true;            // a reconnect resumes the session of the connection before
    // TLS 1.3 with an AEAD suite: past the handshake, records are sealed and
    // opened by the engine (TlsRecords), not by OpenSSL's record layer.
    bool ownRecords = false;
};

class TlsContext
{
public:
    // Returns nullptr with `error` when the CA, certificate or key do not load.
    static std::shared_ptr<TlsContext> create(const TlsOptions& options, std::string& error);
    ~TlsContext();
    TlsContext(const TlsContext&) = delete;
    TlsContext& operator=(const TlsContext&) = delete;

    ssl_ctx_st* handle() const { return m_ctx; }
    // The same context with OpenSSL's key log to the transport (ownRecords), else handle().
    ssl_ctx_st* keyLogHandle() const { return m_keyLogCtx ? m_keyLogCtx : m_ctx; }
    bool verifies() const { return m_verify; }
    bool resumes() const { return m_resume; }
    bool ownRecords() const { return m_keyLogCtx != nullptr; }

private:
    TlsContext() = default;
    static ssl_ctx_st* makeContext(const TlsOptions& options, std::string& error);
    ssl_ctx_st* m_ctx = nullptr;
    ssl_ctx_st* m_keyLogCtx = nullptr;
    bool m_verify = true;
    bool m_resume = true;
};

// Frees an SSL_SESSION held for resumption.
struct TlsSessionFree
{
    void operator()(ssl_session_st* s) const;
};
using TlsSessionPtr = std::unique_ptr<ssl_session_st, TlsSessionFree>;

// The text of OpenSSL's error queue (emptied), or `fallback`.
std::string tlsErrorText(const std::string& fallback);

// First thing in a program's main: OpenSSL's own cleanup at exit is not run. gRPC's threads may still be in a
// handshake with an agent as the process ends (a run that could not start: an agent's certificate refused, an
// agent that does not speak TLS), and would then use OpenSSL's freed locks: a crash at exit instead of the
// exit code that says why (found under make asan, tst_faultmatrix). The memory is the process's until it ends.
void keepTlsLibraryUntilExit();

// Frees the calling thread's OpenSSL state when it goes out of scope. The
// one-off exchanges (Send, the ALPN probe) run on pool threads that stay
// alive idle; without this, each kept OpenSSL's per-thread state until the
// process ended.
struct TlsThreadStateRelease
{
    TlsThreadStateRelease() = default;
    TlsThreadStateRelease(const TlsThreadStateRelease&) = delete;
    TlsThreadStateRelease& operator=(const TlsThreadStateRelease&) = delete;
    ~TlsThreadStateRelease();
};

} // namespace stampede
