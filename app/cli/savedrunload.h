#pragma once
// A saved run as the report commands name it: FILE (a report or a project),
// FILE@RUN, or FILE with --run RUN (its id, st-..., or its number); the newest
// when none is named. A project the workbench holds is read beside it.
#include "store/projectstore.h"
#include "store/runlog.h"

#include <memory>
#include <string>

namespace stampede::cli {

struct Loaded
{
    std::unique_ptr<ProjectStore> store;
    SavedRun run;
};

bool load(const std::string& spec, const std::string& runArg, Loaded& out, std::string& error);

} // namespace stampede::cli
