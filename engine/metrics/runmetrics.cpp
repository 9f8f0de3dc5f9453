#include "runmetrics.h"

#include <algorithm>

namespace stampede {

std::string_view errorClassName(ErrorClass c)
{
    switch (c) {
    case ErrorClass::Connect:
        return "connect";
    case ErrorClass::Reset:
        return "reset";
    case ErrorClass::Timeout:
        return "timeout";
    case ErrorClass::Http4xx:
        return "http_4xx";
    case ErrorClass::Http5xx:
        return "http_5xx";
    case ErrorClass::Protocol:
        return "protocol";
    case ErrorClass::Tls:
        return "tls";
    case ErrorClass::Grpc:
        return "grpc";
    case ErrorClass::Check:
        return "check";
    case ErrorClass::Extract:
        return "extract";
    case ErrorClass::Render:
        return "render";
    case ErrorClass::Script:
        return "script";
    case ErrorClass::Count:
        break;
    }
    return "unknown";
}

void StepCounters::merge(const StepCounters& o)
{
    for (const CounterField& f : kCounterFields)
        this->*f.field = f.peak ? std::max(this->*f.field, o.*f.field) : this->*f.field + o.*f.field;
    for (std::size_t i = 0; i < kErrorClassCount; ++i)
        errorsByClass[i] += o.errorsByClass[i];
    for (std::size_t i = 0; i < kGrpcCodeCount; ++i)
        grpcCodes[i] += o.grpcCodes[i];
}

void StepMetrics::addConnection(std::int64_t connectNanos, std::int64_t handshakeNanos, bool tls, bool resumed)
{
    constexpr std::int64_t kMicro = 1000;
    const auto took = std::uint64_t(std::max<std::int64_t>(0, connectNanos));
    ++counters.connects;
    counters.connectNanos += took;
    connect.record(took / kMicro);
    if (!tls)
        return;
    const auto shook = std::uint64_t(std::max<std::int64_t>(0, handshakeNanos));
    ++counters.handshakes;
    counters.handshakesResumed += resumed;
    counters.handshakeNanos += shook;
    counters.handshakeMaxNanos = std::max(counters.handshakeMaxNanos, shook);
    (resumed ? this->resumed : handshake).record(shook / kMicro);
}

bool sampleBudgetSpent(const std::vector<ErrorSample>& samples, std::uint32_t step, ErrorClass c)
{
    std::size_t n = 0;
    for (const auto& s : samples)
        n += s.step == step && s.errorClass == c;
    return n >= kSamplesPerClass;
}

namespace {
void mergeSteps(IntervalMetrics& into, const IntervalMetrics& o)
{
    if (into.steps.size() < o.steps.size())
        into.steps.resize(o.steps.size());
    for (std::size_t i = 0; i < o.steps.size(); ++i)
        into.steps[i].merge(o.steps[i]);
    if (into.groups.size() < o.groups.size())
        into.groups.resize(o.groups.size());
    for (std::size_t i = 0; i < o.groups.size(); ++i)
        into.groups[i].merge(o.groups[i]);
    for (const auto& s : o.samples)
        if (!sampleBudgetSpent(into.samples, s.step, s.errorClass))
            into.samples.push_back(s);
    for (const TraceSample& t : o.traces)
        into.keepTrace(t.step, t.trace);
}
} // namespace

void IntervalMetrics::addConsole(std::uint32_t step, std::string_view text)
{
    if (console.size() >= kConsoleLinesPerSecond) {
        ++consoleDropped;
        return;
    }
    std::size_t n = std::min(text.size(), kConsoleLineBytes);
    while (n < text.size() && n > 0 && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80)
        --n; // not inside a UTF-8 sequence
    console.push_back({step, std::string(text.substr(0, n))});
}

void IntervalMetrics::merge(const IntervalMetrics& o)
{
    mergeSteps(*this, o);
    for (const ConsoleLine& line : o.console)
        addConsole(line.step, line.text);
    consoleDropped += o.consoleDropped;
    openConnections += o.openConnections;
    activeUsers += o.activeUsers;
    health.merge(o.health);
}

void IntervalMetrics::accumulate(const IntervalMetrics& o)
{
    mergeSteps(*this, o);
    openConnections = std::max(openConnections, o.openConnections);
    activeUsers = std::max(activeUsers, o.activeUsers);
    health.merge(o.health);
    if (o.health.known()) {
        ++healthSeconds;
        cpuSum += o.health.cpu;
    }
}

StepMetrics IntervalMetrics::total() const
{
    StepMetrics t;
    for (const auto& s : steps)
        t.merge(s);
    t.checks.clear(); // checks are a step's own: their indices mean nothing across steps
    return t;
}

std::string_view grpcCodeView(int code)
{
    static constexpr std::string_view names[kGrpcCodeCount] = {
        "OK",        "CANCELLED",      "UNKNOWN",           "INVALID_ARGUMENT",   "DEADLINE_EXCEEDED",
        "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
        "ABORTED",   "OUT_OF_RANGE",   "UNIMPLEMENTED",     "INTERNAL",           "UNAVAILABLE",
        "DATA_LOSS", "UNAUTHENTICATED"};
    return code >= 0 && std::size_t(code) < kGrpcCodeCount ? names[code] : std::string_view();
}

std::string grpcCodeName(int code)
{
    const std::string_view name = grpcCodeView(code);
    return name.empty() ? "CODE_" + std::to_string(code) : std::string(name);
}

} // namespace stampede
