#include "tlscontext.h"

#include "tlsbio.h"

#include <cstring>

#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace stampede {

namespace {
struct BioFree
{
    void operator()(BIO* b) const { BIO_free(b); }
};
using BioPtr = std::unique_ptr<BIO, BioFree>;

BioPtr memoryBio(const std::string& pem)
{
    return BioPtr(BIO_new_mem_buf(pem.data(), int(pem.size())));
}

// The bytes of a key log line's last field (hex).
std::string secretOf(const char* line)
{
    const char* hex = std::strrchr(line, ' ');
    std::string out;
    if (!hex)
        return out;
    ++hex;
    const std::size_t n = std::strlen(hex);
    if (n % 2 || n > 128)
        return out;
    for (std::size_t i = 0; i < n; i += 2) {
        const int hi = OPENSSL_hexchar2int(static_cast<unsigned char>(hex[i]));
        const int lo = OPENSSL_hexchar2int(static_cast<unsigned char>(hex[i + 1]));
        if (hi < 0 || lo < 0)
            return {};
        out += char(hi * 16 + lo);
    }
    return out;
}

// OpenSSL's key log line for `ssl` (its traffic secrets, as SSLKEYLOGFILE
// writes them): a connection's application traffic secrets go to its socket
// BIO's state, for the transport's own records (Transport::startOwnRecords).
void tlsKeyLogLine(const SSL* ssl, const char* line)
{
    BIO* b = SSL_get_rbio(ssl);
    if (!b || BIO_method_type(b) != rawSocketType() || !BIO_get_data(b))
        return;
    TlsBioState& st = *static_cast<TlsBioState*>(BIO_get_data(b));
    if (std::strncmp(line, "CLIENT_TRAFFIC_SECRET_0 ", 24) == 0)
        st.clientSecret = secretOf(line);
    else if (std::strncmp(line, "SERVER_TRAFFIC_SECRET_0 ", 24) == 0)
        st.serverSecret = secretOf(line);
}
} // namespace

TlsThreadStateRelease::~TlsThreadStateRelease()
{
    OPENSSL_thread_stop();
}

void keepTlsLibraryUntilExit()
{
    OPENSSL_init_crypto(OPENSSL_INIT_NO_ATEXIT, nullptr);
}

std::string tlsErrorText(const std::string& fallback)
{
    std::string out;
    while (const unsigned long e = ERR_get_error()) {
        char buf[256];
        ERR_error_string_n(e, buf, sizeof buf);
        if (!out.empty())
            out += "; ";
        out += buf;
    }
    return out.empty() ? fallback : out;
}

void TlsSessionFree::operator()(ssl_session_st* s) const
{
    SSL_SESSION_free(s);
}

// Makes a client context of the options (null, and `error`, when they do not load).
SSL_CTX* TlsContext::makeContext(const TlsOptions& o, std::string& error)
{
    std::unique_ptr<SSL_CTX, void (*)(SSL_CTX*)> made(SSL_CTX_new(TLS_client_method()), SSL_CTX_free);
    SSL_CTX* const ctx = made.get();
    if (!ctx) {
        error = tlsErrorText("cannot create a TLS context");
        return nullptr;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    // a client of many connections: keep sessions for resumption, ourselves
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE);
    SSL_CTX_set_mode(ctx,
                     SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS);
    // Read what the socket has in one go: a record's header and body are not
    // two system calls, and what came past an answer is known to be there
    // (Transport::pendingBytes) instead of waiting, unseen, in the socket for
    // an edge that never comes.
    SSL_CTX_set_read_ahead(ctx, 1);
    if (o.verify) {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nullptr);
        if (o.caPem.empty()) {
            SSL_CTX_set_default_verify_paths(ctx);
        } else {
            X509_STORE* store = SSL_CTX_get_cert_store(ctx);
            BioPtr bio = memoryBio(o.caPem);
            int added = 0;
            while (X509* cert = PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr)) {
                added += X509_STORE_add_cert(store, cert) == 1;
                X509_free(cert);
            }
            ERR_clear_error(); // the end of the PEM data reads as an error
            if (!added) {
                error = "the CA file holds no PEM certificate";
                return nullptr;
            }
        }
    } else {
        SSL_CTX_set_verify(ctx, SSL_VERIFY_NONE, nullptr);
    }
    if (!o.certPem.empty() || !o.keyPem.empty()) {
        if (o.certPem.empty() || o.keyPem.empty()) {
            error = "a client certificate needs both the certificate and its key";
            return nullptr;
        }
        BioPtr certBio = memoryBio(o.certPem);
        X509* cert = PEM_read_bio_X509(certBio.get(), nullptr, nullptr, nullptr);
        if (!cert || SSL_CTX_use_certificate(ctx, cert) != 1) {
            X509_free(cert);
            error = tlsErrorText("the client certificate is not a PEM certificate");
            return nullptr;
        }
        X509_free(cert);
        while (X509* extra = PEM_read_bio_X509(certBio.get(), nullptr, nullptr, nullptr))
            if (SSL_CTX_add0_chain_cert(ctx, extra) != 1)
                X509_free(extra);
        ERR_clear_error();
        BioPtr keyBio = memoryBio(o.keyPem);
        EVP_PKEY* key = PEM_read_bio_PrivateKey(keyBio.get(), nullptr, nullptr, nullptr);
        if (!key || SSL_CTX_use_PrivateKey(ctx, key) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
            EVP_PKEY_free(key);
            error = tlsErrorText("the client key is not a PEM private key matching the certificate");
            return nullptr;
        }
        EVP_PKEY_free(key);
    }
    if (!o.alpn.empty()) {
        std::string wire;
        for (const auto& p : o.alpn) {
            wire += char(p.size());
            wire += p;
        }
        SSL_CTX_set_alpn_protos(ctx, reinterpret_cast<const unsigned char*>(wire.data()), unsigned(wire.size()));
    }
    return made.release();
}

std::shared_ptr<TlsContext> TlsContext::create(const TlsOptions& o, std::string& error)
{
    std::shared_ptr<TlsContext> c(new TlsContext());
    c->m_verify = o.verify;
    c->m_resume = o.resume;
    c->m_ctx = makeContext(o, error);
    if (!c->m_ctx)
        return nullptr;
    if (o.ownRecords) {
        // The same options, and OpenSSL's key log: the traffic secrets for the
        // transport's own records. A context apart, because OpenSSL writes
        // each key log line byte by byte with sprintf (about 18 us a
        // handshake): a connection not likely to carry more than one request
        // does without (Transport::connected).
        c->m_keyLogCtx = makeContext(o, error);
        if (!c->m_keyLogCtx)
            return nullptr;
        SSL_CTX_set_keylog_callback(c->m_keyLogCtx, tlsKeyLogLine);
    }
    return c;
}

TlsContext::~TlsContext()
{
    SSL_CTX_free(m_ctx);
    SSL_CTX_free(m_keyLogCtx);
}

} // namespace stampede
