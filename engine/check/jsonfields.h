#pragma once
// Reading a JSON object from outside with simdjson On-Demand: field by field,
// once, in order. (On-Demand's unordered lookups assume a document already
// validated; a file from outside is not, and a damaged one reaches an
// "unreachable" point inside simdjson.)
#include <simdjson.h>

#include <string_view>

namespace stampede {

// Calls each(key, value) for every field of `o`; false as soon as a field
// cannot be read or `each` returns false.
template <typename Each> bool eachField(simdjson::ondemand::object o, Each each)
{
    for (auto field : o) {
        std::string_view key;
        if (field.unescaped_key().get(key))
            return false;
        simdjson::ondemand::value v;
        if (field.value().get(v) || !each(key, v))
            return false;
    }
    return true;
}

} // namespace stampede
