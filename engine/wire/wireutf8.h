#pragma once
// A control-protocol message's text made valid UTF-8 before it is written
// (core/utf8.h: invalid bytes as \xHH). proto3 `string` fields must be UTF-8:
// libprotobuf refuses to serialize one that is not, the stream's write fails,
// and a snapshot that can never be sent would hold the run for ever. Every
// string field, however deep (repeated, maps, nested messages), goes through
// here; `bytes` fields are left as they are.
namespace google::protobuf {
class Message;
}

namespace stampede {

// Returns how many fields were changed.
int makeStringsUtf8(google::protobuf::Message& message);

} // namespace stampede
