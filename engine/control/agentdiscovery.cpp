#include "agentdiscovery.h"

#include "agentregistry.h"

#include "agentlink.h"
#include "core/durationtext.h"
#include "core/number.h"
#include "core/text.h"
#include "core/textfile.h"

#include "stampede/v1/control.pb.h"

#include <algorithm>
#include <arpa/inet.h>
#include <cctype>
#include <cerrno>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <set>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

namespace stampede {

namespace {

// "host:port" and "[v6]:port" into their parts; false when it is not one.
bool splitHostPort(const std::string& text, std::string& host, std::string& port)
{
    if (!text.empty() && text.front() == '[') {
        const std::size_t close = text.find(']');
        if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
            return false;
        host = text.substr(1, close - 1);
        port = text.substr(close + 2);
    } else {
        const std::size_t colon = text.rfind(':');
        if (colon == std::string::npos || colon == 0)
            return false;
        host = text.substr(0, colon);
        port = text.substr(colon + 1);
    }
    std::uint64_t n = 0;
    std::string why;
    return !host.empty() && parseWhole(port, "port", 1, 65535, n, why);
}

bool resolveName(const std::string& spec, std::vector<std::string>& out, std::string& error)
{
    std::string name, port;
    if (!splitHostPort(spec.substr(4), name, port)) {
        error = "--agents \"" + spec + "\": expected dns:NAME:PORT";
        return false;
    }
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* found = nullptr;
    if (const int rc = getaddrinfo(name.c_str(), port.c_str(), &hints, &found); rc != 0) {
        error = "--agents \"" + spec + "\": " + name + " does not resolve (" + gai_strerror(rc) + ")";
        return false;
    }
    std::set<std::string> addresses;
    for (const addrinfo* a = found; a; a = a->ai_next) {
        char buf[INET6_ADDRSTRLEN] = {};
        if (a->ai_family == AF_INET)
            inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a->ai_addr)->sin_addr, buf, sizeof buf);
        else if (a->ai_family == AF_INET6)
            inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(a->ai_addr)->sin6_addr, buf, sizeof buf);
        else
            continue;
        addresses.insert(a->ai_family == AF_INET6 ? "[" + std::string(buf) + "]:" + port
                                                  : std::string(buf) + ":" + port);
    }
    freeaddrinfo(found);
    out.insert(out.end(), addresses.begin(), addresses.end());
    return true;
}

bool readList(const std::string& spec, std::vector<std::string>& out, std::string& error)
{
    const std::string path = spec.substr(5);
    std::string text, why;
    if (!readWholeFile(path, text, why)) {
        error = "--agents \"" + spec + "\": cannot read \"" + path + "\": " + why;
        return false;
    }
    std::size_t number = 0;
    for (std::size_t at = 0; at <= text.size();) {
        const std::size_t end = std::min(text.find('\n', at), text.size());
        std::string_view line = std::string_view(text).substr(at, end - at);
        at = end + 1;
        ++number;
        line = trimSpaces(line.substr(0, line.find('#')));
        std::string host, port;
        if (line.empty())
            continue;
        if (!splitHostPort(std::string(line), host, port)) {
            error = "--agents \"" + spec + "\": line " + std::to_string(number) + " is not host:port";
            return false;
        }
        out.emplace_back(line);
    }
    return true;
}

} // namespace

bool expandAgents(const std::vector<std::string>& specs, std::vector<std::string>& out, std::string& error,
                  const AgentRegistry* joined)
{
    std::vector<std::string> all;
    for (const std::string& spec : specs) {
        std::string host, port;
        if (spec == "joined") {
            if (!joined) {
                error = "--agents joined: the agents that join by themselves need --accept-agents ADDR";
                return false;
            }
            for (std::string& a : joined->live())
                all.push_back(std::move(a));
        } else if (spec.rfind("dns:", 0) == 0) {
            if (!resolveName(spec, all, error))
                return false;
        } else if (spec.rfind("file:", 0) == 0) {
            if (!readList(spec, all, error))
                return false;
        } else if (splitHostPort(spec, host, port)) {
            all.push_back(spec);
        } else {
            error = "--agents \"" + spec + "\": give host:port, dns:NAME:PORT, file:PATH or joined";
            return false;
        }
        if (all.size() > kMaxAgents) {
            error = "--agents: more than " + std::to_string(kMaxAgents) + " agents";
            return false;
        }
    }
    out.clear();
    std::set<std::string> seen;
    for (std::string& a : all)
        if (seen.insert(a).second)
            out.push_back(std::move(a));
    if (out.empty())
        error = "--agents: no agent found";
    return !out.empty();
}

