#include "workerio.h"

#include "net/transport.h"

#include <algorithm>
#include <sys/eventfd.h>
#include <unistd.h>

namespace stampede {

std::uint32_t slotCount(const ScenarioPlan& plan, std::uint32_t slots)
{
    return plan.http == HttpVersion::Http2 ? slots * plan.load->slotsPerConnection(plan.streams) : slots;
}

SessionsConfig sessionsConfig(const ScenarioPlan& plan, std::uint32_t slots)
{
    SessionsConfig c;
    c.http2 = plan.http == HttpVersion::Http2;
    c.slots = slots;
    c.streams = plan.streams;
    c.servers = plan.endpointCount;
    c.connectTimeout = plan.connectTimeout;
    c.websocket = std::any_of(plan.steps.begin(), plan.steps.end(), [](const PlannedStep& s) { return s.ws; });
    c.eventStream = std::any_of(plan.steps.begin(), plan.steps.end(), [](const PlannedStep& s) { return s.sse; });
    c.pacedStreams = std::any_of(plan.steps.begin(), plan.steps.end(),
                                 [](const PlannedStep& s) { return s.callStream && s.callStream->paced(); });
    return c;
}

CaptureMode captureFor(const PlannedStep& step)
{
    return (step.needs & kNeedsBody) ? CaptureMode::All : step.needs ? CaptureMode::Head : CaptureMode::None;
}

Outgoing outgoingOf(const PlannedStep& step)
{
    Outgoing o;
    o.endpoint = &step.endpoint;
    o.server = step.endpointIndex;
    o.timeout = step.timeout;
    o.noResponseBody = step.noResponseBody;
    o.protocol = step.protocol;
    o.capture = captureFor(step);
    o.ws = step.ws.get();
    o.sse = step.sse.get();
    o.callStream = step.callStream.get();
    return o;
}

class LoopIo::Waker final : public PollTarget
{
public:
    Waker() : fd(::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}
    ~Waker() override
    {
        if (fd >= 0)
            ::close(fd);
    }
    void onEvents(std::uint32_t, Nanos) override
    {
        std::uint64_t n;
        while (::read(fd, &n, sizeof n) > 0) {
        }
    }
    int fd;
};

LoopIo::LoopIo() : m_readBuffer(kReadBufferSize), m_waker(std::make_unique<Waker>())
{
    if (m_waker->fd >= 0)
        m_loop.add(m_waker->fd, static_cast<PollTarget*>(m_waker.get()));
}

LoopIo::~LoopIo() = default;

void LoopIo::dispatch(int events, Nanos ready)
{
    dispatchEvents(m_loop, events, ready);
}

void LoopIo::wake()
{
    const std::uint64_t one = 1;
    if (m_waker->fd >= 0)
        (void)!::write(m_waker->fd, &one, sizeof one);
}

ClientSessionsPtr LoopIo::sessions(const ScenarioPlan& plan, std::uint32_t slots, SessionListener& listener)
{
    return makeClientSessions(sessionsConfig(plan, slots), m_loop, listener, m_readBuffer.data(), m_readBuffer.size());
}

} // namespace stampede
