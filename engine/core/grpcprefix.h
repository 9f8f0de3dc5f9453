#pragma once
// A gRPC message's 5-byte prefix (a compressed flag, then the message's length, big-endian), as every reader of
// framed messages takes it: the engine's streaming calls, Send, and the mock.
#include <cstddef>
#include <string_view>

namespace stampede {

constexpr std::size_t kGrpcPrefix = 5;

// The length the prefix at the start of `framed` announces (at least kGrpcPrefix bytes must be there).
inline std::size_t grpcPrefixLength(std::string_view framed)
{
    const auto* p = reinterpret_cast<const unsigned char*>(framed.data());
    return (std::size_t(p[1]) << 24) | (std::size_t(p[2]) << 16) | (std::size_t(p[3]) << 8) | p[4];
}

} // namespace stampede
