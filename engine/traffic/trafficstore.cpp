#include "trafficstore.h"

#include "stampede/v1/scenario.pb.h"
#include "store/projectstore.h"
#include "store/sqlstatement.h"

#include <openssl/rand.h>
#include <sqlite3.h>

namespace stampede {

std::int64_t TrafficStore::save(const std::string& name, const std::vector<TrafficRecord>& records,
                                const std::string& payloadJson)
{
    sqlite3* db = m_store.handle();
    const std::int64_t id =
        m_store.addItem(0, ItemKind::Traffic, name, payloadJson, -1, [&](std::int64_t item, std::string& why) {
            SqlStatement s(db, "INSERT INTO traffic_chunks(item, seq, first_ns, records, data) VALUES (?, ?, ?, ?, ?)");
            for (std::size_t at = 0, seq = 0; at < records.size(); at += kChunkRecords, ++seq) {
                const std::size_t n = std::min(kChunkRecords, records.size() - at);
                s.bind(1, item).bind(2, std::int64_t(seq)).bind(3, records[at].atNanos).bind(4, std::int64_t(n));
                s.blob(5, encodeTraffic(&records[at], n));
                if (!s.run()) {
                    why = "cannot store the traffic: " + s.error();
                    return false;
                }
                s.reset();
            }
            return true;
        });
    if (!id)
        m_error = m_store.lastError();
    return id;
}

std::int64_t TrafficStore::create(const std::string& name, const std::string& payloadJson)
{
    const std::int64_t id = m_store.addItem(0, ItemKind::Traffic, name, payloadJson);
    if (!id)
        m_error = m_store.lastError();
    return id;
}

bool TrafficStore::append(std::int64_t item, std::int64_t seq, const TrafficChunk& chunk,
                          const std::string& payloadJson)
{
    sqlite3* db = m_store.handle();
    if (sqlite3_exec(db, "BEGIN IMMEDIATE", nullptr, nullptr, nullptr) != SQLITE_OK) {
        m_error = std::string("cannot store the traffic: ") + sqlite3_errmsg(db);
        return false;
    }
    bool ok = true;
    if (chunk.records) {
        SqlStatement s(db, "INSERT INTO traffic_chunks(item, seq, first_ns, records, data) VALUES (?, ?, ?, ?, ?)");
        s.bind(1, item).bind(2, seq).bind(3, chunk.firstNs).bind(4, std::int64_t(chunk.records));
        s.blob(5, chunk.data);
        if (!s.run()) {
            m_error = "cannot store the traffic: " + s.error();
            ok = false;
        }
    }
    if (ok && !m_store.setPayload(item, payloadJson)) {
        m_error = "cannot store the traffic: " + m_store.lastError();
        ok = false;
    }
    if (ok && sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr) != SQLITE_OK) {
        m_error = std::string("cannot store the traffic: ") + sqlite3_errmsg(db);
        ok = false;
    }
    if (!ok)
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return ok;
}

std::int64_t TrafficStore::find(const std::string& name) const
{
    SqlStatement s(m_store.handle(), "SELECT id FROM items WHERE kind = 'traffic' AND name = ? ORDER BY id LIMIT 1");
    s.bind(1, name);
    if (s.step())
        return s.integer(0);
    m_error = s.failed() ? "cannot look for the traffic set: " + s.error()
                         : "the project has no traffic set named \"" + name + "\"";
    return 0;
}

bool TrafficStore::chunks(std::int64_t item, std::vector<std::string>& out) const
{
    SqlStatement s(m_store.handle(), "SELECT data FROM traffic_chunks WHERE item = ? ORDER BY seq");
    s.bind(1, item);
    while (s.step())
        out.push_back(s.text(0));
    if (s.failed()) {
        m_error = "cannot read the traffic set: " + s.error();
        return false;
    }
    return true;
}

bool TrafficStore::load(std::int64_t item, std::vector<TrafficRecord>& out) const
{
    std::vector<std::string> blobs;
    if (!chunks(item, blobs))
        return false;
    for (const std::string& blob : blobs) {
        if (!decodeTraffic(blob, out)) {
            m_error = "the traffic set's requests are damaged";
            return false;
        }
    }
    return true;
}

std::string TrafficStore::maskKey()
{
    std::string key = m_store.setting("traffic_mask_key");
    if (!key.empty())
        return key;
    unsigned char bytes[32];
    if (RAND_bytes(bytes, sizeof bytes) != 1) {
        m_error = "no random bytes for the masking key";
        return {};
    }
    static const char* kHex = "0123456789abcdef";
    for (const unsigned char b : bytes) {
        key += kHex[b >> 4];
        key += kHex[b & 15];
    }
    if (!m_store.setSetting("traffic_mask_key", key)) {
        m_error = "cannot keep the masking key: " + m_store.lastError();
        return {};
    }
    return key;
}

bool inlineReplayTraffic(v1::Scenario& scenario, ProjectStore& store, std::string& error)
{
    TrafficStore traffic(store);
    for (int i = 0; i < scenario.steps_size(); ++i) {
        const v1::Step& st = scenario.steps(i);
        if (!st.has_replay() || st.replay().traffic().empty() || !st.replay().data().empty())
            continue;
        std::vector<std::string> chunks;
        const std::int64_t item = traffic.find(st.replay().traffic());
        if (!item || !traffic.chunks(item, chunks)) {
            error = "steps[" + std::to_string(i) + "].replay.traffic: " + traffic.error();
            return false;
        }
        scenario.mutable_steps(i)->mutable_replay()->set_data(trafficSetOfChunks(chunks));
    }
    return true;
}

} // namespace stampede
