#include "runtimeorigins.h"

#include "core/url.h"

namespace stampede {

bool RuntimeOrigins::place(const PlannedStep& st, RenderedRequest& out)
{
    std::string& wire = out.wire;
    const std::size_t lineEnd = wire.find("\r\n");
    const std::size_t urlStart = wire.find(' ') + 1;
    constexpr std::string_view kVersion = " HTTP/1.1";
    if (lineEnd == std::string::npos || urlStart == 0 || lineEnd < urlStart + kVersion.size()) {
        out.failure = "the request line could not be made"; // not reached: the plan writes it
        out.failureClass = ErrorClass::Render;
        return false;
    }
    std::string_view written(wire.data() + urlStart, lineEnd - kVersion.size() - urlStart);
    std::string withScheme;
    if (written.find("://") == std::string_view::npos) { // Postman's: a URL without a scheme is http://
        withScheme = "http://" + std::string(written);
        written = withScheme;
    }
    std::string why;
    const auto url = Url::parse(written, why);
    const Endpoint* to = url ? server(*url, st) : nullptr;
    if (!to) {
        out.failure = url ? "more than " + std::to_string(kMaxServers) +
                                " servers set as the run went (a host made anew for each request?): not sent"
                          : "the URL \"" + std::string(written) + "\" " + why + ": not sent";
        out.failureClass = ErrorClass::Render;
        out.bytes = 0;
        return false;
    }
    m_line.assign(wire, 0, urlStart);
    m_line += url->target;
    m_line += kVersion;
    m_line += "\r\n";
    if (st.runtimeHost)
        m_line += "Host: " + url->hostHeader() + "\r\n";
    wire.replace(0, lineEnd + 2, m_line);
    out.endpoint = to;
    return true;
}

// The server of `url`, looked up the first time it is named (one that does not resolve fails each request to it
// as a connect error, as newman counts it).
const Endpoint* RuntimeOrigins::server(const Url& url, const PlannedStep& st)
{
    const std::string key = url.scheme + "://" + url.hostHeader() + ":" + std::to_string(url.port);
    if (const auto it = m_servers.find(key); it != m_servers.end())
        return it->second.get();
    if (m_servers.size() >= kMaxServers)
        return nullptr;
    auto ep = std::make_unique<Endpoint>(Endpoint::named(url.host, url.port));
    std::string err;
    if (!(m_lookUp ? m_lookUp(*ep, err) : ep->lookUp(err)))
        ep->unresolved = err;
    if (url.scheme == "https") {
        ep->tls = st.runtimeTls;
        ep->serverName = url.host;
    }
    return m_servers.emplace(key, std::move(ep)).first->second.get();
}

} // namespace stampede
