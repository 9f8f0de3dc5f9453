#pragma once
// The local pool: agents started on this machine as child processes, on
// loopback with a fresh random token, driven through the same controller as
// remote agents. They die with the controller (PR_SET_PDEATHSIG) and are
// ended when the pool is destroyed.
#include <string>
#include <sys/types.h>
#include <vector>

namespace stampede {

class LocalPool
{
public:
    LocalPool() = default;
    ~LocalPool();
    LocalPool(const LocalPool&) = delete;
    LocalPool& operator=(const LocalPool&) = delete;

    // Starts `count` agents by running `executable agent --listen 127.0.0.1:0
    // --token-file F --name local-i`. Returns false with a message.
    // With `pin`, agent i is bound to CPU i modulo the CPUs available. With
    // `niceness` above 0 the agents yield the CPU to the caller first (a GUI
    // that must stay responsive on a machine the load fills).
    bool start(const std::string& executable, unsigned count, std::string& error, bool pin = false, int niceness = 0);
    const std::vector<std::string>& addresses() const { return m_addresses; }
    const std::string& token() const { return m_token; }
    const std::vector<pid_t>& pids() const { return m_pids; }
    void stop();

private:
    bool writeTokenFile(std::string& error);
    pid_t spawn(const std::string& executable, unsigned i, int out, bool pin, int niceness);

    std::vector<pid_t> m_pids;
    std::vector<std::string> m_addresses;
    std::string m_token;
    std::string m_tokenFile;
};

std::string randomToken();

} // namespace stampede
