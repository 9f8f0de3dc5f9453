#pragma once
// Descriptors fetched from a running server by gRPC server reflection
// (grpc.reflection.v1alpha.ServerReflection): the services it lists, the files
// defining them, and the files those import.
#include "protoschema.h"

#include <string>

namespace stampede {

constexpr const char* kReflectionPath = "/grpc.reflection.v1alpha.ServerReflection/ServerReflectionInfo";

struct ReflectionOptions
{
    std::string target; // http://host:port or https://host:port
    bool verify = true;
    std::string caPem;
    long timeoutMs = 10000;
};

// The server's schema, or nullptr and an error saying why (unreachable, no
// reflection service, a file it could not give).
std::shared_ptr<ProtoSchema> fetchByReflection(const ReflectionOptions& options, std::string& error);

} // namespace stampede
