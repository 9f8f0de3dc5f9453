#pragma once
// Compiling an HTTP request step (a scenario's `request`): its method, its URL
// (the scheme and host known before the run, TLS for https; the path and
// query a template), the user's headers, then Host, User-Agent, the stress tag
// and traceparent unless given, in both the HTTP/1.1 and HTTP/2 forms; its
// body, form, file body and Authorization (requestparts.h); its timeout; a
// fixed request's bytes made once. Every fault named by its field.
#include "grpcstep.h"

#include "core/url.h"

#include <optional>
#include <string>

namespace stampede {

namespace v1 {
class HttpRequest;
}

class HttpStepCompiler
{
public:
    explicit HttpStepCompiler(StepContext& context) : m_ctx(context) {}
    // Compiles step `st` (which has an HTTP request) into `ps`; false after reporting its faults.
    bool compile(const v1::Step& st, const std::string& field, PlannedStep& ps);

private:
    bool fileBody(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps, bool typed);
    bool formAndAuth(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps);
    std::optional<Url> target(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps, Template& url);
    std::optional<Url> runtimeTarget(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps,
                                     Template& url);
    void headers(const v1::HttpRequest& rq, const std::string& field, const Url& server, PlannedStep& ps);

    StepContext& m_ctx;
};

} // namespace stampede
