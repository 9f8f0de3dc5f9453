#include "localpool.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <random>
#include <sched.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace stampede {

std::string randomToken()
{
    std::random_device rd;
    static const char hex[] = "0123456789abcdef";
    std::string t;
    for (int i = 0; i < 32; ++i)
        t.push_back(hex[rd() % 16]);
    return t;
}

LocalPool::~LocalPool()
{
    stop();
}

bool LocalPool::start(const std::string& executable, unsigned count, std::string& error, bool pin, int niceness)
{
    m_token = randomToken();
    char path[] = "/tmp/stampede-token-XXXXXX";
    const int fd = mkstemp(path); // mode 0600
    if (fd < 0) {
        error = std::string("cannot write the pool's token file: ") + std::strerror(errno);
        return false;
    }
    m_tokenFile = path;
    if (::write(fd, m_token.data(), m_token.size()) != ssize_t(m_token.size())) {
        ::close(fd);
        error = "cannot write the pool's token file";
        return false;
    }
    ::close(fd);
    const pid_t parent = getpid();
    std::vector<int> pipes;
    for (unsigned i = 0; i < count; ++i) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) {
            error = std::string("pipe: ") + std::strerror(errno);
            return false;
        }
        const std::string name = "local-" + std::to_string(i + 1);
        const pid_t pid = fork();
        if (pid < 0) {
            error = std::string("fork: ") + std::strerror(errno);
            return false;
        }
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(1);
            if (niceness > 0)
                setpriority(PRIO_PROCESS, 0, niceness);
            if (pin) {
                cpu_set_t all;
                CPU_ZERO(&all);
                sched_getaffinity(0, sizeof all, &all);
                const int cpus = CPU_COUNT(&all);
                int seen = 0;
                for (int c = 0; c < CPU_SETSIZE && cpus > 0; ++c) {
                    if (CPU_ISSET(c, &all) && seen++ == int(i % unsigned(cpus))) {
                        cpu_set_t one;
                        CPU_ZERO(&one);
                        CPU_SET(c, &one);
                        sched_setaffinity(0, sizeof one, &one);
                        break;
                    }
                }
            }
            dup2(p[1], STDOUT_FILENO);
            execl(executable.c_str(), executable.c_str(), "agent", "--listen", "127.0.0.1:0", "--token-file",
                  m_tokenFile.c_str(), "--name", name.c_str(), "--quiet", static_cast<char*>(nullptr));
            _exit(127);
        }
        ::close(p[1]);
        m_pids.push_back(pid);
        pipes.push_back(p[0]);
    }
    // Each agent prints "listening on HOST:PORT" once it serves.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    for (std::size_t i = 0; i < pipes.size(); ++i) {
        std::string line;
        while (line.find('\n') == std::string::npos) {
            const auto left =
                std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
            pollfd pfd{pipes[i], POLLIN, 0};
            if (left.count() <= 0 || ::poll(&pfd, 1, int(left.count())) <= 0) {
                error = "local agent " + std::to_string(i + 1) + " did not start within 15 s";
                break;
            }
            char buf[256];
            const ssize_t n = ::read(pipes[i], buf, sizeof buf);
            if (n <= 0) {
                error = "local agent " + std::to_string(i + 1) + " exited before it listened";
                break;
            }
            line.append(buf, std::size_t(n));
        }
        ::close(pipes[i]);
        if (!error.empty())
            continue;
        const std::string prefix = "listening on ";
        if (line.rfind(prefix, 0) != 0) {
            error = "local agent " + std::to_string(i + 1) + " said \"" + line + "\"";
            continue;
        }
        m_addresses.push_back(line.substr(prefix.size(), line.find('\n') - prefix.size()));
    }
    ::unlink(m_tokenFile.c_str()); // every agent has read it by now
    if (!error.empty()) {
        stop();
        return false;
    }
    return true;
}

void LocalPool::stop()
{
    for (pid_t pid : m_pids)
        ::kill(pid, SIGTERM);
    for (pid_t pid : m_pids) {
        for (int i = 0; i < 100; ++i) {
            if (waitpid(pid, nullptr, WNOHANG) != 0)
                break;
            if (i == 99) {
                ::kill(pid, SIGKILL);
                waitpid(pid, nullptr, 0);
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(20));
        }
    }
    m_pids.clear();
    m_addresses.clear();
}

} // namespace stampede
