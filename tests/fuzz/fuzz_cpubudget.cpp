// libFuzzer target: the CPU budget's parsers of kernel files (cgroup cpu.max,
// CPU lists) and the budget over a fake tree whose files are the input.
// Whatever the text: cores are positive and bounded, CPUs in range and
// sorted, a refusal says why, and a budget has at least one CPU and node.
#include "core/cpubudget.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string error;
    double cores = -1;
    if (stampede::parseCpuMax(text, cores, error)) {
        if (!(cores >= 0 && cores <= 1e12))
            std::abort();
    } else if (error.empty()) {
        std::abort();
    }
    std::vector<unsigned> cpus;
    error.clear();
    if (stampede::parseCpuList(text, cpus, error)) {
        if (!std::is_sorted(cpus.begin(), cpus.end()) || (!cpus.empty() && cpus.back() > 65535))
            std::abort();
    } else if (error.empty()) {
        std::abort();
    }
    // the same text as every file of a tree: mounts, cgroups, quotas, nodes
    stampede::CpuSources src;
    src.affinity = {0, 1, 2, 3};
    src.read = [&](const std::string& path) -> std::optional<std::string> {
        if (path.find("node") != std::string::npos && path.find("node2") != std::string::npos)
            return std::nullopt; // the nodes end
        return text;
    };
    const stampede::CpuBudget b = stampede::cpuBudget(src);
    if (b.cpus < 1 || b.cpus > 4 || b.nodes < 1 || b.nodes > b.cpus)
        std::abort();
    return 0;
}
