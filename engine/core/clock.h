#pragma once
// The engine's notion of time: nanoseconds on a monotonic clock. Injectable so
// that timing logic can be tested against a fake clock without sleeping.
#include <atomic>
#include <cstdint>
#include <memory>
#include <time.h>

namespace stampede {

using Nanos = std::int64_t;
constexpr Nanos kNanosPerMicro = 1000;
constexpr Nanos kNanosPerMilli = 1000 * 1000;
constexpr Nanos kNanosPerSecond = 1000 * 1000 * 1000;

class Clock
{
public:
    virtual ~Clock() = default;
    // Monotonic time in nanoseconds; any origin. Thread-safe.
    virtual Nanos now() const = 0;
    // The calendar's time in whole seconds since 1970 (a cookie's Expires and Max-Age are judged by it).
    virtual std::int64_t unixSeconds() const { return std::int64_t(::time(nullptr)); }
    // Waits `d` of this clock's time (a retry's pause between lookups): the thread sleeps; a fake clock moves.
    virtual void sleepFor(Nanos d)
    {
        if (d <= 0)
            return;
        timespec ts{time_t(d / kNanosPerSecond), long(d % kNanosPerSecond)};
        while (::nanosleep(&ts, &ts) != 0) {
        }
    }
};
using ClockPtr = std::shared_ptr<Clock>;

class SteadyClock final : public Clock
{
public:
    Nanos now() const override { return monotonicNow(); }
    static Nanos monotonicNow()
    {
        timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return Nanos(ts.tv_sec) * kNanosPerSecond + ts.tv_nsec;
    }
};

// A clock that moves only when told to. For tests; thread-safe, so a test may
// move it while the code under test reads it on other threads.
class FakeClock final : public Clock
{
public:
    explicit FakeClock(Nanos start = 0) : m_now(start) {}
    Nanos now() const override { return m_now.load(); }
    // The calendar moves with now(): `epoch` at its origin (a fixed day in 2026 unless told).
    std::int64_t unixSeconds() const override { return m_epoch.load() + m_now.load() / kNanosPerSecond; }
    void advance(Nanos by) { m_now += by; }
    void sleepFor(Nanos d) override { advance(d > 0 ? d : 0); }
    void set(Nanos to) { m_now = to; }
    void setEpoch(std::int64_t unixSecondsAtZero) { m_epoch = unixSecondsAtZero; }

private:
    std::atomic<Nanos> m_now;
    std::atomic<std::int64_t> m_epoch{1780000000};
};

} // namespace stampede
