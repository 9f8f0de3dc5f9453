#pragma once
// Traffic sets in a project: the item (kind "traffic", its payload a JSON
// description) and its requests in compressed chunks beside it, written in
// the item's own transaction (never half a set) and gone with it. The
// project's masking key (the keyed hash's secret) lives in its settings.
#include "trafficcodec.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class ProjectStore;
namespace v1 {
class Scenario;
}

class TrafficStore
{
public:
    static constexpr std::size_t kChunkRecords = 50000;

    explicit TrafficStore(ProjectStore& store) : m_store(store) {}
    // A new traffic set at the project's root; its id, or 0 with error().
    std::int64_t save(const std::string& name, const std::vector<TrafficRecord>& records,
                      const std::string& payloadJson);
    // A traffic set filled as it is recorded: made empty now, then each chunk
    // appended in a transaction of its own with the set's new payload (a
    // crash keeps every chunk appended before it). 0 or false with error().
    std::int64_t create(const std::string& name, const std::string& payloadJson);
    // An empty chunk only updates the payload.
    bool append(std::int64_t item, std::int64_t seq, const TrafficChunk& chunk, const std::string& payloadJson);
    // The traffic set named `name` (the first, in tree order, when names repeat); 0 with error() when none.
    std::int64_t find(const std::string& name) const;
    // The set's requests in time order; false with error().
    bool load(std::int64_t item, std::vector<TrafficRecord>& out) const;
    // The set's compressed chunks, in order, to decode elsewhere (decodeTraffic) off the store's thread.
    bool chunks(std::int64_t item, std::vector<std::string>& out) const;
    // The project's masking key, made (random, 32 bytes) on first use; empty with error() when it cannot be kept.
    std::string maskKey();
    const std::string& error() const { return m_error; }

private:
    ProjectStore& m_store;
    mutable std::string m_error;
};

// Each replay step of `scenario` that names a traffic set of `store` (and
// carries no data yet) gets the set's requests as its data, as the engines
// need them; false with `error` when a set is missing or unreadable.
bool inlineReplayTraffic(v1::Scenario& scenario, ProjectStore& store, std::string& error);

} // namespace stampede
