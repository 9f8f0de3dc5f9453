// libFuzzer target: the CSV reader and the partition of its rows.
#include "core/csvtable.h"
#include "core/parametersource.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    if (size < 1)
        return 0;
    auto table = std::make_shared<stampede::CsvTable>();
    std::string error;
    const char delimiter = (data[0] % 3 == 0) ? ';' : (data[0] % 3 == 1 ? ',' : '\t');
    if (!table->parse(std::string(reinterpret_cast<const char*>(data + 1), size - 1), delimiter, error))
        return 0;
    for (std::size_t r = 0; r < table->rowCount(); ++r)
        for (std::size_t c = 0; c < table->columns().size(); ++c)
            (void)table->cell(r, c);
    if (table->rowCount() >= 2) {
        auto src = stampede::makeCsvSource(table, stampede::CsvMode::Stop);
        std::size_t seen = 0;
        for (std::uint32_t part = 0; part < 2; ++part) {
            auto cursor = src->cursor(part, 2, 1);
            while (cursor->next(0))
                ++seen;
        }
        if (seen != table->rowCount())
            __builtin_trap();
    }
    return 0;
}
