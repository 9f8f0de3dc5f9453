#pragma once
// The traffic recorder: a server for a gateway's mirror (nginx `mirror`,
// Envoy's request_mirror_policies, GoReplay's HTTP output) that answers 204
// at once and keeps every request it reads (HTTP/1.0 and 1.1 with keep-alive
// and chunked bodies; h2c with prior knowledge) as a TrafficRecord with its
// arrival time, for a writer that takes them every second. One thread, one
// epoll loop. What the filter refuses is counted, never kept; when the writer
// falls behind past the queue's bound, requests are dropped and counted: the
// gateway is never slowed by its recorder.
#include "check/checks.h"
#include "core/random.h"
#include "trafficcodec.h"
#include "trafficrecord.h"

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace stampede {

// What is kept of the requests received.
struct RecordFilter
{
    std::string host;           // only this Host (case-insensitive; without a port: any port); empty: every host
    RegexPtr include;           // only paths (the target before '?') this matches; null: every path
    RegexPtr exclude;           // no path this matches
    double samplePercent = 100; // of what passes the rules above, this share, drawn at random
    bool keeps(const TrafficRecord& r, FastRandom& rng) const;
};

class Recorder
{
public:
    struct Options
    {
        RecordFilter filter;
        std::size_t maxQueuedBytes = 64u << 20; // kept and not yet taken; past it requests are dropped
        std::uint64_t maxRequests = 0;          // keep at most this many (0: no bound); the rest are "over"
    };
    struct Counts
    {
        std::uint64_t received = 0; // complete requests read
        std::uint64_t kept = 0;
        std::uint64_t filtered = 0; // refused by the filter (host, path, sample)
        std::uint64_t dropped = 0;  // the queue was full
        std::uint64_t over = 0;     // past maxRequests
        std::uint64_t bad = 0;      // connections closed on a protocol error
        std::uint64_t connections = 0;
    };

    explicit Recorder(Options options);
    ~Recorder();
    Recorder(const Recorder&) = delete;
    Recorder& operator=(const Recorder&) = delete;

    // Binds `address` (see listenOn) and starts the loop's thread; false with `error`.
    bool start(const std::string& address, std::string& error);
    // Stops reading (open connections are closed); what was kept stays to take().
    void stop();
    std::uint16_t port() const { return m_port; }
    const std::string& host() const { return m_host; }
    // "127.0.0.1:9000", "[::1]:9000": where it listens.
    std::string address() const
    {
        return (m_host.find(':') != std::string::npos ? "[" + m_host + "]" : m_host) + ":" + std::to_string(m_port);
    }
    // Moves what was kept since the last call to the end of `out`, in arrival order.
    void take(std::vector<TrafficRecord>& out);
    Counts counts() const;

    class Loop;

private:
    Options m_options;
    int m_listenFd = -1;
    int m_wakeFd = -1;
    std::string m_host;
    std::uint16_t m_port = 0;
    std::thread m_thread;
    std::atomic<bool> m_stop{false};

    friend class Loop;
    // kept by the loop, taken by the writer
    mutable std::mutex m_mutex;
    std::vector<TrafficRecord> m_queue;
    std::size_t m_queuedBytes = 0;
    // counted by the loop
    std::atomic<std::uint64_t> m_received{0}, m_kept{0}, m_filtered{0}, m_dropped{0}, m_over{0}, m_bad{0},
        m_connections{0};
};

// What a traffic set being recorded says of itself (its item's payload, as
// an import's: source, format, records, first, last, masks, and the
// recorder's counts), rewritten with each second appended.
struct RecordingSummary
{
    std::string address; // where it listens, "127.0.0.1:9000"
    std::vector<std::string> masks;
    std::uint64_t records = 0;
    std::int64_t first = 0, last = 0; // arrival times, nanoseconds since the epoch
    Recorder::Counts counts;
    bool recording = true; // false once finished
    // Counts a chunk of what was taken (in arrival order) in.
    void add(const TrafficChunk& chunk);
    std::string payload() const;
};

} // namespace stampede
