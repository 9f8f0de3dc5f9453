#pragma once
// Reads recorded traffic from a file: an access log (plain or gzip'd, read
// by a LogFormat) or a HAR file. Every line that does not parse is counted,
// and the first 20 are kept with their line numbers and why: never dropped
// in silence. Long imports report progress and can be cancelled.
#include "har.h"
#include "logformat.h"

#include <functional>
#include <string>
#include <vector>

namespace stampede {

struct TrafficImport
{
    std::vector<TrafficRecord> records;   // in time order (stable: a log's order within a time)
    std::uint64_t lines = 0;              // lines (or HAR entries) read, blank lines excluded
    std::uint64_t bad = 0;                // of which could not be read
    std::vector<TrafficProblem> problems; // the first kMaxProblems of them
    bool cancelled = false;
    static constexpr std::size_t kMaxProblems = 20;
};

// Progress in [0, 1] of the file read; return false to cancel (what was read
// so far is kept, `cancelled` is set).
using ImportProgress = std::function<bool(double fraction)>;

// An access log at `path` (gzip'd or not: told by its content) read with
// `format`. False with `error` when the file cannot be read.
bool importLog(const std::string& path, const LogFormat& format, TrafficImport& out, std::string& error,
               const ImportProgress& progress = {});
// The same from lines in memory (tests, fuzzing).
void importLogText(std::string_view text, const LogFormat& format, TrafficImport& out);
// A HAR file at `path`. False with `error` when it cannot be read or is not HAR.
bool importHar(const std::string& path, TrafficImport& out, std::string& error);

} // namespace stampede
