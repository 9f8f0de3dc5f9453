#pragma once
// What a gRPC unary answer must be, judged as its frames arrive (an HTTP/2
// stream's headers, DATA and trailers): grpc-status a code from 0 to 16, each
// message's 5-byte prefix (the compressed flag, a big-endian length) true to
// what follows, the flag set only with grpc-encoding, at most kMaxMessage a
// message, exactly one message with status OK. Each call says "" while the
// answer holds, else what is wrong (a `protocol` error of the request).
#include "sessionlistener.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

// A grpc-status value: a code from 0 to 16 written in decimal (no sign, no
// space, at most two digits); -1 for anything else.
int grpcCode(std::string_view value);

// The gRPC session over an HTTP/2 stream: the stream's answer `a` (its HTTP status set) turned into the call's,
// by gRPC's rules, with the grpc-status read (-1: none) and grpc-message: `code` the grpc-status, an error unless
// OK. An HTTP error status stays an HTTP error (a proxy's, not the service's). Returns "" or why the answer is no
// gRPC answer (then a `protocol` failure of the request).
std::string grpcCallAnswer(Answer& a, int grpcStatus, std::string_view grpcMessage);
// A call whose deadline passed (`a` a timeout's failure): it ends as DEADLINE_EXCEEDED, as any gRPC client
// reports it, with `message` (kept by the caller) as its grpc-message.
void grpcDeadline(Answer& a, std::string_view message);

class GrpcAnswer
{
public:
    static constexpr std::uint32_t kMaxMessage = 4 * 1024 * 1024; // gRPC's own default receive limit

    // `streaming`: any number of messages (a server-streaming answer); `keep`: each message's frame is kept
    // (message()) until the next one begins.
    void reset(bool streaming = false, bool keep = false)
    {
        m_encoded = false;
        m_streaming = streaming;
        m_keep = keep;
        m_messages = 0;
        m_prefixHave = 0;
        m_left = 0;
        m_message.clear();
    }
    // grpc-encoding (a compression other than identity).
    void encoding(std::string_view value) { m_encoded = value != "identity"; }
    // A chunk of the answer's DATA.
    std::string data(const std::uint8_t* bytes, std::size_t size);
    // The same up to the end of one message at most: `used` bytes of it read, `ended` a message is complete.
    std::string read(const std::uint8_t* bytes, std::size_t size, std::size_t& used, bool& ended);
    // The last message completed, framed (its 5-byte prefix and its bytes), when kept.
    const std::string& message() const { return m_message; }
    std::uint32_t messages() const { return m_messages; }
    // At the stream's clean end, with the grpc-status read (-1: none).
    std::string ending(int status) const;

private:
    bool m_encoded = false;
    bool m_streaming = false;
    bool m_keep = false;
    std::string m_message;
    std::uint32_t m_messages = 0; // begun
    std::uint8_t m_prefix[5] = {};
    std::uint8_t m_prefixHave = 0; // bytes of the next message's prefix read
    std::uint32_t m_left = 0;      // bytes of the current message still due
};

} // namespace stampede
