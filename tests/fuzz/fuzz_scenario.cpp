// libFuzzer target: the scenario loader (JSON, validation and compilation).
// Hosts are not looked up: no fuzz input may cause network traffic.
#include "plan/scenarioplan.h"
#include "stampede/v1/scenario.pb.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(std::string(reinterpret_cast<const char*>(data), size), s, error))
        return 0;
    for (auto& v : *s.mutable_variables())
        if (v.has_csv())
            v.mutable_csv()->clear_file(); // only inline data: no file system access
    std::vector<stampede::PlanError> errors;
    stampede::PlanOptions options;
    options.runId = "st-fuzz";
    auto plan = stampede::compileScenario(s, options, errors);
    if (!plan && errors.empty())
        __builtin_trap();
    return 0;
}
