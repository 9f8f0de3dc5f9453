#pragma once
// The CPUs this process may use, as a load generator sizes itself by them:
// its affinity (taskset, a cpuset), bounded by its cgroup's CPU quota (a
// container's --cpus, Kubernetes' limits: cgroup v2 cpu.max, v1
// cpu.cfs_quota_us / cpu.cfs_period_us, the smallest along the path to the
// root), and the NUMA nodes those CPUs lie on. Not the machine's core count:
// two engines of one thread each on a CPU quota of one fight over it.
//
// The files are outside input: each goes through a parser here (fuzzed:
// tests/fuzz/fuzz_cpubudget.cpp) with its documented bounds.
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

struct CpuBudget
{
    unsigned affinity = 1; // CPUs in the affinity mask
    double quota = 0;      // cores the cgroup allows (0: no quota)
    unsigned cpus = 1;     // what may be used: the affinity, at most the quota's whole cores (at least 1)
    unsigned nodes = 1;    // NUMA nodes holding some of the affinity's CPUs (at least 1)
    std::string source;    // what bounded `cpus`, in words ("affinity", "cgroup cpu.max 150000 100000")
};

// Where the budget's facts come from (tests give their own).
struct CpuSources
{
    std::vector<unsigned> affinity;                                     // the CPUs of the mask
    std::function<std::optional<std::string>(const std::string&)> read; // a file's text, if it exists
};

// cgroup v2 cpu.max: "max 100000" (no quota: 0) or "QUOTA PERIOD" in
// microseconds (1 to 10^12 each); the cores as QUOTA / PERIOD.
bool parseCpuMax(std::string_view text, double& cores, std::string& error);
// A CPU list as the kernel writes it ("0-3,8,10-11"), CPU numbers below 65536.
bool parseCpuList(std::string_view text, std::vector<unsigned>& cpus, std::string& error);

// The CPUs of this process's affinity mask (empty when it cannot be read).
std::vector<unsigned> affinityCpus();

// The budget from `sources` (never fails: what cannot be read bounds nothing).
CpuBudget cpuBudget(const CpuSources& sources);
// This process's, read now.
CpuBudget cpuBudget();

} // namespace stampede
