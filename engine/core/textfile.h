#pragma once
// Whole files read into memory (scenario data, CSV sets, TLS certificates),
// and paths taken relative to a scenario's folder.
#include <string>

namespace stampede {

// Reads `path` whole; false with `why` (the system's reason) when it cannot.
bool readWholeFile(const std::string& path, std::string& out, std::string& why);
// `file` itself when absolute (or `baseDir` is empty), else baseDir/file.
std::string pathUnder(const std::string& baseDir, const std::string& file);

} // namespace stampede
