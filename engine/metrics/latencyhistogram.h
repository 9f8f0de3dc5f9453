#pragma once
// A log-linear latency histogram in the manner of HdrHistogram, written for
// Stampede: values in microseconds from 1 us to 1 hour, three significant
// digits (every bucket is at most 1/1024 of its value wide), bounded memory
// (of its 23,552 counters, 184 KiB, only the blocks of 1,024 its values
// reached, taken as they come: a second's latencies need a few, an empty
// histogram, as most per-second ones of a many-step scenario are, none),
// and exactly mergeable: merging two histograms gives the same counts as
// recording the union of their values.
//
// Layout: bucket 0 holds 0..2047 one microsecond apart; bucket b >= 1 holds
// 1024..2047 sub-buckets of width 2^b, i.e. the values [1024 << b, 2048 << b).
// A percentile is answered with the midpoint of the bucket that holds the
// ranked value, so its error is at most half a bucket: 0.05 %.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stampede {

class LatencyHistogram
{
public:
    static constexpr std::uint64_t kMaxMicros = 3600ull * 1000 * 1000; // one hour
    static constexpr int kSubBucketHalfMagnitude = 10;
    static constexpr std::uint64_t kSubBucketHalf = 1u << kSubBucketHalfMagnitude; // 1024
    static constexpr std::uint64_t kSubBucketMask = 2 * kSubBucketHalf - 1;        // 2047
    static constexpr int kBucketCount = 22;                                        // enough for kMaxMicros < 2^32
    static constexpr std::size_t kCountsLength = (kBucketCount + 1) * kSubBucketHalf;

    LatencyHistogram() = default;
    LatencyHistogram(const LatencyHistogram& o) { *this = o; }
    LatencyHistogram& operator=(const LatencyHistogram& o);
    LatencyHistogram(LatencyHistogram&& o) noexcept { *this = std::move(o); }
    LatencyHistogram& operator=(LatencyHistogram&& o) noexcept;

    // Records one value; values above one hour are clamped to one hour.
    void record(std::uint64_t micros) { recordCount(micros, 1); }
    void recordCount(std::uint64_t micros, std::uint64_t count)
    {
        if (micros > kMaxMicros)
            micros = kMaxMicros;
        const std::size_t index = indexOf(micros);
        if (index - m_base >= m_size) [[unlikely]] // outside the window (none yet: m_size 0)
            cover(index, index);
        m_counts[index - m_base] += count;
        m_total += count;
        m_sum += micros * count;
        if (micros < m_min)
            m_min = micros;
        if (micros > m_max)
            m_max = micros;
    }
    void merge(const LatencyHistogram& other);
    void clear();

    std::uint64_t count() const { return m_total; }
    std::uint64_t min() const { return m_total ? m_min : 0; }
    std::uint64_t max() const { return m_max; }
    double mean() const { return m_total ? double(m_sum) / double(m_total) : 0.0; }
    std::uint64_t sum() const { return m_sum; } // of the values recorded, in microseconds
    // For each of `bounds` (microseconds, ascending): how many values are at or below it, to the histogram's
    // resolution (a value in the bucket that holds the bound counts: at most 1/1024 of the bound above it).
    void countsAtOrBelow(const std::vector<std::uint64_t>& bounds, std::vector<std::uint64_t>& out) const;
    // The value at percentile `p` (0 < p <= 100), in microseconds; 0 when empty.
    double percentile(double p) const;

    bool operator==(const LatencyHistogram& o) const;

    // Compact form for crossing threads and processes: only non-zero counters.
    // Layout: total, sum, min, max, then (index delta, count) pairs as varints.
    std::string serialize() const;
    bool deserialize(const std::string& data);
    // Adds a serialized histogram's counts without building it first: cheap
    // for the sparse per-second histograms of a saved run.
    bool mergeSerialized(const std::string& data);

    static std::size_t indexOf(std::uint64_t v)
    {
        const int pow2ceiling = 64 - __builtin_clzll(v | kSubBucketMask);
        const int bucket = pow2ceiling - (kSubBucketHalfMagnitude + 1);
        return (std::size_t(bucket) << kSubBucketHalfMagnitude) + (v >> bucket);
    }
    // The lowest value that lands at `index`, and the width of its bucket.
    static std::uint64_t lowestAt(std::size_t index, std::uint64_t* width = nullptr);

private:
    // Makes counters `from`..`to` part of the window (which only grows, by
    // whole blocks of kSubBucketHalf counters, 8 KiB).
    void cover(std::size_t from, std::size_t to);
    // The counter at `index` (0 outside the window).
    std::uint64_t at(std::size_t index) const { return index - m_base < m_size ? m_counts[index - m_base] : 0; }
    // The counters that may be non-zero: those from min's to max's (values
    // map to counters in order), so that merging, clearing, serializing and
    // ranking touch the range a second used. Empty: first > last.
    std::size_t first() const { return m_size && m_min <= m_max ? indexOf(m_min) : 1; }
    std::size_t last() const { return m_size && m_min <= m_max ? indexOf(m_max) : 0; }
    struct Free
    {
        void operator()(std::uint64_t* p) const;
    };
    // A window of the kCountsLength counters, from m_base, m_size of them:
    // those the values so far needed (a second's latencies span a few
    // blocks: kilobytes, not the 184 KiB of every counter). None before a value.
    std::unique_ptr<std::uint64_t[], Free> m_counts;
    std::size_t m_base = 0, m_size = 0;
    std::uint64_t m_total = 0;
    std::uint64_t m_sum = 0;
    std::uint64_t m_min = UINT64_MAX;
    std::uint64_t m_max = 0;
};

} // namespace stampede
