#pragma once
// `stampede-cli agent --join HOST:PORT`: the agent tells a controller that
// accepts agents (`run --accept-agents ADDR`) where it listens, and says so
// again every 2 s (control/agentregistry.h) until it stops; a controller that
// does not answer is tried again at the next beat (said on stderr once per
// change). The agent's token is the bearer; with --join-ca, over TLS verified
// against that CA.
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace stampede::cli {

struct JoinOptions
{
    std::string controller; // host:port of its --accept-agents
    std::string caFile;     // set: TLS, verified against this CA
    std::string token;
    std::string name;
    std::string host; // the host to be reached at; empty: the address the agent calls from
    unsigned port = 0;
    bool quiet = false;
};

class AgentJoiner
{
public:
    explicit AgentJoiner(JoinOptions options);
    ~AgentJoiner();
    // The request one beat sends (for tests): the head and the form body.
    static std::string request(const JoinOptions& options);

private:
    void beat();

    JoinOptions m_options;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stop = false;
    std::string m_said; // what was said last on stderr: said again only when it changes
    std::thread m_thread;
};

} // namespace stampede::cli
