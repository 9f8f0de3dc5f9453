// libFuzzer target: the engine's TLS 1.3 records. The input is either a
// peer's bytes, opened record by record (framing, authentication, the inner
// type and its padding), or plaintext a peer seals in pieces of the input's
// choosing, which must open to the same bytes; handshake bytes are split
// into messages as the transport does after the handshake.
#include "net/tlsrecords.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace {
const std::string kClient(32, 'c'), kServer(32, 's');

void splitMessages(const std::string& bytes)
{
    std::string why;
    std::size_t at = 0;
    for (;;) {
        const long n = stampede::TlsRecords::handshakeMessageLength(
            reinterpret_cast<const unsigned char*>(bytes.data()) + at, bytes.size() - at, why);
        if (n <= 0)
            return;
        if (std::size_t(n) > bytes.size() - at)
            __builtin_trap();
        at += std::size_t(n);
    }
}

// Opens every whole record of `wire` with `reader`; the plaintext of each type.
std::string openAll(stampede::TlsRecords& reader, const std::string& wire, std::string& handshake)
{
    std::string plain, why;
    std::string out(stampede::TlsRecords::kMaxCipher, '\0');
    std::size_t at = 0;
    for (;;) {
        const auto* p = reinterpret_cast<const unsigned char*>(wire.data()) + at;
        const long n = stampede::TlsRecords::recordLength(p, wire.size() - at, why);
        if (n <= 0)
            break;
        if (std::size_t(n) > wire.size() - at || std::size_t(n) < stampede::TlsRecords::kHeader + 17)
            __builtin_trap();
        std::uint8_t type = 0;
        std::size_t length = 0;
        if (!reader.open(p, std::size_t(n), reinterpret_cast<unsigned char*>(out.data()), type, length, why))
            break;
        if (length > stampede::TlsRecords::kMaxPlain)
            __builtin_trap();
        (type == stampede::TlsRecords::kHandshake ? handshake : plain).append(out.data(), length);
        at += std::size_t(n);
    }
    return plain;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    stampede::TlsRecords writer, reader;
    if (!writer.start(0x03001301, kClient, kServer) || !reader.start(0x03001301, kServer, kClient))
        __builtin_trap();
    const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);
    std::string handshake;
    if (data[0] & 1) { // a peer's bytes as they come
        openAll(reader, input, handshake);
        splitMessages(handshake);
        return 0;
    }
    // sealed in pieces of 1 to 256 bytes (a zero byte: a key update between pieces), then opened
    std::string wire, sent;
    const std::size_t step = 1 + data[0] % 255;
    bool updated = false;
    for (std::size_t at = 0; at < input.size(); at += step) {
        const std::string piece = input.substr(at, step);
        if (!writer.seal(stampede::TlsRecords::kData, piece.data(), piece.size(), wire))
            __builtin_trap();
        sent += piece;
        if (piece[0] == 0 && !updated) {
            updated = true;
            if (!writer.updateWriteKey())
                __builtin_trap();
            if (openAll(reader, wire, handshake) != sent || !reader.updateReadKey())
                __builtin_trap();
            wire.clear();
            sent.clear();
        }
    }
    if (openAll(reader, wire, handshake) != sent)
        __builtin_trap();
    return 0;
}
