#pragma once
// For tests that run a TLS server of their own over loopback sockets
// (tst_tlsflight, tst_tlsrecords): its OpenSSL context.
#include <openssl/evp.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>

namespace loopbacktest {

// A server context with a fresh P-256 key and a self-signed certificate.
inline SSL_CTX* serverContext(int maxVersion, const char* suite = nullptr)
{
    EVP_PKEY* key = EVP_EC_gen("P-256");
    X509* cert = X509_new();
    ASN1_INTEGER_set(X509_get_serialNumber(cert), 1);
    X509_gmtime_adj(X509_getm_notBefore(cert), 0);
    X509_gmtime_adj(X509_getm_notAfter(cert), 3600);
    X509_set_pubkey(cert, key);
    X509_NAME* name = X509_get_subject_name(cert);
    X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_ASC, reinterpret_cast<const unsigned char*>("localhost"), -1, -1,
                               0);
    X509_set_issuer_name(cert, name);
    X509_sign(cert, key, EVP_sha256());
    SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate(ctx, cert);
    SSL_CTX_use_PrivateKey(ctx, key);
    SSL_CTX_set_max_proto_version(ctx, maxVersion);
    if (suite)
        SSL_CTX_set_ciphersuites(ctx, suite);
    X509_free(cert);
    EVP_PKEY_free(key);
    return ctx;
}

} // namespace loopbacktest
