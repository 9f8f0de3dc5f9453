#pragma once
// The runtime's Promise job queue (the microtasks a script queues with
// `.then`, `await` or `queueMicrotask`-like code), run to their end after each
// script as Postman's sandbox does, within the same run's budget: a job that
// throws fails the run as the script would; a run that stops (its budget, the
// heap) drops what is still queued, so no job of one run reaches another.
// Without a queue SpiderMonkey has nowhere to put a job and the process dies.
#include <js/Promise.h>
#include <jsapi.h>

#include <cstddef>
#include <deque>
#include <memory>

namespace stampede::script {

class PromiseJobs final : public JS::JobQueue
{
public:
    // At most this many jobs a run (a job that queues the next one for ever
    // is stopped here, as the budget would stop it later).
    static constexpr std::size_t kMaxJobsPerRun = 100000;

    explicit PromiseJobs(JSContext* cx) : m_cx(cx) {}
    // Runs what is queued, and what those jobs queue, in order. False when a
    // job threw (its exception left pending), was stopped (none pending), or
    // kMaxJobsPerRun ran (an error pending); the rest are dropped then.
    bool drain();
    // Drops whatever is queued (a run that failed before its jobs ran).
    void discard() { m_jobs.clear(); }

    JSObject* getIncumbentGlobal(JSContext* cx) override;
    bool enqueuePromiseJob(JSContext* cx, JS::HandleObject promise, JS::HandleObject job,
                           JS::HandleObject allocationSite, JS::HandleObject incumbentGlobal) override;
    void runJobs(JSContext*) override { drain(); }
    bool empty() const override { return m_jobs.empty(); }

private:
    js::UniquePtr<SavedJobQueue> saveJobQueue(JSContext*) override;

    JSContext* m_cx;
    std::deque<std::unique_ptr<JS::PersistentRootedObject>> m_jobs;
    bool m_draining = false;
};

} // namespace stampede::script
