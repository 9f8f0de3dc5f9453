#pragma once
// TLS 1.3 record protection of an established connection (RFC 8446 §5.2),
// for the three AEAD suites: what OpenSSL's record layer does per record,
// without its cost (its SSL_write and SSL_read around the cipher were about
// 250 ns a record of a keep-alive request's 2, half of all TLS's CPU). The
// handshake stays OpenSSL's; the keys come from its traffic secrets
// (HKDF-Expand-Label, §7.3), and KeyUpdate (§4.6.3) is followed both ways.
// The cipher is libcrypto's (EVP): nothing of the suite's security changes.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

struct evp_cipher_ctx_st;
struct evp_cipher_st;
struct evp_md_st;

namespace stampede {

class TlsRecords
{
public:
    // A record's most plaintext, and most ciphertext past its 5-byte header.
    static constexpr std::size_t kMaxPlain = 16384;
    static constexpr std::size_t kMaxCipher = kMaxPlain + 256;
    static constexpr std::size_t kHeader = 5;
    static constexpr std::size_t kTag = 16;
    // Inner content types.
    static constexpr std::uint8_t kAlert = 21, kHandshake = 22, kData = 23;
    // Records sealed under one key before the writer moves to the next
    // (KeyUpdate): well inside AES-GCM's limit of 2^24.5 (§5.5).
    static constexpr std::uint64_t kRecordsPerKey = std::uint64_t(1) << 23;

    explicit TlsRecords(std::uint64_t recordsPerKey = kRecordsPerKey) : m_recordsPerKey(recordsPerKey) {}
    ~TlsRecords();
    TlsRecords(const TlsRecords&) = delete;
    TlsRecords& operator=(const TlsRecords&) = delete;

    // Whether `cipherId` (SSL_CIPHER_get_id) is a suite this layer protects.
    static bool supports(std::uint32_t cipherId);
    // Keys from the connection's application traffic secrets (the client's
    // writes, the server's reads; the server's also seals, in a numbering of
    // its own, what is handed back to OpenSSL: tickets). False when the suite
    // or a secret does not fit.
    bool start(std::uint32_t cipherId, std::string_view clientSecret, std::string_view serverSecret);

    // Appends `data` (`size` bytes of content type `type`) to `out`, as
    // records of at most kMaxPlain bytes each; a KeyUpdate goes first when
    // the write key has sealed its `recordsPerKey`. False when the cipher failed.
    bool seal(std::uint8_t type, const char* data, std::size_t size, std::string& out);
    // Appends a KeyUpdate (asking for the peer's when `requestPeer`) sealed
    // under the write key, and moves the write key on.
    bool sealKeyUpdate(bool requestPeer, std::string& out);
    // The same under the server's first key and the feed's own sequence: a
    // post-handshake message for OpenSSL to read as if from the socket.
    bool sealForOpenSsl(const char* data, std::size_t size, std::string& out);

    // The length of the record at the start of `in` (header included) when
    // all of it is there; 0 when more is needed; -1 (and `why`) when the
    // header is not that of a protected TLS 1.3 record.
    static long recordLength(const unsigned char* in, std::size_t size, std::string& why);
    // The length (header included) of the post-handshake message at the
    // start of `in` when all of it is there; 0 when more is needed; -1 (and
    // `why`) when it says it is longer than any this client takes (64 KiB).
    static long handshakeMessageLength(const unsigned char* in, std::size_t size, std::string& why);
    // Opens the whole record `record` (`length` from recordLength) into `out`
    // (room for length - kHeader - kTag bytes): its inner type and plaintext
    // length. False (and `why`) when it does not authenticate or has no type.
    bool open(const unsigned char* record, std::size_t length, unsigned char* out, std::uint8_t& type,
              std::size_t& plainLength, std::string& why);

    // KeyUpdate: the next read key (the server updated its own), the next write key (after sending ours).
    bool updateReadKey();
    bool updateWriteKey();

private:
    struct Direction
    {
        evp_cipher_ctx_st* ctx = nullptr;
        unsigned char iv[12] = {};
        unsigned char secret[64] = {};
        std::size_t secretLength = 0;
        std::uint64_t seq = 0;
    };
    bool keyFrom(Direction& d, const unsigned char* secret, std::size_t length, bool encrypt);
    bool next(Direction& d, bool encrypt);
    bool sealOne(Direction& d, std::uint8_t type, const char* data, std::size_t size, std::string& out);
    void clear(Direction& d);

    const evp_md_st* m_md = nullptr;
    const evp_cipher_st* m_cipher = nullptr;
    std::uint64_t m_recordsPerKey;
    std::size_t m_keyLength = 0;
    Direction m_write, m_read, m_feed;
};

} // namespace stampede
