#include "savedrunload.h"

namespace stampede::cli {

bool load(const std::string& spec, const std::string& runArg, Loaded& out, std::string& error)
{
    std::string file = spec, run = runArg;
    const std::size_t at = spec.rfind('@');
    if (run.empty() && at != std::string::npos && at > 0) {
        file = spec.substr(0, at);
        run = spec.substr(at + 1);
    }
    bool readOnly = false; // a project the workbench holds is read beside it
    out.store = ProjectStore::openForReading(file, error, readOnly);
    if (!out.store)
        return false;
    RunLog log(*out.store);
    const auto id = log.find(run);
    if (!id) {
        error = run.empty() ? "\"" + file + "\" holds no run" : "\"" + file + "\" has no run " + run;
        return false;
    }
    auto saved = log.load(*id);
    if (!saved) {
        error = log.error();
        return false;
    }
    out.run = std::move(*saved);
    return true;
}

} // namespace stampede::cli
