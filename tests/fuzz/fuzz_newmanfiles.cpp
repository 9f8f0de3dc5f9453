// libFuzzer target: the files newman takes beside a collection (an
// environment or globals export, an iteration data file in CSV or JSON).
// Whatever the input: no crash, a refusal says why, and what is read is what a
// run can use: every name non-empty, the data's CSV read back by the strict
// reader a run uses, with the rows and columns said and a type letter for each.
#include "collection/newmanfiles.h"
#include "core/csvtable.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::string error;
    stampede::PostmanVariables vars;
    if (stampede::readPostmanVariables(input, vars, error)) {
        for (const auto& [key, value] : vars.values)
            if (key.empty())
                __builtin_trap();
    } else if (error.empty()) {
        __builtin_trap();
    }
    for (const char* name : {"data.csv", "data.json"}) {
        stampede::IterationData d;
        error.clear();
        if (!stampede::readIterationData(input, name, d, error)) {
            if (error.empty())
                __builtin_trap();
            continue;
        }
        stampede::CsvTable table;
        if (!table.parse(d.csv, ',', error) || table.rowCount() != d.rows || d.rows == 0 ||
            table.columns().size() != d.columns.size() + 1 || table.columns().back() != "$types")
            __builtin_trap();
        for (std::size_t r = 0; r < d.rows; ++r) {
            const std::string_view types = table.cell(r, d.columns.size());
            if (types.size() != d.columns.size() || types.find_first_not_of("sju") != std::string_view::npos)
                __builtin_trap();
        }
    }
    return 0;
}
