#pragma once
// Scenario bundles: a scenario with its CSV data in one binary file with a
// format version and a SHA-256 digest, runnable anywhere. See bundle.proto
// for the layout on disk.
#include <cstdint>
#include <string>
#include <vector>

namespace stampede::v1 {
class Bundle;
class Scenario;
} // namespace stampede::v1

namespace stampede {

constexpr std::uint32_t kBundleFormatVersion = 1;

// Copies `scenario` into `out` with every CSV file read (relative to
// `baseDir`) and inlined. Returns false with a message naming the variable.
bool makeBundle(const v1::Scenario& scenario, const std::string& baseDir, const std::string& sourceName,
                v1::Bundle& out, std::string& error);

std::string encodeBundle(const v1::Bundle& bundle);
// Refuses, with a message that says which: not a bundle, a newer format
// version, a truncated file, an altered payload (digest mismatch).
bool decodeBundle(const std::string& bytes, v1::Bundle& out, std::string& error);
// The first field of `scenario` that names a file to open (a data set's,
// a replay's, a .proto or an import path, a certificate or key), as
// "scenarios[0].variables[1].csv.file (\"users.csv\")"; "" when none does. A
// bundle carries its data inline: an agent never opens a path it was given,
// and decodeBundle refuses a bundle that names one.
std::string pathNamedIn(const v1::Scenario& scenario);
// Every file `scenario` names (a data set, a body or a form's file, a replay's, a .proto, a certificate or key),
// as written, in order: what makeBundle reads (an output must never be one of them).
std::vector<std::string> filesNamedIn(const v1::Scenario& scenario);
// True when `bytes` start with the bundle magic.
bool looksLikeBundle(const std::string& bytes);

} // namespace stampede
