#pragma once
// Agents that join a controller by themselves: `stampede-cli agent --join
// HOST:PORT` says, every kJoinHeartbeat, to the run's `--accept-agents ADDR`
// (a ControlServer: on loopback without token and TLS, elsewhere with both)
// "POST /v1/join" with the body `port=7300&name=agent-1` (and `host=H` when
// the agent is not reached at the address it calls from). The controller
// reaches it at the caller's address and that port, as with any agent (its
// token, its CA); the run finds the joined agents with `--agents joined`,
// awaited with --min-agents, looked up again with --elastic. An agent not
// heard from for `expiry` on the clock is no longer listed.
//
// The body is outside input: parseJoinBody is fuzzed
// (tests/fuzz/fuzz_joinbody.cpp) and its shapes tabled in tst_agentregistry.
#include "controlserver.h"
#include "core/clock.h"

#include <mutex>
#include <string>
#include <vector>

namespace stampede {

constexpr Nanos kJoinHeartbeat = 2 * kNanosPerSecond;

struct JoinRequest
{
    std::string host; // empty: the caller's address
    unsigned port = 0;
    std::string name; // at most 63 bytes of UTF-8, no control characters
};

// `port=7300&name=a1&host=10.0.0.5` (application/x-www-form-urlencoded: %XX
// and + decoded); unknown keys refused. False with `error` naming the field.
bool parseJoinBody(const std::string& body, JoinRequest& out, std::string& error);
// "host:port" (an IPv6 host in brackets).
std::string joinAddress(const std::string& host, unsigned port);

class AgentRegistry
{
public:
    explicit AgentRegistry(ClockPtr clock, Nanos expiry = 5 * kJoinHeartbeat);
    // POST /v1/join: 200 with {"joined": "NAME (ADDRESS)", "heartbeat_s": 2}; 400 with what is wrong; 404, 405.
    ControlReply handle(const ControlRequest& rq);
    // The agents heard from within `expiry`, in the order they first joined.
    std::vector<std::string> live() const;
    // Every join accepted (heartbeats included), for tests and the status line.
    std::size_t joins() const;

private:
    struct Entry
    {
        std::string address, name;
        Nanos lastHeard = 0;
    };
    ClockPtr m_clock;
    Nanos m_expiry;
    mutable std::mutex m_mutex;
    std::vector<Entry> m_entries;
    std::size_t m_joins = 0;
};

} // namespace stampede
