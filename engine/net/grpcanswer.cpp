#include "grpcanswer.h"

#include <algorithm>
#include <cstring>

namespace stampede {

int grpcCode(std::string_view v)
{
    if (v.empty() || v.size() > 2)
        return -1;
    int code = 0;
    for (const char c : v) {
        if (c < '0' || c > '9')
            return -1;
        code = code * 10 + (c - '0');
    }
    return code <= 16 ? code : -1;
}

std::string grpcCallAnswer(Answer& a, int grpcStatus, std::string_view grpcMessage)
{
    if (a.status >= 400)
        return {};
    if (a.status != 200)
        return "HTTP status " + std::to_string(a.status) + " to a gRPC call";
    if (grpcStatus < 0)
        return "the answer carries no grpc-status";
    a.code = grpcStatus;
    a.statusError = grpcStatus == 0 ? ErrorClass::Count : ErrorClass::Grpc;
    a.statusName = "grpc-status";
    a.codeName = grpcCodeView(grpcStatus);
    a.statusMessage = grpcMessage;
    return {};
}

void grpcDeadline(Answer& a, std::string_view message)
{
    a.code = 4;
    a.statusError = ErrorClass::Grpc;
    a.statusName = "grpc-status";
    a.codeName = grpcCodeView(4);
    a.statusMessage = message;
}

std::string GrpcAnswer::data(const std::uint8_t* bytes, std::size_t size)
{
    while (size) {
        std::size_t used = 0;
        bool ended = false;
        if (std::string fault = read(bytes, size, used, ended); !fault.empty())
            return fault;
        bytes += used;
        size -= used;
    }
    return {};
}

std::string GrpcAnswer::read(const std::uint8_t* bytes, std::size_t size, std::size_t& used, bool& ended)
{
    used = 0;
    ended = false;
    while (size) {
        if (m_left) {
            const std::size_t take = std::min<std::size_t>(m_left, size);
            if (m_keep)
                m_message.append(reinterpret_cast<const char*>(bytes), take);
            m_left -= std::uint32_t(take);
            used += take;
            ended = m_left == 0;
            return {};
        }
        const std::size_t take = std::min<std::size_t>(5 - m_prefixHave, size);
        std::memcpy(m_prefix + m_prefixHave, bytes, take);
        m_prefixHave = std::uint8_t(m_prefixHave + take);
        bytes += take;
        size -= take;
        used += take;
        if (m_prefixHave < 5)
            break;
        m_prefixHave = 0;
        const std::uint8_t flag = m_prefix[0];
        const std::uint64_t length = (std::uint64_t(m_prefix[1]) << 24) | (std::uint64_t(m_prefix[2]) << 16) |
                                     (std::uint64_t(m_prefix[3]) << 8) | m_prefix[4];
        if (++m_messages > 1 && !m_streaming)
            return "more than one message in the answer of a unary call";
        if (flag > 1)
            return "a message's compressed flag is " + std::to_string(flag) + " (0 or 1)";
        if (flag == 1 && !m_encoded)
            return "a compressed message without grpc-encoding";
        if (length > kMaxMessage)
            return "a message of " + std::to_string(length) + " bytes (at most " + std::to_string(kMaxMessage >> 20) +
                   " MiB)";
        if (m_keep)
            m_message.assign(reinterpret_cast<const char*>(m_prefix), 5);
        m_left = std::uint32_t(length);
        if (m_left == 0) {
            ended = true;
            return {};
        }
    }
    return {};
}

std::string GrpcAnswer::ending(int status) const
{
    if (m_prefixHave || m_left)
        return "the answer ends inside a message (" +
               (m_prefixHave ? std::to_string(m_prefixHave) + " bytes of its 5-byte prefix"
                             : std::to_string(m_left) + " bytes of it missing") +
               ")";
    if (status == 0 && m_messages != 1 && !m_streaming)
        return "grpc-status 0 (OK) with no message (a unary call answers one)";
    return {};
}

} // namespace stampede
