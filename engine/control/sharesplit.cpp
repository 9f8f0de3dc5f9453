#include "sharesplit.h"

#include <algorithm>
#include <numeric>

namespace stampede {

namespace {

std::vector<double> weights(const std::vector<unsigned>& cores)
{
    std::vector<double> w;
    for (const unsigned c : cores)
        w.push_back(double(std::max(1u, c)));
    return w;
}

// Each agent's count: its part of `total` by weight (largest remainder), at least one.
std::vector<std::uint32_t> counts(const std::vector<double>& w, std::uint32_t total)
{
    const double sum = std::accumulate(w.begin(), w.end(), 0.0);
    std::vector<double> ideal;
    std::vector<std::uint32_t> out;
    for (const double x : w) {
        ideal.push_back(total * x / sum);
        out.push_back(std::max<std::uint32_t>(1, std::uint32_t(ideal.back())));
    }
    auto given = std::accumulate(out.begin(), out.end(), std::uint64_t(0));
    while (given < total) { // the largest shortfall first (the first of equals)
        std::size_t best = 0;
        for (std::size_t i = 1; i < out.size(); ++i)
            if (ideal[i] - out[i] > ideal[best] - out[best])
                best = i;
        ++out[best];
        ++given;
    }
    while (given > total) { // the minimum of one made too many: the largest excess gives one back
        std::size_t best = out.size();
        for (std::size_t i = 0; i < out.size(); ++i)
            if (out[i] > 1 && (best == out.size() || out[i] - ideal[i] > out[best] - ideal[best]))
                best = i;
        --out[best];
        --given;
    }
    return out;
}

} // namespace

std::vector<std::vector<std::uint32_t>> splitShares(const std::vector<unsigned>& cores, std::uint32_t shareCount)
{
    const std::size_t n = cores.size();
    std::vector<std::vector<std::uint32_t>> shares(n);
    if (n == 0)
        return shares;
    const std::vector<std::uint32_t> want =
        counts(weights(cores), std::max<std::uint32_t>(shareCount, std::uint32_t(n)));
    // dealt in turn, skipping agents that have their count: alike agents get i, i + n, ...
    const std::uint32_t total = std::max<std::uint32_t>(shareCount, std::uint32_t(n));
    for (std::uint32_t s = 0; s < total;)
        for (std::size_t i = 0; i < n && s < total; ++i)
            if (shares[i].size() < want[i])
                shares[i].push_back(s++);
    return shares;
}

std::uint32_t defaultShareCount(const std::vector<unsigned>& cores, std::uint32_t most)
{
    const auto n = std::uint32_t(cores.size());
    if (n == 0 || std::all_of(cores.begin(), cores.end(), [&](unsigned c) { return c == cores[0]; }))
        return n;
    std::uint64_t sum = 0;
    for (const unsigned c : cores)
        sum += std::max(1u, c);
    return std::uint32_t(std::max<std::uint64_t>(n, std::min<std::uint64_t>(sum, most)));
}

} // namespace stampede
