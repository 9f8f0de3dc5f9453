#include "latencyhistogram.h"

#include <cstdlib>
#include <new>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <utility>

namespace stampede {

void LatencyHistogram::Free::operator()(std::uint64_t* p) const
{
    std::free(p);
}

void LatencyHistogram::cover(std::size_t from, std::size_t to)
{
    std::size_t lo = from / kSubBucketHalf * kSubBucketHalf, hi = (to / kSubBucketHalf + 1) * kSubBucketHalf;
    if (m_size) {
        lo = std::min(lo, m_base);
        hi = std::max(hi, m_base + m_size);
    }
    hi = std::min(hi, kCountsLength);
    if (m_size && lo == m_base && hi == m_base + m_size)
        return;
    auto* p = static_cast<std::uint64_t*>(std::calloc(hi - lo, sizeof(std::uint64_t))); // zeroed
    if (!p)
        throw std::bad_alloc();
    if (m_size)
        std::memcpy(p + (m_base - lo), m_counts.get(), m_size * sizeof(std::uint64_t));
    m_counts.reset(p);
    m_base = lo;
    m_size = hi - lo;
}

LatencyHistogram& LatencyHistogram::operator=(const LatencyHistogram& o)
{
    if (this == &o)
        return *this;
    m_counts.reset();
    m_base = m_size = 0;
    if (o.m_size) {
        cover(o.m_base, o.m_base + o.m_size - 1);
        std::memcpy(m_counts.get(), o.m_counts.get(), m_size * sizeof(std::uint64_t));
    }
    m_total = o.m_total;
    m_sum = o.m_sum;
    m_min = o.m_min;
    m_max = o.m_max;
    return *this;
}

LatencyHistogram& LatencyHistogram::operator=(LatencyHistogram&& o) noexcept
{
    if (this == &o)
        return *this;
    m_counts = std::move(o.m_counts);
    m_base = std::exchange(o.m_base, 0);
    m_size = std::exchange(o.m_size, 0);
    m_total = std::exchange(o.m_total, 0);
    m_sum = std::exchange(o.m_sum, 0);
    m_min = std::exchange(o.m_min, UINT64_MAX);
    m_max = std::exchange(o.m_max, 0);
    return *this;
}

void LatencyHistogram::clear()
{
    if (const std::size_t from = first(), to = last(); from <= to) // kept: a histogram cleared each second fills again
        std::memset(m_counts.get() + (from - m_base), 0, (to - from + 1) * sizeof(std::uint64_t));
    m_total = 0;
    m_sum = 0;
    m_min = UINT64_MAX;
    m_max = 0;
}

void LatencyHistogram::merge(const LatencyHistogram& other)
{
    if (!other.m_total || !other.m_size)
        return;
    const std::size_t from = other.first(), to = other.last();
    cover(from, to);
    std::uint64_t* mine = m_counts.get() + (from - m_base);
    const std::uint64_t* theirs = other.m_counts.get() + (from - other.m_base);
    for (std::size_t k = 0; k <= to - from; ++k)
        mine[k] += theirs[k];
    m_total += other.m_total;
    m_sum += other.m_sum;
    m_min = std::min(m_min, other.m_min);
    m_max = std::max(m_max, other.m_max);
}

std::uint64_t LatencyHistogram::lowestAt(std::size_t index, std::uint64_t* width)
{
    int bucket = int(index >> kSubBucketHalfMagnitude) - 1;
    std::uint64_t sub = (index & (kSubBucketHalf - 1)) + kSubBucketHalf;
    if (bucket < 0) {
        bucket = 0;
        sub = index;
    }
    if (width)
        *width = 1ull << bucket;
    return sub << bucket;
}

double LatencyHistogram::percentile(double p) const
{
    if (!m_total || !m_size)
        return 0;
    if (p >= 100)
        return double(m_max);
    const double exactRank = std::ceil(std::max(p, 0.0) / 100.0 * double(m_total));
    const std::uint64_t rank = std::max<std::uint64_t>(1, std::uint64_t(exactRank));
    std::uint64_t seen = 0;
    for (std::size_t i = first(), to = last(); i <= to; ++i) {
        seen += at(i);
        if (seen >= rank) {
            std::uint64_t width = 0;
            const std::uint64_t low = lowestAt(i, &width);
            const double mid = double(low) + double(width - 1) / 2.0;
            return std::clamp(mid, double(min()), double(m_max));
        }
    }
    return double(m_max);
}

void LatencyHistogram::countsAtOrBelow(const std::vector<std::uint64_t>& bounds, std::vector<std::uint64_t>& out) const
{
    out.assign(bounds.size(), 0);
    std::uint64_t seen = 0;
    std::size_t i = first();
    const std::size_t to = last();
    for (std::size_t b = 0; b < bounds.size(); ++b) {
        const std::size_t upTo = indexOf(std::min(bounds[b], kMaxMicros));
        for (; i <= to && i <= upTo; ++i)
            seen += at(i);
        out[b] = seen;
    }
}

bool LatencyHistogram::operator==(const LatencyHistogram& o) const
{
    if (m_total != o.m_total || m_sum != o.m_sum || min() != o.min() || m_max != o.m_max)
        return false;
    for (std::size_t i = std::min(first(), o.first()), to = std::max(last(), o.last()); i <= to; ++i)
        if (at(i) != o.at(i))
            return false;
    return true;
}

namespace {
void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out.push_back(char(v | 0x80));
        v >>= 7;
    }
    out.push_back(char(v));
}
bool getVarint(const std::string& in, std::size_t& pos, std::uint64_t& v)
{
    v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        if (pos >= in.size())
            return false;
        const auto byte = std::uint8_t(in[pos++]);
        v |= std::uint64_t(byte & 0x7F) << shift;
        if (!(byte & 0x80))
            return true;
    }
    return false;
}
} // namespace

