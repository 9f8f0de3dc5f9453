#pragma once
// Work off the GUI thread, for the GUI (as hotspot's JobTracker): a job runs
// on the runner's thread pool, and its result is delivered on the GUI thread
// only to a receiver that still exists, and only if it is the receiver's
// latest job and was not cancelled (a newer Send makes an older result stale).
// Never a detached thread, never a blocking call on the GUI thread; the pool's
// threads are joined when the application ends.
#include <QCoreApplication>
#include <QObject>
#include <QPointer>
#include <QThreadPool>

#include <atomic>
#include <future>
#include <memory>
#include <type_traits>

class JobRunner
{
    struct State;

public:
    // A job's way to stop early (as hotspot's JobTracker gives its jobs): true once its result is no longer
    // wanted - a later start(), cancel(), or the runner gone. Thread-safe; a job that takes one as its
    // argument is given it (work(cancelled)), others run to their end.
    class Cancelled
    {
    public:
        bool operator()() const { return m_state->latest.load() != m_id; }

    private:
        friend class JobRunner;
        Cancelled(std::shared_ptr<State> state, quint64 id) : m_state(std::move(state)), m_id(id) {}
        std::shared_ptr<State> m_state;
        quint64 m_id;
    };

    // Results go to `receiver` (on the GUI thread) while it exists.
    explicit JobRunner(QObject* receiver) : m_receiver(receiver) {}
    ~JobRunner() { cancel(); }
    JobRunner(const JobRunner&) = delete;
    JobRunner& operator=(const JobRunner&) = delete;

    // Runs `work()` on the pool; then `deliver(result)` on the GUI thread,
    // unless a later start() or cancel() came first, or the receiver is gone.
    // Returns the job's id. startBeside() runs a job beside the current ones
    // (checking several agents at once): only cancel() makes them stale.
    template <typename Work, typename Deliver> quint64 start(Work work, Deliver deliver)
    {
        ++m_state->latest;
        return startBeside(std::move(work), std::move(deliver));
    }
    template <typename Work, typename Deliver> quint64 startBeside(Work work, Deliver deliver)
    {
        const quint64 id = m_state->latest.load();
        auto state = m_state;
        QPointer<QObject> receiver = m_receiver;
        auto done = std::make_shared<std::promise<void>>();
        m_done = done->get_future().share();
        pool()->start([id, state, receiver, done, work = std::move(work), deliver = std::move(deliver)]() mutable {
            auto result = [&] {
                if constexpr (std::is_invocable_v<Work&, const Cancelled&>)
                    return work(Cancelled(state, id));
                else
                    return work();
            }();
            if (state->latest.load() == id)
                QMetaObject::invokeMethod(
                    QCoreApplication::instance(),
                    [id, state, receiver, deliver = std::move(deliver), result = std::move(result)]() mutable {
                        if (receiver && state->latest.load() == id)
                            deliver(std::move(result));
                    },
                    Qt::QueuedConnection);
            done->set_value();
        });
        return id;
    }
    // The running job's result (if any) will not be delivered.
    void cancel() { ++m_state->latest; }
    // Blocks until the last job started has finished (for an owner whose job
    // uses its members, before they go).
    void wait() const
    {
        if (m_done.valid())
            m_done.wait();
    }
    static QThreadPool* pool()
    {
        static QThreadPool* p = [] {
            auto* pool = new QThreadPool(QCoreApplication::instance());
            pool->setMaxThreadCount(16);
            return pool;
        }();
        return p;
    }

private:
    struct State
    {
        std::atomic<quint64> latest{0};
    };
    QPointer<QObject> m_receiver;
    std::shared_ptr<State> m_state = std::make_shared<State>();
    std::shared_future<void> m_done;
};
