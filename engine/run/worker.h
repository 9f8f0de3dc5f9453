#pragma once
// One worker thread of an engine: it owns an event loop, its connections, its
// parameter cursors and its metrics, and shares nothing with other workers on
// the hot path. Once a second it hands the finished second's metrics to the
// sink; that is its only synchronisation.
#include "core/clock.h"
#include "core/parametersource.h"
#include "load/arrivalschedule.h"
#include "metrics/runmetrics.h"
#include "net/eventloop.h"
#include "net/http1session.h"
#include "net/http2session.h"

#include "scenarioplan.h"
#include <google/protobuf/message.h>
#include <nghttp2/nghttp2.h>

#include <atomic>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

namespace stampede {

class SecondSink
{
public:
    virtual ~SecondSink() = default;
    // Called by worker `worker` with its metrics of one second, in order of
    // seconds; `last` marks the worker's final (possibly partial) second.
    virtual void deliver(std::uint32_t worker, IntervalMetricsPtr second, bool last) = 0;
};

struct WorkerSetup
{
    const ScenarioPlan* plan = nullptr;
    std::uint32_t index = 0; // this worker within the engine
    std::uint32_t part = 0;  // this worker within the whole run (engine i of n x thread j of T)
    std::uint32_t parts = 1;
    std::uint32_t slots = 1; // connections (open model) or virtual users (closed model)
    Nanos start = 0;         // the run's start on `clock`
    std::uint64_t seed = 1;
    const Clock* clock = nullptr;
    SecondSink* sink = nullptr;
    const std::atomic<bool>* stop = nullptr;
    const std::atomic<double>* levelFactor = nullptr; // scales the planned level while running
};

class Worker final : public SessionListener, private ValueLookup
{
public:
    // Creates the cursors; throws PartitionError when this part has no values.
    explicit Worker(const WorkerSetup& setup);
    ~Worker() override;
    void run();

private:
    // A request's HTTP/2 form, rendered: header values and body, and the
    // header list nghttp2 reads (pointing into them).
    struct H2Request
    {
        std::vector<std::string> values;
        std::string body;
        std::vector<nghttp2_nv> nv;
        std::size_t bytes = 0; // header and body bytes, for bytes out
        std::string failure;   // gRPC: why the JSON did not become the message
        void point(const PlannedStep& step);
    };
    struct Slot
    {
        std::unique_ptr<Http1Session> session; // HTTP/1.1
        std::uint32_t connection = 0;          // HTTP/2: the session in m_h2 carrying it
        std::vector<H2Request> h2;             // HTTP/2, per step, when not fixed
        std::uint32_t user = 0;                // local user (closed) or connection index (open)
        int step = -1;                         // the step in flight, -1 when idle
        Nanos intended = 0;                    // when this step was meant to start
        Nanos sent = 0;                        // when it was handed to the connection
        bool active = false;                   // closed model: this user is part of the current level
        bool waiting = false;                  // closed model: thinking, or waiting to be activated
        std::vector<std::string> bytes;        // per step, when not fixed
    };

    void onResponse(std::uint32_t tag, int status, std::uint64_t bytesIn, const std::string& errorSample,
                    Nanos now) override;
    void onGrpcResponse(std::uint32_t tag, int status, int grpcStatus, const std::string& grpcMessage,
                        std::uint64_t bytesIn, const std::string& errorSample, Nanos now) override;
    void onFailure(std::uint32_t tag, ErrorClass error, const std::string& why, Nanos now) override;
    void onConnected(std::uint32_t tag, Nanos connect, Nanos handshake, bool tls, bool resumed) override;
    std::string_view value(VarRef ref) const override;

    bool startIteration(Slot& slot, Nanos intended, Nanos now);
    // A gRPC step's rendered JSON to its framed message, cached per distinct text.
    void toGrpcMessage(std::size_t step, H2Request& r);
    void sendStep(Slot& slot, int step, Nanos intended, Nanos now);
    void finishIteration(Slot& slot, Nanos now, bool failed = false);
    void stepDone(Slot& slot, Nanos now);
    void dispatchArrivals(Nanos now);
    void adjustUsers(Nanos now);
    void wakeThinkers(Nanos now);
    void checkDeadlines(Nanos now);
    void handleEvents(int n);
    void flushHeld();
    void beginStop();
    void applyLevelFactor(double factor, Nanos now);
    StepMetrics& metricsAt(std::size_t step, Nanos now)
    {
        if (now >= m_secondEnd)
            rollSeconds(now);
        return m_current->steps[step];
    }
    void rollSeconds(Nanos now);
    void setGauges();
    void keepSample(const Slot& slot, ErrorClass c, int status, const std::string& raw, const std::string& why);
    IntervalMetricsPtr freshSecond(std::uint32_t second) const;

    WorkerSetup m_setup;
    const ScenarioPlan& m_plan;
    const Clock& m_clock;
    EventLoop m_loop;
    bool m_http2 = false;
    std::vector<std::unique_ptr<Http2Session>> m_h2; // HTTP/2 connections
    std::uint32_t m_h2PerServer = 0;                 // sessions per server: m_h2[server * this + connection]
    std::vector<Http2Session*> m_h2Flush;            // connections with requests to write after this batch
    std::vector<H2Request> m_h2Fixed;                // per step, for fixed steps
    std::uint64_t m_goawaysSeen = 0;
    // per templated gRPC step: a message to parse into, and rendered JSON -> framed message
    std::vector<std::unique_ptr<google::protobuf::Message>> m_grpcScratch;
    std::vector<std::unordered_map<std::string, std::string>> m_grpcCache;
    static constexpr std::size_t kGrpcCacheSize = 10000;
    std::vector<char> m_readBuffer;
    std::vector<Slot> m_slots;
    std::vector<SourceCursorPtr> m_cursors; // by variable index; null for unused variables
    std::vector<std::uint16_t> m_usedVariables;

    // open model
    std::unique_ptr<ArrivalSchedule> m_schedule;
    std::optional<Nanos> m_nextArrival; // relative to start
    std::vector<std::uint32_t> m_idle;  // idle slot indices
    std::vector<Nanos> m_backlog;       // ring of intended times (absolute)
    std::size_t m_backlogHead = 0;
    std::size_t m_backlogSize = 0;

    // closed model
    using Wake = std::pair<Nanos, std::uint32_t>;
    std::priority_queue<Wake, std::vector<Wake>, std::greater<Wake>> m_thinkers;
    std::uint32_t m_activeUsers = 0;

    double m_factor = 1;
    std::uint32_t m_inFlight = 0;
    bool m_stopping = false;
    Nanos m_nextTick = 0;
    IntervalMetricsPtr m_current;
    Nanos m_secondEnd = 0;
};

} // namespace stampede
