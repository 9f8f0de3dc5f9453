#pragma once
// A file of recorded traffic read by what it is: a HAR file (`format` "har",
// or empty for a *.har file) or an access log in the combined format ("",
// "nginx", "combined") or in a log_format given as text. Shared by the import
// and replay commands and the replay step.
#include "trafficimport.h"

#include <string>

namespace stampede {

// False with `error` ("--format: unknown variable $foo", "cannot open ...");
// `used` says which format was read ("har", "combined" or the text).
bool readTrafficFile(const std::string& path, const std::string& format, TrafficImport& out, std::string& used,
                     std::string& error, const ImportProgress& progress = {});

// readTrafficFile, then `masks` (MaskRule texts) applied with this process's
// own key (a value hashes the same within the process, never across runs).
// False with `where` ("file", "format" or "mask[i]") and `error`; a file of
// which no line reads is refused too. `out` keeps the lines that did not read.
bool readMaskedTrafficFile(const std::string& path, const std::string& format, const std::vector<std::string>& masks,
                           TrafficImport& out, std::string& where, std::string& error);

} // namespace stampede
