#include "cpubudget.h"

#include "number.h"
#include "textfile.h"

#include <algorithm>
#include <cmath>
#include <sched.h>

namespace stampede {

namespace {

constexpr std::uint64_t kMaxMicros = 1000000000000ull; // 10^12 us: a period or quota past it is not one
constexpr unsigned kMaxCpu = 65535;

std::string_view trimmed(std::string_view s)
{
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r'))
        s.remove_suffix(1);
    return s;
}

std::vector<std::string_view> split(std::string_view s, char by)
{
    std::vector<std::string_view> out;
    for (std::size_t at = 0;;) {
        const std::size_t next = s.find(by, at);
        out.push_back(s.substr(at, next == std::string_view::npos ? std::string_view::npos : next - at));
        if (next == std::string_view::npos)
            return out;
        at = next + 1;
    }
}

// "a/b/c" -> "a/b/c", "a/b", "a", "": the cgroup and its ancestors.
std::vector<std::string> ancestry(std::string path)
{
    std::vector<std::string> out;
    while (!path.empty() && path.back() == '/')
        path.pop_back();
    for (;;) {
        out.push_back(path);
        const std::size_t slash = path.rfind('/');
        if (slash == std::string::npos || path.empty())
            return out;
        path.resize(slash);
    }
}

struct Mounts
{
    std::vector<std::string> v2; // cgroup2 mount points
    std::vector<std::string> v1; // cgroup (v1) mount points holding the cpu controller
};

Mounts cgroupMounts(const CpuSources& src)
{
    Mounts m;
    const auto text = src.read("/proc/self/mounts");
    if (!text)
        return m;
    for (const std::string_view line : split(*text, '\n')) {
        const auto f = split(line, ' ');
        if (f.size() < 4)
            continue;
        if (f[2] == "cgroup2")
            m.v2.emplace_back(f[1]);
        const auto opts = split(f[3], ',');
        if (f[2] == "cgroup" && std::find(opts.begin(), opts.end(), "cpu") != opts.end())
            m.v1.emplace_back(f[1]);
    }
    return m;
}

// The smallest quota along the process's cgroups (0: none), and what set it.
double cgroupQuota(const CpuSources& src, std::string& source)
{
    const auto groups = src.read("/proc/self/cgroup");
    if (!groups)
        return 0;
    const Mounts mounts = cgroupMounts(src);
    double best = 0;
    const auto consider = [&](double cores, const std::string& what) {
        if (cores > 0 && (best == 0 || cores < best)) {
            best = cores;
            source = what;
        }
    };
    for (const std::string_view line : split(*groups, '\n')) {
        const auto f = split(line, ':'); // ID:CONTROLLERS:PATH
        if (f.size() < 3)
            continue;
        const std::string path(line.substr(f[0].size() + f[1].size() + 2));
        const auto controllers = split(f[1], ',');
        const bool v2 = f[0] == "0" && f[1].empty();
        const bool v1cpu = std::find(controllers.begin(), controllers.end(), "cpu") != controllers.end();
        for (const std::string& group : ancestry(path)) {
            std::string error;
            for (const std::string& root : v2 ? mounts.v2 : v1cpu ? mounts.v1 : std::vector<std::string>{}) {
                const std::string dir = root + group;
                double cores = 0;
                if (v2) {
                    if (const auto max = src.read(dir + "/cpu.max"); max && parseCpuMax(*max, cores, error))
                        consider(cores, "cgroup cpu.max " + std::string(trimmed(*max)));
                    continue;
                }
                const auto quota = src.read(dir + "/cpu.cfs_quota_us"), period = src.read(dir + "/cpu.cfs_period_us");
                if (!quota || !period || trimmed(*quota) == "-1")
                    continue;
                const std::string asMax = std::string(trimmed(*quota)) + " " + std::string(trimmed(*period));
                if (parseCpuMax(asMax, cores, error))
                    consider(cores, "cgroup cpu.cfs_quota_us/cfs_period_us " + asMax);
            }
        }
    }
    return best;
}

// NUMA nodes holding some of `cpus` (at least 1).
unsigned numaNodes(const CpuSources& src, const std::vector<unsigned>& cpus)
{
    unsigned nodes = 0;
    for (unsigned n = 0; n < 1024; ++n) {
        const auto list = src.read("/sys/devices/system/node/node" + std::to_string(n) + "/cpulist");
        if (!list)
            break;
        std::vector<unsigned> on;
        std::string error;
        if (!parseCpuList(*list, on, error))
            continue;
        nodes += std::any_of(on.begin(), on.end(),
                             [&](unsigned c) { return std::find(cpus.begin(), cpus.end(), c) != cpus.end(); });
    }
    return std::max(1u, nodes);
}

} // namespace

bool parseCpuMax(std::string_view text, double& cores, std::string& error)
{
    const auto f = split(trimmed(text), ' ');
    if (f.size() != 2) {
        error = "cpu.max: \"" + std::string(text.substr(0, 64)) + "\" is not \"QUOTA PERIOD\"";
        return false;
    }
    std::uint64_t period = 0, quota = 0;
    if (!parseWhole(f[1], "cpu.max period", 1, kMaxMicros, period, error))
        return false;
    if (f[0] == "max") {
        cores = 0;
        return true;
    }
    if (!parseWhole(f[0], "cpu.max quota", 1, kMaxMicros, quota, error))
        return false;
    cores = double(quota) / double(period);
    return true;
}

bool parseCpuList(std::string_view text, std::vector<unsigned>& cpus, std::string& error)
{
    cpus.clear();
    text = trimmed(text);
    if (text.empty())
        return true;
    for (const std::string_view part : split(text, ',')) {
        const std::size_t dash = part.find('-');
        std::uint64_t from = 0, to = 0;
        if (!parseWhole(part.substr(0, dash), "CPU", 0, kMaxCpu, from, error))
            return false;
        to = from;
        if (dash != std::string_view::npos && !parseWhole(part.substr(dash + 1), "CPU", 0, kMaxCpu, to, error))
            return false;
        if (to < from) {
            error = "CPU list: \"" + std::string(part) + "\" runs backwards";
            return false;
        }
        if (cpus.size() + (to - from + 1) > kMaxCpu + 1) {
            error = "CPU list: more than 65,536 CPUs";
            return false;
        }
        for (std::uint64_t c = from; c <= to; ++c)
            cpus.push_back(unsigned(c));
    }
    std::sort(cpus.begin(), cpus.end());
    cpus.erase(std::unique(cpus.begin(), cpus.end()), cpus.end());
    return true;
}

CpuBudget cpuBudget(const CpuSources& src)
{
    CpuBudget b;
    b.affinity = std::max<unsigned>(1, unsigned(src.affinity.size()));
    b.cpus = b.affinity;
    b.source = "affinity";
    std::string quotaSource;
    b.quota = cgroupQuota(src, quotaSource);
    // whole cores of the quota: a thread more than it allows is throttled in
    // stalls, which a load generator would measure as the target's latency
    if (b.quota > 0 && unsigned(std::floor(b.quota)) < b.cpus) {
        b.cpus = std::max(1u, unsigned(std::floor(b.quota)));
        b.source = quotaSource;
    }
    b.nodes = std::min(numaNodes(src, src.affinity), b.cpus);
    return b;
}

std::vector<unsigned> affinityCpus()
{
    std::vector<unsigned> cpus;
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0)
        for (unsigned c = 0; c < CPU_SETSIZE; ++c)
            if (CPU_ISSET(c, &set))
                cpus.push_back(c);
    return cpus;
}

CpuBudget cpuBudget()
{
    CpuSources src;
    src.affinity = affinityCpus();
    src.read = [](const std::string& path) -> std::optional<std::string> {
        std::string text, why;
        return readWholeFile(path, text, why) ? std::optional<std::string>(std::move(text)) : std::nullopt;
    };
    return cpuBudget(src);
}

} // namespace stampede
