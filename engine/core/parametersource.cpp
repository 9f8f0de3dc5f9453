#include "parametersource.h"

#include "durationtext.h"
#include "tracecontext.h"

#include <charconv>
#include <random>

namespace stampede {

Slice partitionSlice(std::uint64_t count, std::uint32_t part, std::uint32_t parts)
{
    // Spread the remainder over the first parts so that sizes differ by at most one.
    const std::uint64_t base = count / parts;
    const std::uint64_t extra = count % parts;
    const std::uint64_t begin = part * base + std::min<std::uint64_t>(part, extra);
    return {begin, begin + base + (part < extra ? 1 : 0)};
}

namespace {

class CsvCursor final : public SourceCursor
{
public:
    CsvCursor(std::shared_ptr<const CsvTable> table, CsvMode mode, Slice slice)
        : m_table(std::move(table)), m_mode(mode), m_slice(slice), m_row(slice.begin)
    {
    }
    bool next(std::uint32_t user) override
    {
        const std::uint64_t size = m_slice.end - m_slice.begin;
        switch (m_mode) {
        case CsvMode::PerUser:
            m_current = m_slice.begin + user % size;
            return true;
        case CsvMode::Stop:
            if (m_row >= m_slice.end)
                return false;
            m_current = m_row++;
            return true;
        case CsvMode::Wrap:
            m_current = m_row++;
            if (m_row >= m_slice.end)
                m_row = m_slice.begin;
            return true;
        case CsvMode::Checkout:
            return checkOut(user, size);
        }
        return false;
    }
    bool busy() const override { return m_busy; }
    void release(std::uint32_t user) override
    {
        if (user < m_held.size() && m_held[user]) {
            m_holder[m_held[user] - 1 - m_slice.begin] = false;
            m_held[user] = 0;
        }
    }
    std::string_view value(int column) const override
    {
        return column < 0 ? std::string_view() : m_table->cell(m_current, std::size_t(column));
    }

private:
    // The next free row after the last one given (the rows taken in turn), held for `user`.
    bool checkOut(std::uint32_t user, std::uint64_t size)
    {
        if (m_holder.empty())
            m_holder.assign(size, false);
        if (user >= m_held.size())
            m_held.resize(std::size_t(user) + 1, 0);
        release(user); // an iteration that did not say it ended gives its row back first
        for (std::uint64_t k = 0; k < size; ++k) {
            const std::uint64_t row = m_row;
            m_row = m_row + 1 >= m_slice.end ? m_slice.begin : m_row + 1;
            if (!m_holder[row - m_slice.begin]) {
                m_holder[row - m_slice.begin] = true;
                m_held[user] = row + 1;
                m_current = row;
                m_busy = false;
                return true;
            }
        }
        m_busy = true;
        return false;
    }

