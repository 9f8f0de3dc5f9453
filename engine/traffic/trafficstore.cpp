#include "trafficstore.h"

#include "store/projectstore.h"
#include "store/sqlstatement.h"

#include <cmath>
#include <openssl/rand.h>
#include <sqlite3.h>
#include <zlib.h>

namespace stampede {

namespace {

constexpr std::uint64_t kMaxChunkBytes = std::uint64_t(1) << 30;

void putVarint(std::string& out, std::uint64_t v)
{
    while (v >= 0x80) {
        out += char(v | 0x80);
        v >>= 7;
    }
    out += char(v);
}

void putString(std::string& out, std::string_view s)
{
    putVarint(out, s.size());
    out.append(s);
}

struct Reader
{
    std::string_view in;
    std::size_t pos = 0;
    bool ok = true;
    std::uint64_t varint()
    {
        std::uint64_t v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (pos >= in.size()) {
                ok = false;
                return 0;
            }
            const auto b = std::uint8_t(in[pos++]);
            v |= std::uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80))
                return v;
        }
        ok = false;
        return 0;
    }
    std::string string()
    {
        const std::uint64_t n = varint();
        if (!ok || n > in.size() - pos) {
            ok = false;
            return {};
        }
        std::string s(in.substr(pos, n));
        pos += n;
        return s;
    }
};

std::uint64_t zigzag(std::int64_t v)
{
    return (std::uint64_t(v) << 1) ^ std::uint64_t(v >> 63);
}

std::int64_t unzigzag(std::uint64_t v)
{
    return std::int64_t(v >> 1) ^ -std::int64_t(v & 1);
}

} // namespace

std::string encodeTraffic(const TrafficRecord* records, std::size_t count)
{
    std::string raw;
    putVarint(raw, count);
    std::int64_t last = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const TrafficRecord& r = records[i];
        putVarint(raw, zigzag(r.atNanos - last));
        last = r.atNanos;
        putString(raw, r.client);
        putString(raw, r.method);
        putString(raw, r.target);
        putString(raw, r.host);
        putVarint(raw, r.headers.size());
        for (const auto& [n, v] : r.headers) {
            putString(raw, n);
            putString(raw, v);
        }
        putString(raw, r.body);
        putVarint(raw, std::uint64_t(std::max(0, r.status)));
        putVarint(raw, r.durationS < 0 ? 0 : std::uint64_t(std::llround(r.durationS * 1e6)) + 1);
    }
    uLongf packed = compressBound(uLong(raw.size()));
    std::string blob;
    putVarint(blob, raw.size());
    const std::size_t head = blob.size();
    blob.resize(head + packed);
    compress2(reinterpret_cast<Bytef*>(blob.data() + head), &packed, reinterpret_cast<const Bytef*>(raw.data()),
              uLong(raw.size()), 6);
    blob.resize(head + packed);
    return blob;
}

bool decodeTraffic(std::string_view blob, std::vector<TrafficRecord>& out)
{
    Reader head{blob};
    const std::uint64_t size = head.varint();
    if (!head.ok || size > kMaxChunkBytes)
        return false;
    std::string raw(size, '\0');
    uLongf got = uLongf(size);
    if (uncompress(reinterpret_cast<Bytef*>(raw.data()), &got, reinterpret_cast<const Bytef*>(blob.data() + head.pos),
                   uLong(blob.size() - head.pos)) != Z_OK ||
        got != size)
        return false;
    Reader r{raw};
    const std::uint64_t count = r.varint();
    if (!r.ok || count > size)
        return false;
    std::int64_t last = 0;
    out.reserve(out.size() + count);
    for (std::uint64_t i = 0; i < count && r.ok; ++i) {
        TrafficRecord t;
        last += unzigzag(r.varint());
        t.atNanos = last;
        t.client = r.string();
        t.method = r.string();
        t.target = r.string();
        t.host = r.string();
        const std::uint64_t headers = r.varint();
        if (headers > raw.size())
            return false;
        for (std::uint64_t h = 0; h < headers && r.ok; ++h) {
            std::string n = r.string();
            t.headers.emplace_back(std::move(n), r.string());
        }
        t.body = r.string();
        t.status = int(std::min<std::uint64_t>(r.varint(), 999));
        const std::uint64_t micros = r.varint();
        t.durationS = micros ? double(micros - 1) / 1e6 : -1;
        out.push_back(std::move(t));
    }
    return r.ok && r.pos == raw.size();
}

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

} // namespace stampede
