#include "ssestep.h"

#include "core/text.h"
#include "httpstep.h"
#include "renamedfields.h"

#include "stampede/v1/scenario.pb.h"

#include <algorithm>

namespace stampede {

namespace {

bool written(const v1::EventStreamRequest& e, std::string_view name)
{
    return std::any_of(e.headers().begin(), e.headers().end(),
                       [&](const v1::Header& h) { return equalsNoCase(h.name(), name); });
}

} // namespace

bool SseStepCompiler::compile(const v1::Step& st, const std::string& field, PlannedStep& ps)
{
    const v1::EventStreamRequest& e = st.sse();
    const std::string sf = field + ".sse";
    if (st.has_request() || st.has_grpc() || st.has_websocket()) {
        m_ctx.error(sf, "a step is a request, a gRPC call, a WebSocket conversation or an event stream, not two of "
                        "them");
        return false;
    }
    if (e.url().rfind("http://", 0) != 0 && e.url().rfind("https://", 0) != 0 &&
        e.url().rfind("${", 0) != 0) { // a variable holding the server's http:// or https:// is the same server
        m_ctx.error(sf + ".url", "an event stream's URL starts with http:// or https:// (got \"" + e.url() + "\")");
        return false;
    }
    if (!st.pre_request_script().empty()) { // its test script reads the answer: the last awaited event
        m_ctx.error(field + ".preRequestScript", "an event stream step takes no pre-request script; its test script "
                                                 "reads the last awaited event");
        return false;
    }
    auto plan = std::make_shared<SsePlan>();
    plan->receive = e.has_receive() ? e.receive() : 1;
    if (plan->receive == 0 || plan->receive > kMaxAwaited) {
        m_ctx.error(sf + ".receive", "1 to " + std::to_string(kMaxAwaited) + " events awaited (got " +
                                         std::to_string(plan->receive) + ")");
        return false;
    }
    plan->reconnects = e.reconnects();
    if (plan->reconnects > kMaxReconnects) {
        m_ctx.error(sf + ".reconnects", "at most " + std::to_string(kMaxReconnects) + " reconnects");
        return false;
    }
    plan->event = e.event();
    if (plan->event.find_first_of("\r\n") != std::string::npos) {
        m_ctx.error(sf + ".event", "an event's type is one line");
        return false;
    }
    v1::Step http = st;
    http.clear_sse();
    v1::HttpRequest& rq = *http.mutable_request();
    rq.set_method("GET");
    rq.set_url(e.url());
    for (const auto& h : e.headers())
        *rq.add_headers() = h;
    const auto add = [&](const char* name, const char* value) {
        if (written(e, name))
            return;
        v1::Header* h = rq.add_headers();
        h->set_name(name);
        h->set_value(value);
    };
    add("Accept", "text/event-stream");
    add("Cache-Control", "no-cache");
    if (e.has_timeout())
        *rq.mutable_timeout() = e.timeout();
    if (http.name().empty())
        http.set_name("SSE " + e.url().substr(e.url().find("://") + 3));
    RenamedFields fields(m_ctx, field, "sse");
    HttpStepCompiler httpCompiler(fields);
    if (!httpCompiler.compile(http, field, ps))
        return false;
    ps.protocol = Protocol::EventStream;
    ps.h2Fixed = false;
    ps.sse = std::move(plan);
    return true;
}

} // namespace stampede
