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

namespace {

// Binds the calling process to the i-th CPU it may use (modulo their number).
void pinTo(unsigned i)
{
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
            return;
        }
    }
}

// The agent's first line, "listening on HOST:PORT", read from `fd` by `deadline`.
bool readAddress(int fd, unsigned agent, std::chrono::steady_clock::time_point deadline, std::string& address,
                 std::string& error)
{
    std::string line;
    while (line.find('\n') == std::string::npos) {
        const auto left =
            std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
        pollfd pfd{fd, POLLIN, 0};
        if (left.count() <= 0 || ::poll(&pfd, 1, int(left.count())) <= 0) {
            error = "local agent " + std::to_string(agent) + " did not start within 15 s";
            return false;
        }
        char buf[256];
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n <= 0) {
            error = "local agent " + std::to_string(agent) + " exited before it listened";
            return false;
        }
        line.append(buf, std::size_t(n));
    }
    const std::string prefix = "listening on ";
    if (line.rfind(prefix, 0) != 0) {
        error = "local agent " + std::to_string(agent) + " said \"" + line + "\"";
        return false;
    }
    address = line.substr(prefix.size(), line.find('\n') - prefix.size());
    return true;
}

} // namespace

bool LocalPool::writeTokenFile(std::string& error)
{
    m_token = randomToken();
    char path[] = "/tmp/stampede-token-XXXXXX";
    const int fd = mkstemp(path); // mode 0600
    if (fd < 0) {
        error = std::string("cannot write the pool's token file: ") + std::strerror(errno);
        return false;
    }
    m_tokenFile = path;
    const bool written = ::write(fd, m_token.data(), m_token.size()) == ssize_t(m_token.size());
    ::close(fd);
    if (!written)
        error = "cannot write the pool's token file";
    return written;
}

// Agent i, its standard output on `out`; in the child: it dies with us, yields
// or is pinned as asked, and runs `executable agent ...`.
pid_t LocalPool::spawn(const std::string& executable, unsigned i, int out, bool pin, int niceness)
{
    const pid_t parent = getpid();
    const std::string name = "local-" + std::to_string(i + 1);
    const pid_t pid = fork();
    if (pid != 0)
        return pid;
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(1);
    if (niceness > 0)
        setpriority(PRIO_PROCESS, 0, niceness);
    if (pin)
        pinTo(i);
    dup2(out, STDOUT_FILENO);
    execl(executable.c_str(), executable.c_str(), "agent", "--listen", "127.0.0.1:0", "--token-file",
          m_tokenFile.c_str(), "--name", name.c_str(), "--quiet", "--pool-child", static_cast<char*>(nullptr));
    _exit(127);
}

bool LocalPool::start(const std::string& executable, unsigned count, std::string& error, bool pin, int niceness)
{
    if (!writeTokenFile(error))
        return false;
    std::vector<int> pipes;
    for (unsigned i = 0; i < count && error.empty(); ++i) {
        int p[2];
        if (pipe2(p, O_CLOEXEC) != 0) {
            error = std::string("pipe: ") + std::strerror(errno);
            break;
        }
        const pid_t pid = spawn(executable, i, p[1], pin, niceness);
        ::close(p[1]);
        if (pid < 0) {
            ::close(p[0]);
            error = std::string("fork: ") + std::strerror(errno);
            break;
        }
        m_pids.push_back(pid);
        pipes.push_back(p[0]);
    }
    // Each agent prints "listening on HOST:PORT" once it serves.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
    for (std::size_t i = 0; i < pipes.size(); ++i) {
        std::string address;
        if (error.empty() && readAddress(pipes[i], unsigned(i + 1), deadline, address, error))
            m_addresses.push_back(address);
        ::close(pipes[i]);
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
        ::kill(pid, SIGUSR1); // a pool child ignores the signals a terminal or systemd sends its group
    for (pid_t pid : m_pids)
        ::kill(pid, SIGTERM); // an older engine, or one not yet past its start
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
