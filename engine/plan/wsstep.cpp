#include "wsstep.h"

#include "httpstep.h"
#include "renamedfields.h"

#include "stampede/v1/scenario.pb.h"
#include "stream/wsdeflate.h"

namespace stampede {

bool WsStepCompiler::compile(const v1::Step& st, const std::string& field, PlannedStep& ps)
{
    const v1::WebSocketRequest& w = st.websocket();
    const std::string wf = field + ".websocket";
    std::string url = w.url();
    if (url.rfind("ws://", 0) == 0) {
        url = "http://" + url.substr(5);
    } else if (url.rfind("wss://", 0) == 0) {
        url = "https://" + url.substr(6);
    } else if (url.rfind("${", 0) != 0) { // a variable holding the server's http:// or https:// is the same server
        m_ctx.error(wf + ".url", "a WebSocket URL starts with ws:// or wss:// (got \"" + w.url() + "\")");
        return false;
    }
    if (st.has_request() || st.has_grpc() || st.has_sse()) {
        m_ctx.error(wf, "a step is a request, a gRPC call, a WebSocket conversation or an event stream, not two of "
                        "them");
        return false;
    }
    if (!st.pre_request_script().empty()) { // its test script reads the answer: the last message
        m_ctx.error(field + ".preRequestScript", "a WebSocket step's messages are not a request a pre-request script "
                                                 "changes; its test script reads the last message received");
        return false;
    }
    v1::Step http = st;
    http.clear_websocket();
    v1::HttpRequest& rq = *http.mutable_request();
    rq.set_method("GET");
    rq.set_url(url);
    for (const auto& h : w.headers())
        *rq.add_headers() = h;
    const auto add = [&](const char* name, const std::string& value) {
        v1::Header* h = rq.add_headers();
        h->set_name(name);
        h->set_value(value);
    };
    add("Upgrade", "websocket");
    add("Connection", "Upgrade");
    add("Sec-WebSocket-Version", "13");
    auto plan = std::make_shared<WsPlan>();
    plan->deflate = w.deflate();
    if (w.deflate())
        add("Sec-WebSocket-Extensions", std::string(kWsDeflateOffer));
    for (int i = 0; i < w.subprotocols_size(); ++i) {
        const std::string& p = w.subprotocols(i);
        if (p.empty() || p.find_first_of(" ,\t\r\n\"") != std::string::npos) {
            m_ctx.error(wf + ".subprotocols[" + std::to_string(i) + "]", "\"" + p + "\" is not a subprotocol's name");
            return false;
        }
        plan->protocols.push_back(p);
    }
    if (!plan->protocols.empty()) {
        std::string offered;
        for (const auto& p : plan->protocols)
            offered += (offered.empty() ? "" : ", ") + p;
        add("Sec-WebSocket-Protocol", offered);
    }
    if (w.has_timeout())
        *rq.mutable_timeout() = w.timeout();
    if (http.name().empty())
        http.set_name("WS " + w.url().substr(w.url().find("://") + 3));
    RenamedFields fields(m_ctx, field, "websocket");
    HttpStepCompiler httpCompiler(fields);
    if (!httpCompiler.compile(http, field, ps))
        return false;
    for (int i = 0; i < w.send_size(); ++i) {
        const auto& m = w.send(i);
        const std::string mf = wf + ".send[" + std::to_string(i) + "]";
        if (!m.text().empty() && !m.binary().empty()) {
            m_ctx.error(mf, "a message is text or binary, not both");
            return false;
        }
        Template t;
        if (!m.binary().empty())
            t = Template::literal(m.binary());
        else if (!m_ctx.compileText(m.text(), mf + ".text", t))
            return false;
        plan->messages.push_back(std::move(t));
        plan->binary.push_back(!m.binary().empty());
    }
    plan->receive = w.has_receive() ? w.receive() : std::uint32_t(w.send_size());
    plan->requestReply = w.request_reply();
    plan->keepOpen = w.keep_open();
    plan->match = w.match();
    if (plan->requestReply && plan->receive < std::uint32_t(w.send_size())) {
        m_ctx.error(wf + ".receive",
                    "request/reply awaits a reply to each message: receive at least " + std::to_string(w.send_size()));
        return false;
    }
    if (plan->receive > kMaxAwaited) {
        m_ctx.error(wf + ".receive", "at most " + std::to_string(kMaxAwaited) + " messages awaited");
        return false;
    }
    ps.protocol = Protocol::WebSocket;
    ps.fixed = ps.fixed && std::all_of(plan->messages.begin(), plan->messages.end(),
                                       [](const Template& t) { return t.isConstant(); });
    ps.h2Fixed = false;
    ps.ws = std::move(plan);
    return true;
}

} // namespace stampede
