#include "agentjoin.h"

#include "control/agentregistry.h"
#include "core/text.h"
#include "httpexchange.h"

#include <chrono>
#include <cstdio>

namespace stampede::cli {

std::string AgentJoiner::request(const JoinOptions& o)
{
    std::string body = "port=" + std::to_string(o.port);
    if (!o.name.empty())
        body += "&name=" + percentEncode(o.name.substr(0, 63));
    if (!o.host.empty())
        body += "&host=" + percentEncode(o.host);
    std::string rq = "POST /v1/join HTTP/1.1\r\nHost: " + o.controller + "\r\nConnection: close\r\n";
    if (!o.token.empty())
        rq += "Authorization: Bearer " + o.token + "\r\n";
    rq += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + std::to_string(body.size()) +
          "\r\n\r\n" + body;
    return rq;
}

AgentJoiner::AgentJoiner(JoinOptions options) : m_options(std::move(options))
{
    m_thread = std::thread([this] {
        std::unique_lock lock(m_mutex);
        while (!m_stop) {
            lock.unlock();
            beat();
            lock.lock();
            m_wake.wait_for(lock, std::chrono::nanoseconds(kJoinHeartbeat), [this] { return m_stop; });
        }
    });
}

AgentJoiner::~AgentJoiner()
{
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    m_thread.join();
}

void AgentJoiner::beat()
{
    int status = 0;
    std::string body, error, said;
    if (!exchange(m_options.controller, m_options.caFile, request(m_options), status, body, error))
        said = "cannot join " + m_options.controller + ": " + error + " (tried again every 2 s)";
    else if (status != 200)
        said = "the controller at " + m_options.controller + " refused the join (HTTP " + std::to_string(status) +
               "): " + body.substr(0, 200);
    else
        said = "joined the controller at " + m_options.controller + ": " + body.substr(0, 200);
    while (!said.empty() && (said.back() == '\n' || said.back() == '\r'))
        said.pop_back();
    if (said != m_said && !m_options.quiet)
        std::fprintf(stderr, "stampede-cli agent: %s\n", said.c_str());
    m_said = said;
}

} // namespace stampede::cli
