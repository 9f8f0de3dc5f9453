#include "trafficshape.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

namespace stampede {

namespace {

std::vector<std::pair<std::string, std::uint64_t>> busiest(const std::unordered_map<std::string, std::uint64_t>& counts,
                                                           std::size_t n)
{
    std::vector<std::pair<std::string, std::uint64_t>> out(counts.begin(), counts.end());
    std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (out.size() > n)
        out.resize(n);
    return out;
}

// "/a/b" from "/a/b?x=1" or "https://host/a/b?x=1".
std::string pathOf(const std::string& target)
{
    std::size_t start = 0;
    if (const std::size_t scheme = target.find("://"); scheme != std::string::npos) {
        start = target.find('/', scheme + 3);
        if (start == std::string::npos)
            return "/";
    }
    return target.substr(start, target.find_first_of("?#", start) - start);
}

} // namespace

TrafficShape shapeOf(const std::vector<TrafficRecord>& records, std::size_t paths)
{
    TrafficShape s;
    if (records.empty())
        return s;
    const std::int64_t t0 = records.front().atNanos;
    std::unordered_map<std::string, std::uint64_t> byPath, byMethod;
    std::unordered_set<std::string> clients;
    for (const TrafficRecord& r : records) {
        const auto k = std::size_t(std::max<std::int64_t>(0, (r.atNanos - t0) / 1000000000));
        if (k >= s.perSecond.size())
            s.perSecond.resize(k + 1);
        ++s.perSecond[k];
        ++byPath[pathOf(r.target)];
        ++byMethod[r.method];
        if (!r.client.empty())
            clients.insert(r.client);
    }
    s.topPaths = busiest(byPath, paths);
    s.methods = busiest(byMethod, byMethod.size());
    s.clients = clients.size();
    s.peak = *std::max_element(s.perSecond.begin(), s.perSecond.end());
    return s;
}

} // namespace stampede
