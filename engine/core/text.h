#pragma once
// Small text helpers shared by the protocol code.
#include <string_view>

namespace stampede {

// ASCII case-insensitive equality, as HTTP header names compare.
inline bool equalsNoCase(std::string_view a, std::string_view b)
{
    if (a.size() != b.size())
        return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if ((a[i] | 0x20) != (b[i] | 0x20))
            return false;
    return true;
}

} // namespace stampede
