#include "rollbackcommand.h"

#include "core/utf8.h"

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace stampede {

std::string CommandOutcome::text() const
{
    if (!started)
        return "could not start: " + lastLine;
    const std::string said = lastLine.empty() ? std::string() : ": " + lastLine;
    if (timedOut)
        return "killed at its time limit" + said;
    if (cancelled)
        return "killed: the run ended" + said;
    return (exitCode < 0 ? std::string("killed") : "exit " + std::to_string(exitCode)) + said;
}

CommandOutcome runCommand(const std::string& command, const std::vector<std::pair<std::string, std::string>>& env,
                          Nanos timeout, const std::atomic<bool>* cancel)
{
    CommandOutcome out;
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) {
        out.lastLine = std::strerror(errno);
        return out;
    }
    std::vector<std::string> vars;
    for (char** e = environ; e && *e; ++e)
        vars.emplace_back(*e);
    for (const auto& [name, value] : env)
        vars.push_back(name + "=" + value);
    std::vector<char*> envp;
    for (std::string& v : vars)
        envp.push_back(v.data());
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], STDERR_FILENO);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP); // its own group: a timeout ends what it started too
    posix_spawnattr_setpgroup(&attr, 0);
    std::string shell = "/bin/sh", dashC = "-c", cmd = command;
    char* argv[] = {shell.data(), dashC.data(), cmd.data(), nullptr};
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, "/bin/sh", &actions, &attr, argv, envp.data());
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attr);
    ::close(pipeFds[1]);
    if (spawned != 0) {
        ::close(pipeFds[0]);
        out.lastLine = std::strerror(spawned);
        return out;
    }
    out.started = true;
    std::string tail;
    const Nanos until = SteadyClock::monotonicNow() + timeout;
    const auto cancelled = [&] { return cancel && cancel->load(); };
    for (;;) {
        const Nanos left = until - SteadyClock::monotonicNow();
        if (left <= 0 || cancelled()) {
            (left <= 0 ? out.timedOut : out.cancelled) = true;
            ::kill(-pid, SIGKILL);
            break;
        }
        pollfd p{pipeFds[0], POLLIN, 0};
        if (::poll(&p, 1, int(std::min<Nanos>(left / kNanosPerMilli + 1, cancel ? 100 : 1000))) < 0 && errno != EINTR)
            break;
        if (!(p.revents & (POLLIN | POLLHUP)))
            continue;
        char buf[4096];
        const ssize_t n = ::read(pipeFds[0], buf, sizeof buf);
        if (n <= 0)
            break; // the command (and what it started) closed its output
        tail.append(buf, std::size_t(n));
        if (tail.size() > 8192)
            tail.erase(0, tail.size() - 4096);
    }
    ::close(pipeFds[0]);
    int status = 0;
    if (!out.timedOut && !out.cancelled) { // its output closed: it ends now, or is ended at the time limit
        while (::waitpid(pid, &status, WNOHANG) == 0) {
            if (SteadyClock::monotonicNow() >= until || cancelled()) {
                (cancelled() ? out.cancelled : out.timedOut) = true;
                ::kill(-pid, SIGKILL);
                break;
            }
            ::usleep(10000);
        }
    }
    const bool killed = out.timedOut || out.cancelled;
    if (killed)
        ::waitpid(pid, &status, 0);
    out.exitCode = !killed && WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    while (!tail.empty() && (tail.back() == '\n' || tail.back() == '\r'))
        tail.pop_back();
    const std::size_t nl = tail.rfind('\n');
    out.lastLine = nl == std::string::npos ? tail : tail.substr(nl + 1);
    out.lastLine = std::string(utf8Prefix(out.lastLine, 300));
    makeUtf8(out.lastLine); // an event's text is UTF-8 wherever it goes
    return out;
}

} // namespace stampede