std::vector<std::string> answeringAgents(const std::vector<std::string>& agents, Nanos timeout)
{
    struct Try
    {
        std::string agent;
        int fd = -1;
    };
    std::vector<Try> tries;
    for (const std::string& a : agents) {
        std::string host, port;
        if (!splitHostPort(a, host, port))
            continue;
        addrinfo hints{};
        hints.ai_socktype = SOCK_STREAM;
        hints.ai_flags = AI_NUMERICSERV;
        addrinfo* found = nullptr;
        if (getaddrinfo(host.c_str(), port.c_str(), &hints, &found) != 0)
            continue;
        const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        if (fd >= 0 && (::connect(fd, found->ai_addr, found->ai_addrlen) == 0 || errno == EINPROGRESS))
            tries.push_back({a, fd});
        else if (fd >= 0)
            ::close(fd);
        freeaddrinfo(found);
    }
    std::vector<std::string> out;
    const Nanos until = SteadyClock::monotonicNow() + timeout;
    std::vector<pollfd> fds;
    for (const Try& t : tries)
        fds.push_back({t.fd, POLLOUT, 0});
    std::vector<bool> done(tries.size());
    for (std::size_t left = tries.size(); left;) {
        const Nanos now = SteadyClock::monotonicNow();
        if (now >= until || ::poll(fds.data(), fds.size(), int((until - now) / kNanosPerMilli) + 1) <= 0)
            break;
        for (std::size_t i = 0; i < fds.size(); ++i) {
            if (done[i] || !fds[i].revents)
                continue;
            int err = 0;
            socklen_t len = sizeof err;
            getsockopt(fds[i].fd, SOL_SOCKET, SO_ERROR, &err, &len);
            done[i] = true;
            fds[i].fd = -1; // poll ignores it from now on
            --left;
            if (err == 0)
                out.push_back(tries[i].agent);
        }
    }
    for (const Try& t : tries)
        ::close(t.fd);
    std::sort(out.begin(), out.end(), [&](const std::string& a, const std::string& b) {
        return std::find(agents.begin(), agents.end(), a) < std::find(agents.begin(), agents.end(), b);
    });
    return out;
}

bool awaitAgents(const std::vector<std::string>& specs, std::size_t minimum, Nanos wait, std::vector<std::string>& out,
                 std::string& error, Clock& clock, const AgentRegistry* joined)
{
    const Nanos until = clock.now() + wait;
    std::vector<std::string> found;
    for (;;) {
        std::string why;
        if (expandAgents(specs, found, why, joined)) // a name that does not resolve yet may resolve in a second
            out = answeringAgents(found, kNanosPerSecond / 2);
        else
            error = why;
        if (out.size() >= minimum)
            return true;
        if (clock.now() >= until)
            break;
        clock.sleepFor(kNanosPerSecond);
    }
    error = "--min-agents " + std::to_string(minimum) + ": " + std::to_string(out.size()) + " of " +
            std::to_string(found.size()) + " agents found answered within " + formatDuration(wait) +
            (error.empty() ? "" : " (" + error + ")");
    return false;
}

bool parseAgentLabel(const std::string& text, std::string& key, std::string& value, std::string& error)
{
    const std::size_t eq = text.find('=');
    key = text.substr(0, eq);
    value = eq == std::string::npos ? std::string() : text.substr(eq + 1);
    const bool keyOk = !key.empty() && key.size() <= 63 && std::all_of(key.begin(), key.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.' || c == '/';
    });
    const bool valueOk = eq != std::string::npos && !value.empty() && value.size() <= 63 &&
                         std::all_of(value.begin(), value.end(), [](char c) { return c > 0x20 && c < 0x7f; });
    if (!keyOk || !valueOk) {
        error = "label \"" + text +
                "\": expected KEY=VALUE (letters, digits, - _ . / in the key; each at most 63 "
                "characters, no spaces)";
        return false;
    }
    return true;
}

bool agentsWithLabels(const std::vector<std::string>& agents, const std::map<std::string, std::string>& wanted,
                      const std::string& token, const std::string& caFile, std::vector<std::string>& out,
                      std::string& error, const std::string& tlsName)
{
    out.clear();
    for (const std::string& a : agents) {
        const AgentLinkPtr link = makeGrpcAgentLink(a, token, caFile, tlsName);
        v1::HelloReply hello;
        std::string why;
        if (!link->hello("labels", 5 * kNanosPerSecond, hello, why)) {
            error = "--agents-with: agent " + a + " does not answer: " + why;
            return false;
        }
        const bool match = std::all_of(wanted.begin(), wanted.end(), [&](const auto& w) {
            const auto it = hello.labels().find(w.first);
            return it != hello.labels().end() && it->second == w.second;
        });
        if (match)
            out.push_back(a);
    }
    if (out.empty()) {
        std::string labels;
        for (const auto& [k, v] : wanted)
            labels += (labels.empty() ? "" : ", ") + k + "=" + v;
        error = "--agents-with: none of the " + std::to_string(agents.size()) + " agents has " + labels;
        return false;
    }
    return true;
}

} // namespace stampede
