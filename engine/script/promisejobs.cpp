#include "promisejobs.h"

#include <js/Exception.h>
#include <js/Utility.h>

namespace stampede::script {

JSObject* PromiseJobs::getIncumbentGlobal(JSContext* cx)
{
    return JS::CurrentGlobalOrNull(cx);
}

bool PromiseJobs::enqueuePromiseJob(JSContext* cx, JS::HandleObject, JS::HandleObject job, JS::HandleObject,
                                    JS::HandleObject)
{
    m_jobs.push_back(std::make_unique<JS::PersistentRootedObject>(cx, job));
    return true;
}

bool PromiseJobs::drain()
{
    if (m_draining)
        return true; // a job's own drain (not reentrant): the outer loop runs what it queued
    m_draining = true;
    struct Done
    {
        PromiseJobs& q;
        ~Done()
        {
            q.m_draining = false;
            q.m_jobs.clear();
        }
    } done{*this};
    std::size_t ran = 0;
    while (!m_jobs.empty()) {
        if (++ran > kMaxJobsPerRun) {
            JS_ReportErrorASCII(m_cx, "more than %zu Promise jobs in one run", kMaxJobsPerRun);
            return false;
        }
        JS::RootedObject job(m_cx, m_jobs.front()->get());
        m_jobs.pop_front();
        JSAutoRealm ar(m_cx, job);
        JS::RootedValue rval(m_cx);
        if (!JS::Call(m_cx, JS::UndefinedHandleValue, job, JS::HandleValueArray::empty(), &rval))
            return false; // thrown (pending) or stopped (uncatchable)
    }
    return true;
}

js::UniquePtr<JS::JobQueue::SavedJobQueue> PromiseJobs::saveJobQueue(JSContext*)
{
    return js::UniquePtr<SavedJobQueue>(js_new<SavedJobQueue>()); // only a debugger asks; none runs here
}

} // namespace stampede::script
