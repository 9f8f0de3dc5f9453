#include "tlsrecords.h"

#include <cstring>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>

namespace stampede {

namespace {
constexpr std::uint32_t kAes128Gcm = 0x03001301, kAes256Gcm = 0x03001302, kChaCha20 = 0x03001303;

// Fetched once (a fetch searches the provider store under a lock: tens of
// microseconds a connection, when fetched for each).
EVP_KDF* hkdf()
{
    static EVP_KDF* const kdf = EVP_KDF_fetch(nullptr, "HKDF", nullptr);
    return kdf;
}
const EVP_CIPHER* fetched(const char* name)
{
    return EVP_CIPHER_fetch(nullptr, name, nullptr);
}

// HKDF-Expand-Label(secret, label, "", length) of RFC 8446 §7.1.
bool expandLabel(const EVP_MD* md, const unsigned char* secret, std::size_t secretLength, std::string_view label,
                 unsigned char* out, std::size_t length)
{
    unsigned char info[2 + 1 + 6 + 32 + 1];
    if (label.size() > 32)
        return false;
    info[0] = static_cast<unsigned char>(length >> 8);
    info[1] = static_cast<unsigned char>(length);
    info[2] = static_cast<unsigned char>(6 + label.size());
    std::memcpy(info + 3, "tls13 ", 6);
    std::memcpy(info + 9, label.data(), label.size());
    info[9 + label.size()] = 0; // an empty context
    const std::size_t infoLength = 10 + label.size();
    EVP_KDF* kdf = hkdf();
    EVP_KDF_CTX* ctx = kdf ? EVP_KDF_CTX_new(kdf) : nullptr;
    int mode = EVP_KDF_HKDF_MODE_EXPAND_ONLY;
    OSSL_PARAM params[] = {
        OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, const_cast<char*>(EVP_MD_get0_name(md)), 0),
        OSSL_PARAM_construct_int(OSSL_KDF_PARAM_MODE, &mode),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<unsigned char*>(secret), secretLength),
        OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info, infoLength), OSSL_PARAM_construct_end()};
    const bool ok = ctx && EVP_KDF_derive(ctx, out, length, params) == 1;
    EVP_KDF_CTX_free(ctx);
    return ok;
}

void putHeader(unsigned char* h, std::size_t cipherLength)
{
    h[0] = TlsRecords::kData; // the outer type of every protected record
    h[1] = 3;
    h[2] = 3;
    h[3] = static_cast<unsigned char>(cipherLength >> 8);
    h[4] = static_cast<unsigned char>(cipherLength);
}
} // namespace

TlsRecords::~TlsRecords()
{
    clear(m_write);
    clear(m_read);
    clear(m_feed);
}

void TlsRecords::clear(Direction& d)
{
    EVP_CIPHER_CTX_free(d.ctx);
    d.ctx = nullptr;
    OPENSSL_cleanse(d.secret, sizeof d.secret);
    OPENSSL_cleanse(d.iv, sizeof d.iv);
}

bool TlsRecords::supports(std::uint32_t cipherId)
{
    return cipherId == kAes128Gcm || cipherId == kAes256Gcm || cipherId == kChaCha20;
}

bool TlsRecords::start(std::uint32_t cipherId, std::string_view clientSecret, std::string_view serverSecret)
{
    static const EVP_CIPHER* const aes128 = fetched("AES-128-GCM");
    static const EVP_CIPHER* const aes256 = fetched("AES-256-GCM");
    static const EVP_CIPHER* const chacha = fetched("ChaCha20-Poly1305");
    switch (cipherId) {
    case kAes128Gcm:
        m_md = EVP_sha256();
        m_cipher = aes128;
        m_keyLength = 16;
        break;
    case kAes256Gcm:
        m_md = EVP_sha384();
        m_cipher = aes256;
        m_keyLength = 32;
        break;
    case kChaCha20:
        m_md = EVP_sha256();
        m_cipher = chacha;
        m_keyLength = 32;
        break;
    default:
        return false;
    }
    const auto hashLength = std::size_t(EVP_MD_get_size(m_md));
    if (clientSecret.size() != hashLength || serverSecret.size() != hashLength)
        return false;
    const auto* client = reinterpret_cast<const unsigned char*>(clientSecret.data());
    const auto* server = reinterpret_cast<const unsigned char*>(serverSecret.data());
    // the feed's key is made when a ticket first comes (most connections never need it)
    std::memcpy(m_feed.secret, server, hashLength);
    m_feed.secretLength = hashLength;
    return keyFrom(m_write, client, hashLength, true) && keyFrom(m_read, server, hashLength, false);
}

