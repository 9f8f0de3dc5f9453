#pragma once
// Live control of a run from any thread (a GUI button, a signal handler's
// helper, a test): commands queue here and the run's own thread carries them
// out between its rounds (within 100 ms), so no caller ever blocks on an
// agent. Held by shared_ptr: whichever side lets go last frees it, so a
// command sent after the run ended is simply never carried out (its callback
// is called with "the run has ended").
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <vector>

namespace stampede {

class RunControl
{
public:
    // Called on the run's thread once the command was carried out (ok) or refused.
    using Done = std::function<void(bool ok, const std::string& error)>;
    struct Command
    {
        double factor = 1;           // the planned level (rate or users) times this, from now on
        const char* kind = "scaled"; // the run's event once carried out: paused, resumed, scaled, stop_requested
        Done done;
        std::string source; // who asked (the control endpoint and its caller), for the event
    };

    // Ends the run: every engine stops. Lock-free: a signal handler may call it.
    void stop() { m_stop.store(true); }
    bool stopRequested() const { return m_stop.load(); }
    // The same, said in the run's events as asked by `source` (stop_requested).
    void stop(const std::string& source);
    // Scales the planned level from now on (1: as planned). Negative is 0.
    void scale(double factor, Done done = {}, std::string source = {});
    // Pause is level 0; resume goes back to the last scale asked. False when
    // there was nothing to do (already paused, not paused, the run ended).
    bool pause(std::string source = {});
    bool resume(std::string source = {});
    // The level last asked (the plan's times this) and whether paused.
    double level() const;
    bool paused() const;
    bool closed() const;

    // For the run's thread: the commands asked since the last call, in order.
    std::vector<Command> take();
    // For the run's thread, at its end: refuses what is left and anything asked later.
    void close();

private:
    mutable std::mutex m_mutex;
    std::vector<Command> m_queue;
    double m_factor = 1;
    bool m_paused = false;
    std::atomic<bool> m_stop{false};
    bool m_closed = false;
};

} // namespace stampede
