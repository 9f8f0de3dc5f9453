// A small gRPC C++ server for the tests: stampede.test.Echo with gRPC's own
// server reflection (libgrpc++_reflection). It prints its port and serves
// until stdin closes.
#include "echo.grpc.pb.h"

#include <grpcpp/ext/proto_server_reflection_plugin.h>
#include <grpcpp/grpcpp.h>

#include <iostream>
#include <string>

namespace {

class EchoService final : public stampede::test::Echo::Service
{
    grpc::Status Say(grpc::ServerContext* context, const stampede::test::EchoRequest* request,
                     stampede::test::EchoReply* reply) override
    {
        reply->set_text(request->text());
        reply->set_id(request->id());
        const auto& md = context->client_metadata();
        if (auto it = md.find("x-user"); it != md.end())
            reply->set_user(std::string(it->second.data(), it->second.size()));
        return grpc::Status::OK;
    }
};

} // namespace

int main()
{
    grpc::reflection::InitProtoReflectionServerBuilderPlugin();
    EchoService service;
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(&service);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (!server || port == 0) {
        std::cerr << "cannot start the server\n";
        return 1;
    }
    std::cout << port << std::endl;
    std::string line;
    while (std::getline(std::cin, line)) {
    }
    server->Shutdown();
    return 0;
}