// A peer's bytes: the header, then counters each within the header's min and
// max and adding up to its total; nothing is merged unless all of it holds.
bool LatencyHistogram::mergeSerialized(const std::string& data)
{
    std::size_t start = 0;
    std::uint64_t total, sum, mn, mx;
    if (!getVarint(data, start, total) || !getVarint(data, start, sum) || !getVarint(data, start, mn) ||
        !getVarint(data, start, mx))
        return false;
    if (total && (mn > mx || mx > kMaxMicros))
        return false;
    const std::size_t from = total ? indexOf(mn) : 1, to = total ? indexOf(mx) : 0;
    std::uint64_t counted = 0;
    for (int pass = 0; pass < 2; ++pass) {
        std::size_t pos = start, index = 0;
        while (pos < data.size()) {
            std::uint64_t delta, c;
            if (!getVarint(data, pos, delta) || !getVarint(data, pos, c))
                return false;
            if (delta >= kCountsLength || (index += delta) < from || index > to)
                return false;
            if (pass == 0) {
                if (c > total - counted)
                    return false;
                counted += c;
                continue;
            }
            cover(from, to);
            m_counts[index - m_base] += c;
        }
        if (pass == 0 && counted != total)
            return false;
    }
    if (total) {
        m_total += total;
        m_sum += sum;
        m_min = std::min(m_min, mn);
        m_max = std::max(m_max, mx);
    }
    return true;
}

std::string LatencyHistogram::serialize() const
{
    std::string out;
    putVarint(out, m_total);
    putVarint(out, m_sum);
    putVarint(out, min());
    putVarint(out, m_max);
    std::size_t previous = 0;
    for (std::size_t i = first(), to = last(); i <= to; ++i) {
        if (const std::uint64_t c = at(i)) {
            putVarint(out, i - previous);
            putVarint(out, c);
            previous = i;
        }
    }
    return out;
}

bool LatencyHistogram::deserialize(const std::string& data)
{
    clear();
    if (!mergeSerialized(data)) {
        clear();
        return false;
    }
    return true; // its counters added up to the total the header announced
}

} // namespace stampede
