#pragma once
// A gRPC method's messages as a step's body codec (core/bodycodec.h): the JSON a user writes becomes the framed
// binary message of the method's input type, and an answer's one framed message of its output type becomes JSON
// for checks and extractors.
#include "core/bodycodec.h"
#include "protoschema.h"

namespace stampede {

class GrpcMessageCodec final : public BodyCodec
{
public:
    // `input` null: nothing can be encoded (each body is refused as "no schema"); `output` null: nothing decodes.
    GrpcMessageCodec(ProtoSchemaPtr schema, const google::protobuf::Descriptor* input,
                     const google::protobuf::Descriptor* output);
    std::unique_ptr<BodyEncoder> encoder() const override;
    bool decode(std::string_view wire, std::string& text) const override;

private:
    ProtoSchemaPtr m_schema;
    const google::protobuf::Descriptor* m_input;
    const google::protobuf::Descriptor* m_output;
};

} // namespace stampede
