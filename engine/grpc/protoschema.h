#pragma once
// The messages and services a gRPC step speaks, known at run time: .proto
// files imported with protobuf's compiler (the well-known types come from the
// system's protobuf headers), or a FileDescriptorSet (what bundles, projects
// and server reflection carry). Requests written as JSON become messages here,
// and answers become JSON again.
#include "metrics/runmetrics.h" // grpcCodeName

#include <google/protobuf/repeated_ptr_field.h>

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace google::protobuf {
class Descriptor;
class DescriptorPool;
class DynamicMessageFactory;
class Message;
class MethodDescriptor;
} // namespace google::protobuf

namespace stampede {

class ProtoSchema
{
public:
    ~ProtoSchema();
    // Imports `files` (and what they import): each file's own directory is
    // searched, then `importPaths`, then the well-known types. On failure
    // returns nullptr and an error naming the file, line and column.
    static std::shared_ptr<ProtoSchema> import(const std::vector<std::string>& files,
                                               const std::vector<std::string>& importPaths, std::string& error);
    // The same with the files and import paths named relative to `baseDir`, as
    // scenario steps, mock rules and bundles name them.
    static std::shared_ptr<ProtoSchema> importUnder(const std::string& baseDir,
                                                    const google::protobuf::RepeatedPtrField<std::string>& files,
                                                    const google::protobuf::RepeatedPtrField<std::string>& importPaths,
                                                    std::string& error);
    // From a serialized FileDescriptorSet (dependencies in any order).
    static std::shared_ptr<ProtoSchema> fromDescriptorSet(const std::string& bytes, std::string& error);
    // From serialized FileDescriptorProtos (server reflection's answer).
    static std::shared_ptr<ProtoSchema> fromFileProtos(const std::vector<std::string>& files, std::string& error);

    // "package.Service/Method" (or "package.Service.Method"); nullptr and an
    // error naming what is missing (and what the service offers) otherwise.
    const google::protobuf::MethodDescriptor* method(std::string_view name, std::string& error) const;
    // Every method, as "package.Service/Method", sorted.
    std::vector<std::string> methods() const;
    // Every service's full name, sorted.
    std::vector<std::string> services() const;
    // The whole schema as a FileDescriptorSet, each file after its dependencies.
    std::string descriptorSet() const;
    // For server reflection: the serialized FileDescriptorProto of the file
    // defining `symbol` (or named `symbol` when byFile), then its dependencies;
    // empty when unknown.
    std::vector<std::string> fileProtosFor(std::string_view symbol, bool byFile = false) const;
    std::unique_ptr<google::protobuf::Message> newMessage(const google::protobuf::Descriptor* type) const;
    const google::protobuf::DescriptorPool& pool() const;

private:
    ProtoSchema();
    struct Data;
    std::unique_ptr<Data> d;
};

using ProtoSchemaPtr = std::shared_ptr<const ProtoSchema>;

// JSON (proto3 mapping) to the message's binary form. On failure, `error`
// names the field that does not fit.
bool jsonToBinary(const ProtoSchema& schema, const google::protobuf::Descriptor* type, std::string_view json,
                  std::string& binary, std::string& error);
// The same with a message made once by the caller (for a worker's hot path).
bool jsonToBinary(google::protobuf::Message& scratch, std::string_view json, std::string& binary, std::string& error);
// The binary form to JSON, fields named as in the .proto file.
bool binaryToJson(const ProtoSchema& schema, const google::protobuf::Descriptor* type, std::string_view binary,
                  std::string& json, std::string& error);
// A JSON object with every field of `type` at a neutral value (nested
// messages filled one level deep each), for an editor to start from.
std::string skeletonJson(const google::protobuf::Descriptor* type);

// gRPC's length-prefixed message: a zero flag byte, a 4-byte big-endian length.
std::string grpcFrame(std::string_view message);
// Splits gRPC frames; false when the data is not whole frames or one is compressed.
bool grpcUnframe(std::string_view data, std::vector<std::string>& messages, std::string& error);

} // namespace stampede
