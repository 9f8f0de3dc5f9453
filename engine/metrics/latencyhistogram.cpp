#include "latencyhistogram.h"

#include <cstdlib>
#include <new>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace stampede {

void LatencyHistogram::Free::operator()(std::uint64_t* p) const
{
    std::free(p);
}

void LatencyHistogram::allocate()
{
    auto* p = static_cast<std::uint64_t*>(std::calloc(kCountsLength, sizeof(std::uint64_t))); // zeroed
    if (!p)
        throw std::bad_alloc();
    m_counts.reset(p);
}

LatencyHistogram& LatencyHistogram::operator=(const LatencyHistogram& o)
{
    if (this == &o)
        return *this;
    if (!o.m_counts)
        m_counts.reset();
    else {
        if (!m_counts)
            allocate();
        std::memcpy(m_counts.get(), o.m_counts.get(), kCountsLength * sizeof(std::uint64_t));
    }
    m_total = o.m_total;
    m_sum = o.m_sum;
    m_min = o.m_min;
    m_max = o.m_max;
    return *this;
}

void LatencyHistogram::clear()
{
    if (const std::size_t from = first(), to = last(); from <= to) // kept: a histogram cleared each second fills again
        std::memset(m_counts.get() + from, 0, (to - from + 1) * sizeof(std::uint64_t));
    m_total = 0;
    m_sum = 0;
    m_min = UINT64_MAX;
    m_max = 0;
}

void LatencyHistogram::merge(const LatencyHistogram& other)
{
    if (!other.m_total || !other.m_counts)
        return;
    if (!m_counts)
        allocate();
    for (std::size_t i = other.first(), to = other.last(); i <= to; ++i)
        m_counts[i] += other.m_counts[i];
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
    if (!m_total || !m_counts)
        return 0;
    if (p >= 100)
        return double(m_max);
    const double exactRank = std::ceil(std::max(p, 0.0) / 100.0 * double(m_total));
    const std::uint64_t rank = std::max<std::uint64_t>(1, std::uint64_t(exactRank));
    std::uint64_t seen = 0;
    for (std::size_t i = first(), to = last(); i <= to; ++i) {
        seen += m_counts[i];
        if (seen >= rank) {
            std::uint64_t width = 0;
            const std::uint64_t low = lowestAt(i, &width);
            const double mid = double(low) + double(width - 1) / 2.0;
            return std::clamp(mid, double(min()), double(m_max));
        }
    }
    return double(m_max);
}

bool LatencyHistogram::operator==(const LatencyHistogram& o) const
{
    if (m_total != o.m_total || m_sum != o.m_sum || min() != o.min() || m_max != o.m_max)
        return false;
    for (std::size_t i = 0; i < kCountsLength; ++i)
        if ((m_counts ? m_counts[i] : 0) != (o.m_counts ? o.m_counts[i] : 0))
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
            if (!m_counts)
                allocate();
            m_counts[index] += c;
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
    std::size_t at = 0;
    for (std::size_t i = first(), to = last(); i <= to; ++i) {
        if (m_counts[i]) {
            putVarint(out, i - at);
            putVarint(out, m_counts[i]);
            at = i;
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
