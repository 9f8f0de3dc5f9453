#pragma once
// A run's shared data (sturnus' global variables in Redis): keys that every
// user of every engine reads and writes, held in one place for the run — the
// controller's SharedStore, asked by each agent over the control protocol (its
// Shared stream), or an engine's own when it runs alone. A key holds a text or
// a list (pushed at its end, popped from its front: a queue that hands each
// value to one reader). Everything is bounded; what a bound refuses is an
// error of the op, said in words, never a silent drop.
//
// An engine's users ask through SharedAccess: an ask (a few ops, applied in
// order and at once) returns a ticket, answered later on another thread (the
// control stream's) or at once (an engine's own store); a script waits for it,
// a step's template read holds its user until it is answered.
#include "core/clock.h"

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace stampede {

struct SharedOp
{
    enum class Kind : std::uint8_t
    {
        Get,       // the text (found or not)
        Set,       // the text `value`
        Increment, // the text as an integer, plus `by` (a key not set counts as 0): the new number
        Push,      // `value` at the list's end: its new length
        Pop,       // the list's first value, taken out (found or not)
        Length,    // the list's length (0 when not set)
        Remove     // the key, whatever it held (found or not)
    };
    Kind kind = Kind::Get;
    std::string key;
    std::string value;
    std::int64_t by = 1;
};

struct SharedResult
{
    bool ok = true;
    std::string error; // !ok: why (the op changed nothing)
    bool found = false;
    std::string value;
    std::int64_t number = 0;
};

// What a store holds at most (a run's, whatever its agents ask).
struct SharedLimits
{
    static constexpr std::size_t kKeyBytes = 256;
    static constexpr std::size_t kValueBytes = 1 << 20;
    static constexpr std::size_t kKeys = 100'000;
    static constexpr std::size_t kListLength = 1'000'000;
    static constexpr std::size_t kTotalBytes = std::size_t(256) << 20; // keys, texts and list values
    static constexpr std::size_t kOpsPerAsk = 64;
};

// The op's name as scripts and errors write it ("get", "push", ...).
const char* sharedOpName(SharedOp::Kind kind);

// One run's keys. Thread-safe: each op (and each ask, its ops together) is applied at once, in the order asked.
class SharedStore
{
public:
    SharedResult apply(const SharedOp& op);
    // The ops in order, under one lock: no other ask sees a state between them. An ask sharedAskRefused refuses
    // changes nothing: no result, and `refused` says why.
    std::vector<SharedResult> apply(const std::vector<SharedOp>& ops, std::string& refused);
    std::size_t keys() const;
    std::size_t bytes() const;

private:
    struct Entry
    {
        bool list = false;
        std::string text;
        std::deque<std::string> items;
    };
    SharedResult applyLocked(const SharedOp& op);
    SharedResult push(const SharedOp& op);
    SharedResult increment(const SharedOp& op);
    // Why `op` may not make its key hold `after` bytes where it held `before` (a new key when `e` is null): past
    // the keys or the bytes the store holds at most; "" when it may.
    std::string noRoom(const SharedOp& op, const Entry* e, std::size_t before, std::size_t after) const;
    Entry* find(const std::string& key);
    void drop(std::unordered_map<std::string, Entry>::iterator it);

    mutable std::mutex m_mutex;
    std::unordered_map<std::string, Entry> m_entries;
    std::size_t m_bytes = 0;
};

// An ask's answer, awaited: by a script (wait) or a held user (ready, then the loop's doorbell).
class SharedTicket
{
public:
    explicit SharedTicket(std::function<void()> doorbell = {}) : m_doorbell(std::move(doorbell)) {}
    // Answered: the results (one per op), or `error` for the whole ask (the store could not be asked).
    void finish(std::vector<SharedResult> results, std::string error = {});
    bool ready() const;
    // Waits until answered or `timeout` passed (real time: a script's wait): false when it was not answered.
    bool wait(Nanos timeout);
    // The waiter gave up: an ask not sent yet is not sent (one sent may still be applied).
    void abandon();
    bool abandoned() const;
    // Once ready: the answer.
    const std::vector<SharedResult>& results() const { return m_results; }
    const std::string& error() const { return m_error; }

private:
    mutable std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_done = false, m_abandoned = false;
    std::vector<SharedResult> m_results;
    std::string m_error;
    std::function<void()> m_doorbell;
};
using SharedTicketPtr = std::shared_ptr<SharedTicket>;

// How an engine's users reach the run's shared data.
class SharedAccess
{
public:
    virtual ~SharedAccess() = default;
    // `ops` asked (checked first: a key that is no UTF-8 or too long, a value too long, too many ops are refused
    // here, answered at once). `doorbell` rings, on any thread, once the ticket is answered.
    virtual SharedTicketPtr ask(std::vector<SharedOp> ops, std::function<void()> doorbell = {}) = 0;
};

// Why `ops` cannot be asked at all ("" when they can): the checks every store and access makes first.
std::string sharedAskRefused(const std::vector<SharedOp>& ops);

// An engine's own store (a run of one engine, a test): asked and answered at once.
class LocalSharedAccess final : public SharedAccess
{
public:
    SharedTicketPtr ask(std::vector<SharedOp> ops, std::function<void()> doorbell = {}) override;
    SharedStore& store() { return m_store; }

private:
    SharedStore m_store;
};

} // namespace stampede
