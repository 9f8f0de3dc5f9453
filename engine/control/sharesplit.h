#pragma once
// How a run's shares are dealt to its agents: in proportion to each agent's
// usable cores (what its Hello says: its affinity bounded by its cgroup's CPU
// quota), every agent at least one. Agents alike in cores get the same count,
// dealt in turn (agent i of n: shares i, i + n, ...), as before weights.
#include <cstdint>
#include <vector>

namespace stampede {

// The shares each agent runs, by agent (each list ascending); `cores` of 0
// count as 1. `shareCount` is at least the number of agents.
std::vector<std::vector<std::uint32_t>> splitShares(const std::vector<unsigned>& cores, std::uint32_t shareCount);

// The share count when none is given (--shares): one per agent when their
// cores are alike, else one per core (at most `most`), so that the split can
// follow the cores.
std::uint32_t defaultShareCount(const std::vector<unsigned>& cores, std::uint32_t most);

} // namespace stampede
