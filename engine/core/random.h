#pragma once
// Small, fast, per-thread pseudo random numbers (xoshiro256**, seeded by
// splitmix64). Not for secrets: for parameter values and mock delays.
#include <cstdint>

namespace stampede {

class FastRandom
{
public:
    explicit FastRandom(std::uint64_t seed = 0x9E3779B97F4A7C15ull)
    {
        for (auto& s : m_s)
            s = splitmix(seed);
    }
    std::uint64_t next()
    {
        const std::uint64_t result = rotl(m_s[1] * 5, 7) * 9;
        const std::uint64_t t = m_s[1] << 17;
        m_s[2] ^= m_s[0];
        m_s[3] ^= m_s[1];
        m_s[1] ^= m_s[2];
        m_s[0] ^= m_s[3];
        m_s[2] ^= t;
        m_s[3] = rotl(m_s[3], 45);
        return result;
    }
    // Uniform in [0, bound) without modulo bias worth caring about (bound << 2^64).
    std::uint64_t below(std::uint64_t bound) { return bound ? next() % bound : 0; }
    // Uniform in [0, 1).
    double unit() { return double(next() >> 11) * 0x1.0p-53; }

    static std::uint64_t splitmix(std::uint64_t& x)
    {
        std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }

private:
    static std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
    std::uint64_t m_s[4];
};

} // namespace stampede
