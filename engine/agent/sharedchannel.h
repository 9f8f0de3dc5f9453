#pragma once
// An agent's side of the run's shared data: its users' asks (SharedAccess)
// queued for the controller's Shared stream, written in order as the stream
// takes them, and each answer handed to its ticket by id. One stream at a time
// (the controller opens another if one breaks): an ask written on a stream that
// broke before its answer came is failed ("did not answer"), since the
// controller may or may not have applied it; one not written yet waits for the
// next stream, unless its waiter gave up (then it is never sent).
#include "core/shareddata.h"
#include "stampede/v1/control.grpc.pb.h"

#include <grpcpp/grpcpp.h>

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>

namespace stampede {

class SharedChannel final : public SharedAccess
{
public:
    ~SharedChannel() override { close(); }
    SharedTicketPtr ask(std::vector<SharedOp> ops, std::function<void()> doorbell = {}) override;
    // The controller's stream (its first message read): served until it breaks, the controller ends it, or
    // close(). Another stream while one is served is refused.
    grpc::Status serve(grpc::ServerContext& ctx, grpc::ServerReaderWriter<v1::SharedAsk, v1::SharedAnswer>& stream);
    // The run is over: every ask not answered fails, later ones at once.
    void close();
    // Asks sent and answered (tst_shareddata counts them).
    std::uint64_t answered() const;

private:
    struct Pending
    {
        SharedTicketPtr ticket;
        std::size_t ops = 0;
    };
    void readAnswers(grpc::ServerReaderWriter<v1::SharedAsk, v1::SharedAnswer>& stream);
    void failSent(const std::string& why);

    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    std::deque<std::pair<std::uint64_t, std::vector<SharedOp>>> m_outbox; // not written yet
    std::map<std::uint64_t, Pending> m_waiting;                           // written or not, by id
    std::uint64_t m_next = 0, m_answered = 0;
    bool m_serving = false, m_readerDone = false, m_closed = false;
};

} // namespace stampede
