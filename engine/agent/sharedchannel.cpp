#include "sharedchannel.h"

#include "wire/sharedwire.h"

#include <algorithm>
#include <chrono>
#include <thread>

namespace stampede {

SharedTicketPtr SharedChannel::ask(std::vector<SharedOp> ops, std::function<void()> doorbell)
{
    auto ticket = std::make_shared<SharedTicket>(std::move(doorbell));
    if (std::string why = sharedAskRefused(ops); !why.empty()) {
        ticket->finish({}, std::move(why));
        return ticket;
    }
    {
        std::lock_guard lock(m_mutex);
        if (!m_closed) {
            const std::uint64_t id = ++m_next;
            m_waiting[id] = {ticket, ops.size()};
            m_outbox.emplace_back(id, std::move(ops));
            m_cv.notify_all();
            return ticket;
        }
    }
    ticket->finish({}, "the run is over");
    return ticket;
}

void SharedChannel::close()
{
    std::map<std::uint64_t, Pending> left;
    {
        std::lock_guard lock(m_mutex);
        m_closed = true;
        m_outbox.clear();
        left.swap(m_waiting);
        m_cv.notify_all();
    }
    for (auto& [id, p] : left)
        p.ticket->finish({}, "the run is over");
}

std::uint64_t SharedChannel::answered() const
{
    std::lock_guard lock(m_mutex);
    return m_answered;
}

// Asks written and not answered: the stream broke, the controller may have applied them or not.
void SharedChannel::failSent(const std::string& why)
{
    std::vector<SharedTicketPtr> failed;
    {
        std::lock_guard lock(m_mutex);
        for (auto it = m_waiting.begin(); it != m_waiting.end();) {
            const bool queued =
                std::any_of(m_outbox.begin(), m_outbox.end(), [&](const auto& q) { return q.first == it->first; });
            if (queued) {
                ++it;
                continue;
            }
            failed.push_back(it->second.ticket);
            it = m_waiting.erase(it);
        }
    }
    for (const SharedTicketPtr& t : failed)
        t->finish({}, why);
}

void SharedChannel::readAnswers(grpc::ServerReaderWriter<v1::SharedAsk, v1::SharedAnswer>& stream)
{
    v1::SharedAnswer answer;
    while (stream.Read(&answer)) {
        Pending p;
        {
            std::lock_guard lock(m_mutex);
            const auto it = m_waiting.find(answer.id());
            if (it == m_waiting.end())
                continue; // not ours, or answered already: nothing waits for it
            p = std::move(it->second);
            m_waiting.erase(it);
            ++m_answered;
        }
        std::vector<SharedResult> results;
        std::string error;
        if (fromWire(answer, p.ops, results, error))
            p.ticket->finish(std::move(results));
        else
            p.ticket->finish({}, std::move(error));
    }
    std::lock_guard lock(m_mutex);
    m_readerDone = true;
    m_cv.notify_all();
}

grpc::Status SharedChannel::serve(grpc::ServerContext& ctx,
                                  grpc::ServerReaderWriter<v1::SharedAsk, v1::SharedAnswer>& stream)
{
    {
        std::lock_guard lock(m_mutex);
        if (m_serving)
            return {grpc::StatusCode::ALREADY_EXISTS, "the run's shared data is served on another stream"};
        if (m_closed)
            return {grpc::StatusCode::NOT_FOUND, "the run is over"};
        m_serving = true;
        m_readerDone = false;
    }
    std::thread reader([&] { readAnswers(stream); });
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_cv.wait_for(lock, std::chrono::milliseconds(200),
                      [&] { return !m_outbox.empty() || m_readerDone || m_closed; });
        if (m_readerDone || m_closed || ctx.IsCancelled())
            break;
        if (m_outbox.empty())
            continue;
        auto [id, ops] = std::move(m_outbox.front());
        m_outbox.pop_front();
        const auto it = m_waiting.find(id);
        if (it == m_waiting.end() || it->second.ticket->abandoned()) { // its waiter gave up: never sent
            if (it != m_waiting.end())
                m_waiting.erase(it);
            continue;
        }
        v1::SharedAsk ask;
        ask.set_id(id);
        toWire(ops, ask);
        lock.unlock();
        const bool written = stream.Write(ask);
        lock.lock();
        if (!written)
            break;
    }
    lock.unlock();
    ctx.TryCancel(); // the reader's Read returns
    reader.join();
    failSent("the controller's shared data did not answer: its stream broke");
    lock.lock();
    m_serving = false;
    return grpc::Status::OK;
}

} // namespace stampede
