#include "runmetrics.h"

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
    case ErrorClass::Count:
        break;
    }
    return "unknown";
}

void StepCounters::merge(const StepCounters& o)
{
    sent += o.sent;
    requests += o.requests;
    errors += o.errors;
    for (std::size_t i = 0; i < kErrorClassCount; ++i)
        errorsByClass[i] += o.errorsByClass[i];
    late += o.late;
    dropped += o.dropped;
    bytesIn += o.bytesIn;
    bytesOut += o.bytesOut;
}

void IntervalMetrics::merge(const IntervalMetrics& o)
{
    if (steps.size() < o.steps.size())
        steps.resize(o.steps.size());
    for (std::size_t i = 0; i < o.steps.size(); ++i)
        steps[i].merge(o.steps[i]);
}

StepMetrics IntervalMetrics::total() const
{
    StepMetrics t;
    for (const auto& s : steps)
        t.merge(s);
    return t;
}

} // namespace stampede