    std::shared_ptr<const CsvTable> m_table;
    CsvMode m_mode;
    Slice m_slice;
    std::uint64_t m_row;
    std::uint64_t m_current = 0;
    bool m_busy = false;
    std::vector<bool> m_holder;        // checkout: by row of the slice, whether a user holds it
    std::vector<std::uint64_t> m_held; // checkout: by user, the row it holds + 1 (0: none)
};

class CsvSource final : public ParameterSource
{
public:
    CsvSource(std::shared_ptr<const CsvTable> table, CsvMode mode) : m_table(std::move(table)), m_mode(mode) {}
    SourceCursorPtr cursor(std::uint32_t part, std::uint32_t parts, std::uint64_t) const override
    {
        const Slice s = partitionSlice(m_table->rowCount(), part, parts);
        if (s.begin == s.end)
            throw PartitionError("the CSV has " + std::to_string(m_table->rowCount()) + " rows, fewer than the " +
                                 std::to_string(parts) + " workers that share it");
        return std::make_unique<CsvCursor>(m_table, m_mode, s);
    }
    int columnIndex(std::string_view name) const override { return m_table->columnIndex(name); }
    bool checksOut() const override { return m_mode == CsvMode::Checkout; }
    bool hasColumns() const override { return true; }
    std::vector<std::string> columnNames() const override { return m_table->columns(); }

private:
    std::shared_ptr<const CsvTable> m_table;
    CsvMode m_mode;
};

// Formats integers into a small inline buffer: no allocation per draw.
class NumberCursor : public SourceCursor
{
public:
    std::string_view value(int) const override { return {m_buf, m_len}; }

protected:
    void set(std::int64_t v)
    {
        const auto r = std::to_chars(m_buf, m_buf + sizeof m_buf, v);
        m_len = std::size_t(r.ptr - m_buf);
    }

private:
    char m_buf[24];
    std::size_t m_len = 0;
};

class IncrementCursor final : public NumberCursor
{
public:
    IncrementCursor(std::int64_t first, std::int64_t stride, std::uint64_t count)
        : m_first(first), m_stride(stride), m_count(count)
    {
    }
    bool next(std::uint32_t) override
    {
        set(m_first + std::int64_t(m_index) * m_stride);
        if (++m_index >= m_count)
            m_index = 0;
        return true;
    }

private:
    std::int64_t m_first;
    std::int64_t m_stride;
    std::uint64_t m_count;
    std::uint64_t m_index = 0;
};

class IncrementSource final : public ParameterSource
{
public:
    IncrementSource(std::int64_t min, std::int64_t max, std::int64_t step) : m_min(min), m_step(step)
    {
        m_count = std::uint64_t((max - min) / step) + 1;
    }
    // Part i of n takes values i, i+n, i+2n, ... (by index): disjoint strides.
    SourceCursorPtr cursor(std::uint32_t part, std::uint32_t parts, std::uint64_t) const override
    {
        if (part >= m_count)
            throw PartitionError("the increment has " + std::to_string(m_count) + " values, fewer than the " +
                                 std::to_string(parts) + " workers that share it");
        const std::uint64_t count = (m_count - part + parts - 1) / parts;
        return std::make_unique<IncrementCursor>(m_min + std::int64_t(part) * m_step, m_step * std::int64_t(parts),
                                                 count);
    }

private:
    std::int64_t m_min;
    std::int64_t m_step;
    std::uint64_t m_count;
};

class RandomIntCursor final : public NumberCursor
{
public:
    RandomIntCursor(std::int64_t min, std::int64_t max, std::uint64_t seed) : m_min(min), m_max(max), m_rng(seed) {}
    bool next(std::uint32_t) override
    {
        const std::uint64_t span = std::uint64_t(m_max) - std::uint64_t(m_min) + 1; // 0 when the full range
        set(std::int64_t(std::uint64_t(m_min) + (span ? m_rng.below(span) : m_rng.next())));
        return true;
    }

private:
    std::int64_t m_min, m_max;
    FastRandom m_rng;
};

class RandomIntSource final : public ParameterSource
{
public:
    RandomIntSource(std::int64_t min, std::int64_t max) : m_min(min), m_max(max) {}
    SourceCursorPtr cursor(std::uint32_t part, std::uint32_t, std::uint64_t seed) const override
    {
        return std::make_unique<RandomIntCursor>(m_min, m_max, seed ^ (0x51ED2701ull * (part + 1)));
    }

private:
    std::int64_t m_min, m_max;
};

class RandomStringCursor final : public SourceCursor
{
public:
    RandomStringCursor(const std::string& alphabet, std::uint32_t length, std::uint64_t seed)
        : m_alphabet(alphabet), m_buf(length, ' '), m_rng(seed)
    {
    }
    bool next(std::uint32_t) override
    {
        for (char& c : m_buf)
            c = m_alphabet[m_rng.below(m_alphabet.size())];
        return true;
    }
    std::string_view value(int) const override { return m_buf; }

private:
    const std::string m_alphabet; // a copy: a cursor may outlive its source
    std::string m_buf;
    FastRandom m_rng;
};

class RandomStringSource final : public ParameterSource
{
public:
    RandomStringSource(std::uint32_t length, std::string alphabet) : m_length(length), m_alphabet(std::move(alphabet))
    {
        if (m_alphabet.empty())
            m_alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    }
    SourceCursorPtr cursor(std::uint32_t part, std::uint32_t, std::uint64_t seed) const override
    {
        return std::make_unique<RandomStringCursor>(m_alphabet, m_length, seed ^ (0xA5A5ull * (part + 7)));
    }

private:
    std::uint32_t m_length;
    std::string m_alphabet;
};

class UuidCursor final : public SourceCursor
{
public:
    explicit UuidCursor(std::uint64_t seed) : m_rng(seed) {}
    bool next(std::uint32_t) override
    {
        static const char hex[] = "0123456789abcdef";
        std::uint64_t hi = m_rng.next();
        std::uint64_t lo = m_rng.next();
        hi = (hi & ~0xF000ull) | 0x4000ull;                        // version 4
        lo = (lo & 0x3FFFFFFFFFFFFFFFull) | 0x8000000000000000ull; // variant 10
        int pos = 0;
        for (int i = 0; i < 32; ++i) {
            if (i == 8 || i == 12 || i == 16 || i == 20)
                m_buf[pos++] = '-';
            const std::uint64_t word = i < 16 ? hi : lo;
            const int shift = 60 - 4 * (i % 16);
            m_buf[pos++] = hex[(word >> shift) & 0xF];
        }
        return true;
    }
    std::string_view value(int) const override { return {m_buf, 36}; }

private:
    FastRandom m_rng;
    char m_buf[36];
};

class UuidSource final : public ParameterSource
{
public:
    SourceCursorPtr cursor(std::uint32_t part, std::uint32_t, std::uint64_t seed) const override
    {
        return std::make_unique<UuidCursor>(seed ^ (0xC0FFEEull * (part + 3)));
    }
};

class ConstantCursor final : public SourceCursor
{
public:
    explicit ConstantCursor(const std::string& v) : m_value(v) {}
    bool next(std::uint32_t) override { return true; }
    std::string_view value(int) const override { return m_value; }

private:
    const std::string m_value;
};

class ConstantSource final : public ParameterSource
{
public:
    explicit ConstantSource(std::string v) : m_value(std::move(v)) {}
    SourceCursorPtr cursor(std::uint32_t, std::uint32_t, std::uint64_t) const override
    {
        return std::make_unique<ConstantCursor>(m_value);
    }
    const std::string* constantValue() const override { return &m_value; }

private:
    std::string m_value;
};

} // namespace

ParameterSourcePtr makeCsvSource(std::shared_ptr<const CsvTable> table, CsvMode mode)
{
    return std::make_shared<CsvSource>(std::move(table), mode);
}
ParameterSourcePtr makeIncrementSource(std::int64_t min, std::int64_t max, std::int64_t step)
{
    return std::make_shared<IncrementSource>(min, max, step);
}
ParameterSourcePtr makeRandomIntSource(std::int64_t min, std::int64_t max)
{
    return std::make_shared<RandomIntSource>(min, max);
}
ParameterSourcePtr makeRandomStringSource(std::uint32_t length, std::string alphabet)
{
    return std::make_shared<RandomStringSource>(length, std::move(alphabet));
}

namespace {

// The wall clock's time when an iteration draws it: Unix seconds, or ISO 8601 UTC with milliseconds.
class TimestampCursor final : public SourceCursor
{
public:
    explicit TimestampCursor(bool iso) : m_iso(iso) {}
    bool next(std::uint32_t) override
    {
        const std::int64_t ms = wallMillis();
        m_value = m_iso ? isoMillis(ms) : std::to_string(ms / 1000);
        return true;
    }
    std::string_view value(int) const override { return m_value; }

private:
    bool m_iso;
    std::string m_value;
};

class TimestampSource final : public ParameterSource
{
public:
    explicit TimestampSource(bool iso) : m_iso(iso) {}
    SourceCursorPtr cursor(std::uint32_t, std::uint32_t, std::uint64_t) const override
    {
        return std::make_unique<TimestampCursor>(m_iso);
    }

private:
    bool m_iso;
};

} // namespace

ParameterSourcePtr makeTimestampSource(bool iso)
{
    return std::make_shared<TimestampSource>(iso);
}

namespace {

// W3C trace context ids: `bytes` random bytes as lower-case hex, never all
// zero; seeded from the system's entropy, so that two runs (or engines) never
// share one.
class TraceIdCursor final : public SourceCursor
{
public:
    TraceIdCursor(std::size_t bytes, std::uint64_t seed) : m_digits(bytes * 2), m_rng(seed) {}
    bool next(std::uint32_t) override
    {
        m_buf.clear();
        appendTraceHex(m_buf, m_rng, m_digits);
        return true;
    }
    std::string_view value(int) const override { return m_buf; }

private:
    std::size_t m_digits;
    std::string m_buf;
    FastRandom m_rng;
};

class TraceIdSource final : public ParameterSource
{
public:
    explicit TraceIdSource(std::size_t bytes) : m_bytes(bytes) {}
    SourceCursorPtr cursor(std::uint32_t part, std::uint32_t, std::uint64_t seed) const override
    {
        std::random_device entropy;
        const std::uint64_t own = (std::uint64_t(entropy()) << 32) ^ entropy();
        return std::make_unique<TraceIdCursor>(m_bytes, seed ^ own ^ (0x9E3779B97F4A7C15ull * (part + 1)));
    }

private:
    std::size_t m_bytes;
};

} // namespace

ParameterSourcePtr makeTraceIdSource(std::size_t bytes)
{
    return std::make_shared<TraceIdSource>(bytes);
}

bool isPostmanName(std::string_view s)
{
    return !s.empty() && s.size() <= 256 && s.find_first_of("{}\r\n") == std::string_view::npos &&
           std::string_view("#/^!>&$").find(s[0]) == std::string_view::npos;
}

ParameterSourcePtr dynamicVariable(std::string_view name)
{
    if (name == "$traceId")
        return makeTraceIdSource(16);
    if (name.rfind("$spanId", 0) == 0)
        return makeTraceIdSource(8); // "$spanId:N": a step's own, drawn per iteration
    if (name == "$guid" || name == "$randomUUID")
        return makeUuidSource();
    if (name == "$randomInt")
        return makeRandomIntSource(0, 1000); // Postman's: 0 to 1000
    if (name == "$timestamp" || name == "$isoTimestamp")
        return makeTimestampSource(name == "$isoTimestamp");
    return nullptr;
}

ParameterSourcePtr makeUuidSource()
{
    return std::make_shared<UuidSource>();
}
ParameterSourcePtr makeConstantSource(std::string value)
{
    return std::make_shared<ConstantSource>(std::move(value));
}

} // namespace stampede
