#include "messagecodec.h"

#include <google/protobuf/message.h>

#include <unordered_map>

namespace stampede {

namespace {

// One worker's: a message parsed into again and again, and the JSON bodies it already framed (a bounded cache:
// started afresh when many distinct values came).
class GrpcEncoder final : public BodyEncoder
{
public:
    explicit GrpcEncoder(std::unique_ptr<google::protobuf::Message> scratch) : m_scratch(std::move(scratch)) {}
    bool encode(std::string& body, std::string& why) override
    {
        if (auto it = m_cache.find(body); it != m_cache.end()) {
            body = it->second;
            return true;
        }
        std::string binary;
        if (!m_scratch || !jsonToBinary(*m_scratch, body, binary, why)) {
            if (why.empty())
                why = "no schema for this gRPC step";
            return false;
        }
        if (m_cache.size() >= kCacheSize)
            m_cache.clear();
        std::string framed = grpcFrame(binary);
        m_cache.emplace(std::move(body), framed);
        body = std::move(framed);
        return true;
    }

private:
    static constexpr std::size_t kCacheSize = 10000;
    std::unique_ptr<google::protobuf::Message> m_scratch;
    std::unordered_map<std::string, std::string> m_cache;
};

} // namespace

GrpcMessageCodec::GrpcMessageCodec(ProtoSchemaPtr schema, const google::protobuf::Descriptor* input,
                                   const google::protobuf::Descriptor* output)
    : m_schema(std::move(schema)), m_input(input), m_output(output)
{
}

std::unique_ptr<BodyEncoder> GrpcMessageCodec::encoder() const
{
    return std::make_unique<GrpcEncoder>(m_schema && m_input ? m_schema->newMessage(m_input) : nullptr);
}

bool GrpcMessageCodec::decode(std::string_view wire, std::string& text) const
{
    text.clear();
    std::vector<std::string> messages;
    std::string why;
    if (!m_schema || !m_output || !grpcUnframe(wire, messages, why) || messages.size() != 1)
        return false;
    if (binaryToJson(*m_schema, m_output, messages.front(), text, why))
        return true;
    text.clear();
    return false;
}

} // namespace stampede
