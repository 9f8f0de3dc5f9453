#pragma once
// A step's ${shared.KEY} values (FlowHookKind::SharedRead): as the step
// begins, its keys are asked of the run's shared data in one ask and the user
// is held (nothing is made or sent) until the answer comes, then resumed with
// them as its own values; a key not set (or an ask not answered within
// kSharedReadWait) leaves the value unset, and the step is not sent (the
// worker says which name had no value). The wait is not the step's latency:
// the step begins anew once resumed, as after a rendezvous.
#include "stephook.h"

#include "core/shareddata.h"

#include <memory>
#include <mutex>
#include <vector>

namespace stampede {

inline constexpr Nanos kSharedReadWait = 5 * kNanosPerSecond;

class SharedRead final : public StepHook
{
public:
    SharedRead(std::uint32_t users, const ScenarioPlan& plan, SharedAccess& access, FlowHost& host);
    ~SharedRead() override;
    Begin begin(const StepCall& call, Nanos intended) override;
    void onTurn(Nanos now) override;
    bool holds() const override { return !m_held.empty(); }
    void letGo(std::vector<std::uint32_t>& users) override;

private:
    struct User
    {
        SharedTicketPtr ticket;
        std::vector<std::uint16_t> variables; // asked, in the ask's order
        Nanos since = 0;
        bool answered = false; // resumed with its values: the step's next begin goes
    };
    const ScenarioPlan& m_plan;
    SharedAccess& m_access;
    FlowHost& m_host;
    // The loop's doorbell as the tickets ring it (an answer may come after the worker is gone: then nothing rings).
    struct Bell
    {
        std::mutex mutex;
        std::function<void()> ring;
    };
    std::shared_ptr<Bell> m_bell = std::make_shared<Bell>();
    std::vector<User> m_users;
    std::vector<std::uint32_t> m_held;
};

} // namespace stampede
