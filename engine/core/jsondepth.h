#pragma once
// How deep JSON nests, found in one pass before a parser sees it (a parser
// recurses: protobuf's took over a minute for arrays 100,000 deep): arrays
// and objects alike, brackets inside strings not counted.
#include <cstddef>
#include <string_view>

namespace stampede {

// The byte offset where `json` nests deeper than `maxDepth`, or npos.
inline std::size_t jsonTooDeep(std::string_view json, std::size_t maxDepth)
{
    std::size_t depth = 0;
    bool inString = false;
    for (std::size_t i = 0; i < json.size(); ++i) {
        const char c = json[i];
        if (inString) {
            if (c == '\\')
                ++i;
            else if (c == '"')
                inString = false;
        } else if (c == '"') {
            inString = true;
        } else if (c == '[' || c == '{') {
            if (++depth > maxDepth)
                return i;
        } else if ((c == ']' || c == '}') && depth) {
            --depth;
        }
    }
    return std::string_view::npos;
}

} // namespace stampede
