#pragma once
// Parameter sources: where `${name}` values come from. A source is an immutable
// definition shared by all workers; each worker draws through its own cursor,
// created for its part `part` of `parts` (engine i of n times thread j of T,
// flattened), so that CSV rows and increment values are disjoint across parts
// and their union covers all values.
#include "csvtable.h"
#include "random.h"

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class SourceCursor
{
public:
    virtual ~SourceCursor() = default;
    // Draws the values for a new iteration of virtual user `user` (a local index
    // within the worker). Returns false when the source is exhausted (CSV stop mode).
    virtual bool next(std::uint32_t user) = 0;
    // The drawn value; `column` is a CSV column index, -1 for scalar sources.
    virtual std::string_view value(int column) const = 0;
    // After next() returned false: true when the source is not exhausted but
    // has no value free now (an account pool whose rows are all checked out).
    virtual bool busy() const { return false; }
    // `user`'s iteration ended: what it checked out is free again.
    virtual void release(std::uint32_t /*user*/) {}
};
using SourceCursorPtr = std::unique_ptr<SourceCursor>;

// Thrown by cursor() when a part would be empty (more parts than values).
class PartitionError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
};

class ParameterSource
{
public:
    virtual ~ParameterSource() = default;
    virtual SourceCursorPtr cursor(std::uint32_t part, std::uint32_t parts, std::uint64_t seed) const = 0;
    // CSV sources have columns; scalar sources return -1 for every name.
    virtual int columnIndex(std::string_view name) const { return -1; }
    virtual bool hasColumns() const { return false; }
    virtual std::vector<std::string> columnNames() const { return {}; }
    // A constant's value is folded into templates at compile time.
    virtual const std::string* constantValue() const { return nullptr; }
    // An account pool: a row is held by one user for its iteration (release()).
    virtual bool checksOut() const { return false; }
};
using ParameterSourcePtr = std::shared_ptr<const ParameterSource>;

enum class CsvMode
{
    Wrap,
    Stop,
    PerUser,
    // An account pool: each iteration checks out a row no other user holds
    // (every part owns its slice: no two engines share a row), and gives it
    // back when it ends; none free: next() is false and busy() true.
    Checkout
};

ParameterSourcePtr makeCsvSource(std::shared_ptr<const CsvTable> table, CsvMode mode);
// Values min, min+step, ... up to max inclusive; step > 0. Wraps to its first value.
ParameterSourcePtr makeIncrementSource(std::int64_t min, std::int64_t max, std::int64_t step);
ParameterSourcePtr makeRandomIntSource(std::int64_t min, std::int64_t max);
ParameterSourcePtr makeRandomStringSource(std::uint32_t length, std::string alphabet);
ParameterSourcePtr makeUuidSource();
ParameterSourcePtr makeConstantSource(std::string value);
// `bytes` random bytes as hex, never all zero, seeded from the system's entropy (trace and span ids).
ParameterSourcePtr makeTraceIdSource(std::size_t bytes);
// The wall clock's time as an iteration draws it: Unix seconds, or (iso) "2026-12-02T21:45:00.123Z".
ParameterSourcePtr makeTimestampSource(bool iso);
// Postman's dynamic variables a request may use without defining them:
// ${$guid} and ${$randomUUID} (a UUID), ${$randomInt} (0 to 1000),
// ${$timestamp} (Unix seconds), ${$isoTimestamp}; W3C trace context's
// ${$traceId} (32 hex digits) and ${$spanId} (16; "$spanId:N" names another,
// drawn apart), random per iteration and never all zero; null for any other name.
ParameterSourcePtr dynamicVariable(std::string_view name);
// A name a collection run's variable may have, as Postman's: any text up to 256 bytes without braces or line
// breaks, not starting with a template's sigil (#, /, ^, !, >, &) or $ (Postman's dynamic variables).
bool isPostmanName(std::string_view s);

// The contiguous slice [begin, end) of `count` items that part `part` of `parts` owns.
struct Slice
{
    std::uint64_t begin;
    std::uint64_t end;
};
Slice partitionSlice(std::uint64_t count, std::uint32_t part, std::uint32_t parts);

} // namespace stampede