bool TlsRecords::keyFrom(Direction& d, const unsigned char* secret, std::size_t length, bool encrypt)
{
    if (length > sizeof d.secret)
        return false;
    std::memcpy(d.secret, secret, length);
    d.secretLength = length;
    d.seq = 0;
    unsigned char key[32];
    bool ok = expandLabel(m_md, secret, length, "key", key, m_keyLength) &&
              expandLabel(m_md, secret, length, "iv", d.iv, sizeof d.iv);
    if (ok) {
        if (!d.ctx)
            d.ctx = EVP_CIPHER_CTX_new();
        ok = m_cipher && d.ctx && EVP_CipherInit_ex(d.ctx, m_cipher, nullptr, key, nullptr, encrypt ? 1 : 0) == 1;
    }
    OPENSSL_cleanse(key, sizeof key);
    return ok;
}

// application_traffic_secret_N+1 = HKDF-Expand-Label(secret_N, "traffic upd", "", Hash.length)
bool TlsRecords::next(Direction& d, bool encrypt)
{
    unsigned char secret[64];
    const bool ok = expandLabel(m_md, d.secret, d.secretLength, "traffic upd", secret, d.secretLength) &&
                    keyFrom(d, secret, d.secretLength, encrypt);
    OPENSSL_cleanse(secret, sizeof secret);
    return ok;
}

bool TlsRecords::updateReadKey()
{
    return next(m_read, false);
}

bool TlsRecords::updateWriteKey()
{
    return next(m_write, true);
}

bool TlsRecords::sealKeyUpdate(bool requestPeer, std::string& out)
{
    const char message[5] = {24, 0, 0, 1, char(requestPeer ? 1 : 0)}; // KeyUpdate, 1 byte
    return sealOne(m_write, kHandshake, message, sizeof message, out) && updateWriteKey();
}

bool TlsRecords::seal(std::uint8_t type, const char* data, std::size_t size, std::string& out)
{
    do {
        const std::size_t part = std::min(size, kMaxPlain);
        if (m_write.seq >= m_recordsPerKey && !sealKeyUpdate(false, out))
            return false;
        if (!sealOne(m_write, type, data, part, out))
            return false;
        data += part;
        size -= part;
    } while (size > 0);
    return true;
}

bool TlsRecords::sealForOpenSsl(const char* data, std::size_t size, std::string& out)
{
    if (size > kMaxPlain)
        return false;
    if (!m_feed.ctx) {
        unsigned char secret[64];
        std::memcpy(secret, m_feed.secret, m_feed.secretLength);
        const bool ok = keyFrom(m_feed, secret, m_feed.secretLength, true);
        OPENSSL_cleanse(secret, sizeof secret);
        if (!ok)
            return false;
    }
    return sealOne(m_feed, kHandshake, data, size, out);
}

