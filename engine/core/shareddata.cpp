#include "shareddata.h"

#include "core/utf8.h"

#include <charconv>
#include <chrono>
#include <limits>

namespace stampede {

namespace {

SharedResult refused(std::string why)
{
    SharedResult r;
    r.ok = false;
    r.error = std::move(why);
    return r;
}

std::string quoted(const std::string& key)
{
    return "\"" + key + "\"";
}

} // namespace

const char* sharedOpName(SharedOp::Kind kind)
{
    switch (kind) {
    case SharedOp::Kind::Get:
        return "get";
    case SharedOp::Kind::Set:
        return "set";
    case SharedOp::Kind::Increment:
        return "increment";
    case SharedOp::Kind::Push:
        return "push";
    case SharedOp::Kind::Pop:
        return "pop";
    case SharedOp::Kind::Length:
        return "length";
    case SharedOp::Kind::Remove:
        return "remove";
    }
    return "?";
}

std::string sharedAskRefused(const std::vector<SharedOp>& ops)
{
    if (ops.empty())
        return "an ask of no op";
    if (ops.size() > SharedLimits::kOpsPerAsk)
        return "an ask of " + std::to_string(ops.size()) + " ops (at most " + std::to_string(SharedLimits::kOpsPerAsk) +
               ")";
    for (const SharedOp& op : ops) {
        if (op.kind > SharedOp::Kind::Remove)
            return "an op of unknown kind " + std::to_string(unsigned(op.kind));
        if (op.key.empty())
            return std::string(sharedOpName(op.kind)) + " of an empty key";
        if (op.key.size() > SharedLimits::kKeyBytes)
            return std::string(sharedOpName(op.kind)) + " of a key of " + std::to_string(op.key.size()) +
                   " bytes (at most " + std::to_string(SharedLimits::kKeyBytes) + ")";
        if (!isUtf8(op.key))
            return std::string(sharedOpName(op.kind)) + " of a key that is not UTF-8: " + utf8Escaped(op.key);
        if (op.value.size() > SharedLimits::kValueBytes)
            return std::string(sharedOpName(op.kind)) + " " + quoted(op.key) + " of a value of " +
                   std::to_string(op.value.size()) + " bytes (at most " + std::to_string(SharedLimits::kValueBytes) +
                   ")";
    }
    return {};
}

SharedStore::Entry* SharedStore::find(const std::string& key)
{
    const auto it = m_entries.find(key);
    return it == m_entries.end() ? nullptr : &it->second;
}

void SharedStore::drop(std::unordered_map<std::string, Entry>::iterator it)
{
    m_bytes -= it->first.size() + it->second.text.size();
    for (const std::string& item : it->second.items)
        m_bytes -= item.size();
    m_entries.erase(it);
}

SharedResult SharedStore::apply(const SharedOp& op)
{
    if (std::string why = sharedAskRefused({op}); !why.empty())
        return refused(std::move(why));
    std::lock_guard lock(m_mutex);
    return applyLocked(op);
}

std::vector<SharedResult> SharedStore::apply(const std::vector<SharedOp>& ops, std::string& why)
{
    why = sharedAskRefused(ops);
    if (!why.empty())
        return {};
    std::vector<SharedResult> out;
    out.reserve(ops.size());
    std::lock_guard lock(m_mutex);
    for (const SharedOp& op : ops)
        out.push_back(applyLocked(op));
    return out;
}

std::size_t SharedStore::keys() const
{
    std::lock_guard lock(m_mutex);
    return m_entries.size();
}

std::size_t SharedStore::bytes() const
{
    std::lock_guard lock(m_mutex);
    return m_bytes;
}

SharedResult SharedStore::applyLocked(const SharedOp& op)
{
    SharedResult r;
    Entry* e = find(op.key);
    switch (op.kind) {
    case SharedOp::Kind::Get:
        if (e && e->list)
            return refused("get " + quoted(op.key) + ": it is a list (pop it, or ask its length)");
        r.found = e != nullptr;
        if (e)
            r.value = e->text;
        return r;
    case SharedOp::Kind::Set: {
        if (e && e->list)
            return refused("set " + quoted(op.key) + ": it is a list (remove it first)");
        const std::size_t before = e ? e->text.size() : 0;
        if (std::string why = noRoom(op, e, before, op.value.size()); !why.empty())
            return refused(std::move(why));
        m_bytes = m_bytes - before + (e ? 0 : op.key.size()) + op.value.size();
        if (!e)
            e = &m_entries[op.key];
        e->text = op.value;
        return r;
    }
    case SharedOp::Kind::Increment:
        return increment(op);
    case SharedOp::Kind::Push:
        return push(op);
    case SharedOp::Kind::Pop:
        if (e && !e->list)
            return refused("pop " + quoted(op.key) + ": it is a text, not a list (get it)");
        if (!e || e->items.empty())
            return r;
        r.found = true;
        r.value = std::move(e->items.front());
        e->items.pop_front();
        m_bytes -= r.value.size();
        r.number = std::int64_t(e->items.size());
        if (e->items.empty())
            drop(m_entries.find(op.key)); // an empty list is no key: it may be set again as a text
        return r;
    case SharedOp::Kind::Length:
        if (e && !e->list)
            return refused("length " + quoted(op.key) + ": it is a text, not a list");
        r.found = e != nullptr;
        r.number = e ? std::int64_t(e->items.size()) : 0;
        return r;
    case SharedOp::Kind::Remove:
        if (e) {
            r.found = true;
            drop(m_entries.find(op.key));
        }
        return r;
    }
    return refused("an op of unknown kind");
}

std::string SharedStore::noRoom(const SharedOp& op, const Entry* e, std::size_t before, std::size_t after) const
{
    const std::string what = std::string(sharedOpName(op.kind)) + " " + quoted(op.key);
    if (!e && m_entries.size() >= SharedLimits::kKeys)
        return what + ": the run's shared data holds " + std::to_string(SharedLimits::kKeys) + " keys already";
    if (m_bytes - before + (e ? 0 : op.key.size()) + after > SharedLimits::kTotalBytes)
        return what + ": the run's shared data would pass " + std::to_string(SharedLimits::kTotalBytes >> 20) + " MiB";
    return {};
}

SharedResult SharedStore::increment(const SharedOp& op)
{
    Entry* e = find(op.key);
    if (e && e->list)
        return refused("increment " + quoted(op.key) + ": it is a list");
    std::int64_t n = 0;
    if (e) {
        const char* b = e->text.data();
        const char* end = b + e->text.size();
        const auto [p, ec] = std::from_chars(b, end, n);
        if (ec != std::errc() || p != end || e->text.empty())
            return refused("increment " + quoted(op.key) + ": its value \"" + std::string(utf8Prefix(e->text, 64)) +
                           "\" is not an integer");
    }
    if ((op.by > 0 && n > std::numeric_limits<std::int64_t>::max() - op.by) ||
        (op.by < 0 && n < std::numeric_limits<std::int64_t>::min() - op.by))
        return refused("increment " + quoted(op.key) + " by " + std::to_string(op.by) + ": past a 64-bit integer");
    n += op.by;
    std::string text = std::to_string(n);
    const std::size_t before = e ? e->text.size() : 0;
    if (std::string why = noRoom(op, e, before, text.size()); !why.empty())
        return refused(std::move(why));
    m_bytes = m_bytes - before + (e ? 0 : op.key.size()) + text.size();
    if (!e)
        e = &m_entries[op.key];
    e->text = std::move(text);
    SharedResult r;
    r.found = true;
    r.number = n;
    r.value = e->text;
    return r;
}

SharedResult SharedStore::push(const SharedOp& op)
{
    Entry* e = find(op.key);
    if (e && !e->list)
        return refused("push " + quoted(op.key) + ": it is a text, not a list (remove it first)");
    if (e && e->items.size() >= SharedLimits::kListLength)
        return refused("push " + quoted(op.key) + ": the list holds " + std::to_string(SharedLimits::kListLength) +
                       " values already (pop some)");
    if (std::string why = noRoom(op, e, 0, op.value.size()); !why.empty()) // a value more
        return refused(std::move(why));
    m_bytes += (e ? 0 : op.key.size()) + op.value.size();
    if (!e) {
        e = &m_entries[op.key];
        e->list = true;
    }
    e->items.push_back(op.value);
    SharedResult r;
    r.found = true;
    r.number = std::int64_t(e->items.size());
    return r;
}

void SharedTicket::finish(std::vector<SharedResult> results, std::string error)
{
    std::function<void()> bell;
    {
        std::lock_guard lock(m_mutex);
        if (m_done)
            return;
        m_results = std::move(results);
        m_error = std::move(error);
        m_done = true;
        bell = m_doorbell;
    }
    m_cv.notify_all();
    if (bell)
        bell();
}

bool SharedTicket::ready() const
{
    std::lock_guard lock(m_mutex);
    return m_done;
}

void SharedTicket::abandon()
{
    std::lock_guard lock(m_mutex);
    m_abandoned = true;
}

bool SharedTicket::abandoned() const
{
    std::lock_guard lock(m_mutex);
    return m_abandoned;
}

bool SharedTicket::wait(Nanos timeout)
{
    std::unique_lock lock(m_mutex);
    return m_cv.wait_for(lock, std::chrono::nanoseconds(timeout), [&] { return m_done; });
}

SharedTicketPtr LocalSharedAccess::ask(std::vector<SharedOp> ops, std::function<void()> doorbell)
{
    auto ticket = std::make_shared<SharedTicket>(std::move(doorbell));
    std::string refused;
    std::vector<SharedResult> results = m_store.apply(ops, refused);
    ticket->finish(std::move(results), std::move(refused));
    return ticket;
}

} // namespace stampede
