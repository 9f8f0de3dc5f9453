#include "reflection.h"

#include "net/http2exchange.h"
#include "stampede/v1/reflection.pb.h"

#include <google/protobuf/descriptor.pb.h>

#include <map>
#include <set>

namespace stampede {

namespace rf = v1::reflection;

namespace {

// One reflection stream: the requests go out, the stream is half-closed, and
// the server's answers (one per request) come back.
bool ask(const ReflectionOptions& o, const std::vector<rf::ServerReflectionRequest>& requests,
         std::vector<rf::ServerReflectionResponse>& answers, std::string& error)
{
    Http2ExchangeRequest rq;
    std::string target = o.target;
    if (target.find("://") == std::string::npos)
        target = "http://" + target;
    while (!target.empty() && target.back() == '/')
        target.pop_back();
    rq.url = target + kReflectionPath;
    rq.method = "POST";
    rq.grpc = true;
    rq.verify = o.verify;
    rq.caPem = o.caPem;
    rq.timeout = o.timeoutMs * kNanosPerMilli;
    rq.headers = {{"content-type", "application/grpc"}, {"te", "trailers"}};
    for (const auto& r : requests)
        rq.body += grpcFrame(r.SerializeAsString());
    const auto res = http2Exchange(rq);
    if (!res.ok) {
        error = "server reflection at " + o.target + ": " + res.error;
        return false;
    }
    if (res.status != 200) {
        error = "server reflection at " + o.target + ": HTTP status " + std::to_string(res.status);
        return false;
    }
    if (res.grpcStatus != 0) {
        error = "server reflection at " + o.target + ": " +
                (res.grpcStatus < 0 ? std::string("no grpc-status") : grpcCodeName(res.grpcStatus)) +
                (res.grpcMessage.empty() ? "" : " (" + res.grpcMessage + ")") +
                (res.grpcStatus == 12 ? " — the server does not offer reflection" : "");
        return false;
    }
    std::vector<std::string> messages;
    if (!grpcUnframe(res.body, messages, error))
        return false;
    for (const auto& m : messages) {
        answers.emplace_back();
        if (!answers.back().ParseFromString(m)) {
            error = "server reflection at " + o.target + ": an answer does not parse";
            return false;
        }
    }
    return true;
}

} // namespace

std::shared_ptr<ProtoSchema> fetchByReflection(const ReflectionOptions& o, std::string& error)
{
    std::vector<rf::ServerReflectionResponse> answers;
    rf::ServerReflectionRequest list;
    list.set_list_services("*");
    if (!ask(o, {list}, answers, error))
        return nullptr;
    if (answers.empty() || !answers[0].has_list_services_response()) {
        error = "server reflection at " + o.target + ": no list of services came back";
        return nullptr;
    }
    std::vector<rf::ServerReflectionRequest> requests;
    for (const auto& s : answers[0].list_services_response().service()) {
        if (s.name().rfind("grpc.reflection.", 0) == 0)
            continue; // reflection itself is not what a user calls
        rf::ServerReflectionRequest r;
        r.set_file_containing_symbol(s.name());
        requests.push_back(r);
    }
    if (requests.empty()) {
        error = "server reflection at " + o.target + ": the server lists no service";
        return nullptr;
    }
    std::map<std::string, std::string> files; // name -> FileDescriptorProto
    for (int round = 0; round < 8 && !requests.empty(); ++round) {
        answers.clear();
        if (!ask(o, requests, answers, error))
            return nullptr;
        requests.clear();
        for (const auto& a : answers) {
            if (a.has_error_response()) {
                error = "server reflection at " + o.target + ": " + a.error_response().error_message();
                return nullptr;
            }
            for (const auto& bytes : a.file_descriptor_response().file_descriptor_proto()) {
                google::protobuf::FileDescriptorProto f;
                if (f.ParseFromString(bytes))
                    files.emplace(f.name(), bytes);
            }
        }
        // the files imported but not sent are asked for by name
        std::set<std::string> missing;
        for (const auto& [name, bytes] : files) {
            google::protobuf::FileDescriptorProto f;
            f.ParseFromString(bytes);
            for (const auto& dep : f.dependency())
                if (!files.count(dep))
                    missing.insert(dep);
        }
        for (const auto& m : missing) {
            rf::ServerReflectionRequest r;
            r.set_file_by_filename(m);
            requests.push_back(r);
        }
    }
    std::vector<std::string> list2;
    for (auto& [name, bytes] : files)
        list2.push_back(bytes);
    return ProtoSchema::fromFileProtos(list2, error);
}

} // namespace stampede
