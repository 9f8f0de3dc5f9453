#pragma once
// A collection run's request whose scheme and host are known only as it goes
// (a script set them, an answer gave them; newman resolves them as it sends):
// its rendered request line holds the whole URL. Taken apart here: the line
// gets the path and query, Host its authority (unless the user wrote one), and
// the request its server, looked up once per scheme, host and port for the
// worker's run (kMaxServers at most: a run that makes up a new host for each
// request is refused past them, rather than looking names up without end).
#include "core/url.h"
#include "net/endpoint.h"
#include "net/outgoing.h"
#include "plan/scenarioplan.h"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace stampede {

class RuntimeOrigins
{
public:
    static constexpr std::size_t kMaxServers = 64;
    // How a server's name is looked up (Endpoint::lookUp unless a test says otherwise): false with why.
    using LookUp = std::function<bool(Endpoint&, std::string&)>;

    explicit RuntimeOrigins(LookUp lookUp = {}) : m_lookUp(std::move(lookUp)) {}

    // `out.wire` holds `st`'s head as rendered ("GET http://h:1/p HTTP/1.1\r\n..."): its request line is made
    // origin-form, Host added when the plan asks, `out.endpoint` set. False: `out.failure` says why (a URL
    // that is not http or https, no host, too many servers), a `render` error; nothing is sent.
    bool place(const PlannedStep& st, RenderedRequest& out);
    std::size_t servers() const { return m_servers.size(); }

private:
    const Endpoint* server(const Url& url, const PlannedStep& st);

    LookUp m_lookUp;
    std::map<std::string, std::unique_ptr<Endpoint>> m_servers; // by scheme://host:port; their addresses stay put
    std::string m_line;
};

} // namespace stampede