bool TlsRecords::sealOne(Direction& d, std::uint8_t type, const char* data, std::size_t size, std::string& out)
{
    const std::size_t cipherLength = size + 1 + kTag;
    const std::size_t at = out.size();
    out.resize(at + kHeader + cipherLength);
    auto* h = reinterpret_cast<unsigned char*>(out.data() + at);
    putHeader(h, cipherLength);
    unsigned char* body = h + kHeader;
    std::memcpy(body, data, size);
    body[size] = type;
    unsigned char nonce[12];
    std::memcpy(nonce, d.iv, sizeof nonce);
    for (int i = 0; i < 8; ++i)
        nonce[11 - i] ^= static_cast<unsigned char>(d.seq >> (8 * i));
    int n = 0;
    const bool ok = EVP_CipherInit_ex(d.ctx, nullptr, nullptr, nullptr, nonce, 1) == 1 &&
                    EVP_CipherUpdate(d.ctx, nullptr, &n, h, int(kHeader)) == 1 &&
                    EVP_CipherUpdate(d.ctx, body, &n, body, int(size + 1)) == 1 &&
                    EVP_CipherFinal_ex(d.ctx, body + size + 1, &n) == 1 &&
                    EVP_CIPHER_CTX_ctrl(d.ctx, EVP_CTRL_AEAD_GET_TAG, int(kTag), body + size + 1) == 1;
    if (!ok) {
        out.resize(at);
        return false;
    }
    ++d.seq;
    return true;
}

long TlsRecords::recordLength(const unsigned char* in, std::size_t size, std::string& why)
{
    if (size < kHeader)
        return 0;
    const std::size_t length = (std::size_t(in[3]) << 8) | in[4];
    if (in[0] != kData || in[1] != 3 || in[2] != 3) {
        why = in[0] == kAlert && length == 2 && size >= kHeader + 2
                  ? "TLS: an unprotected alert after the handshake (" + std::to_string(in[kHeader + 1]) + ")"
                  : "TLS: a record of type " + std::to_string(in[0]) + " after the handshake";
        return -1;
    }
    if (length > kMaxCipher || length < kTag + 1) {
        why = "TLS: a record of " + std::to_string(length) + " bytes (record overflow)";
        return -1;
    }
    return size >= kHeader + length ? long(kHeader + length) : 0;
}

long TlsRecords::handshakeMessageLength(const unsigned char* in, std::size_t size, std::string& why)
{
    if (size < 4)
        return 0;
    const std::size_t length = (std::size_t(in[1]) << 16) | (std::size_t(in[2]) << 8) | in[3];
    if (length > 64 * 1024) {
        why = "TLS: a handshake message of " + std::to_string(length) + " bytes after the handshake";
        return -1;
    }
    return size >= 4 + length ? long(4 + length) : 0;
}

bool TlsRecords::open(const unsigned char* record, std::size_t length, unsigned char* out, std::uint8_t& type,
                      std::size_t& plainLength, std::string& why)
{
    Direction& d = m_read;
    const std::size_t cipherLength = length - kHeader - kTag;
    // RFC 8446 5.4: the whole inner plaintext, its padding and type byte included, is at most 2^14 + 1
    if (cipherLength > kMaxPlain + 1) {
        why = "TLS: a record of more than 16384 bytes of plaintext with its padding (record overflow)";
        return false;
    }
    unsigned char nonce[12];
    std::memcpy(nonce, d.iv, sizeof nonce);
    for (int i = 0; i < 8; ++i)
        nonce[11 - i] ^= static_cast<unsigned char>(d.seq >> (8 * i));
    unsigned char tag[kTag];
    std::memcpy(tag, record + length - kTag, kTag);
    int n = 0;
    const bool ok = EVP_CipherInit_ex(d.ctx, nullptr, nullptr, nullptr, nonce, 0) == 1 &&
                    EVP_CipherUpdate(d.ctx, nullptr, &n, record, int(kHeader)) == 1 &&
                    EVP_CipherUpdate(d.ctx, out, &n, record + kHeader, int(cipherLength)) == 1 &&
                    EVP_CIPHER_CTX_ctrl(d.ctx, EVP_CTRL_AEAD_SET_TAG, int(kTag), tag) == 1 &&
                    EVP_CipherFinal_ex(d.ctx, out + cipherLength, &n) == 1;
    if (!ok) {
        why = "TLS: a record that does not authenticate (bad record MAC)";
        return false;
    }
    ++d.seq;
    std::size_t end = cipherLength; // the inner type is the last non-zero byte (zeros are padding)
    while (end > 0 && out[end - 1] == 0)
        --end;
    if (end == 0) {
        why = "TLS: a record with no content type";
        return false;
    }
    type = out[end - 1];
    plainLength = end - 1;
    return true;
}

} // namespace stampede
