#pragma once
// A step's body in another form on the wire than the one its user writes and its checks read: a gRPC message is
// written and read as JSON and goes as a framed protobuf message. The plan gives such a step its codec, shared by
// the run's workers (so it is const); each worker encodes with an encoder of its own, which may keep a scratch
// message and the bodies it already encoded. A step without a codec sends its body as rendered.
#include <memory>
#include <string>
#include <string_view>

namespace stampede {

class BodyEncoder
{
public:
    virtual ~BodyEncoder() = default;
    // `body` as rendered into its wire form, in place; false with `why` when it does not fit (not sent).
    virtual bool encode(std::string& body, std::string& why) = 0;
};

class BodyCodec
{
public:
    virtual ~BodyCodec() = default;
    // One worker's encoder.
    virtual std::unique_ptr<BodyEncoder> encoder() const = 0;
    // An answer's body from its wire form to what checks read, into `text` (cleared first); false when it is not
    // one such body (`text` then empty).
    virtual bool decode(std::string_view wire, std::string& text) const = 0;
};
using BodyCodecPtr = std::shared_ptr<const BodyCodec>;

} // namespace stampede
