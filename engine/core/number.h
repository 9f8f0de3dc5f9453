#pragma once
// Numbers from a user (command line, dialogs): one checked parser. A whole
// number is decimal digits only (no sign, exponent or fraction); a decimal is
// digits with at most one point. Both refuse overflow and anything outside
// [min, max], with a message that names the field and the bound. The bounds
// are documented where they are used (kLimits below for a run's).
#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

bool parseWhole(std::string_view text, std::string_view field, std::uint64_t min, std::uint64_t max, std::uint64_t& out,
                std::string& error);
bool parseDecimal(std::string_view text, std::string_view field, double min, double max, double& out,
                  std::string& error);

// The largest values a run accepts (docs/command-line.md, "Limits").
struct RunLimits
{
    static constexpr std::uint64_t kConnections = 1000000; // connections (open model) or virtual users
    static constexpr double kRate = 10000000;              // iterations per second, the whole run
    static constexpr std::uint64_t kThreads = 1024;        // per engine
    static constexpr std::uint64_t kStreams = 1000;        // HTTP/2 streams per connection
    static constexpr std::uint64_t kEngines = 1024;        // local engines
    static constexpr std::uint64_t kDeadManSeconds = 3600;
    static constexpr std::int64_t kDurationSeconds = 30 * 24 * 3600; // a run, or a stage of it: 30 days
    static constexpr std::int64_t kTimeoutSeconds = 3600;            // a request's (or a connect's) timeout
    static constexpr std::uint64_t kIterations = 1000000;            // per virtual user (closed model)
};

} // namespace stampede
