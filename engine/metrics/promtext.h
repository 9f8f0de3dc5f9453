#pragma once
// The Prometheus text exposition format (version 0.0.4), as /metrics
// endpoints serve it: "# HELP"/"# TYPE" comments, and sample lines
//   name{label="value",...} 1.5e3 [timestamp]
// with escaped label values (\\, \", \n), NaN, +Inf and -Inf. Lines that do
// not parse are counted, not fatal: one bad line must not hide the rest.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

struct PromSample
{
    std::string name;
    std::vector<std::pair<std::string, std::string>> labels;
    double value = 0;
};

struct PromParse
{
    std::vector<PromSample> samples;
    std::size_t badLines = 0;
    std::size_t firstBadLine = 0; // 1-based; 0 when none
};

// Parses a whole exposition (at most kMaxSamples samples are kept).
PromParse parsePromText(std::string_view text);
constexpr std::size_t kMaxPromSamples = 100000;

// The sum of the samples of series `name` whose labels include every one of
// `labels` (a counter spread over label sets adds up); nothing when no sample matches.
std::optional<double> promValue(const PromParse& parsed, std::string_view name,
                                const std::vector<std::pair<std::string, std::string>>& labels);

} // namespace stampede
