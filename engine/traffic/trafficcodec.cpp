#include "trafficcodec.h"

#include <algorithm>
#include <cmath>
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

constexpr char kSetMagic[8] = {'S', 'T', 'T', 'R', 'A', 'F', 'F', '1'};

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
    // zlib expands at most about 1032 times: a size beyond that is a lie, not worth allocating
    if (!head.ok || size > kMaxChunkBytes || size > (blob.size() - head.pos) * 1100 + 64)
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

std::string encodeTrafficSet(const std::vector<TrafficRecord>& records, std::size_t chunkRecords)
{
    std::string out(kSetMagic, sizeof kSetMagic);
    chunkRecords = std::max<std::size_t>(1, chunkRecords);
    for (std::size_t i = 0; i < records.size(); i += chunkRecords) {
        const std::string chunk = encodeTraffic(records.data() + i, std::min(chunkRecords, records.size() - i));
        putVarint(out, chunk.size());
        out += chunk;
    }
    return out;
}

std::string trafficSetOfChunks(const std::vector<std::string>& chunks)
{
    std::string out(kSetMagic, sizeof kSetMagic);
    for (const std::string& chunk : chunks) {
        putVarint(out, chunk.size());
        out += chunk;
    }
    return out;
}

bool decodeTrafficSet(std::string_view bytes, std::vector<TrafficRecord>& out)
{
    if (bytes.size() < sizeof kSetMagic || bytes.substr(0, sizeof kSetMagic) != std::string_view(kSetMagic, 8))
        return false;
    Reader r{bytes, sizeof kSetMagic};
    while (r.ok && r.pos < bytes.size()) {
        const std::uint64_t n = r.varint();
        if (!r.ok || n > bytes.size() - r.pos)
            return false;
        if (!decodeTraffic(bytes.substr(r.pos, n), out))
            return false;
        r.pos += n;
    }
    return r.ok;
}

TrafficChunk encodeChunk(const std::vector<TrafficRecord>& records)
{
    TrafficChunk c;
    c.records = records.size();
    if (records.empty())
        return c;
    c.data = encodeTraffic(records.data(), records.size());
    c.firstNs = records.front().atNanos;
    c.lastNs = records.back().atNanos;
    return c;
}

} // namespace stampede
