#pragma once
// Recorded requests to bytes and back: a chunk (varints and strings, zlib
// compressed, saying its own size) as a project keeps them, and a whole set
// (a magic and its chunks) as a scenario or bundle carries it to the engines.
#include "trafficrecord.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

// Records to one chunk and back; false when the bytes are not a chunk (damaged).
std::string encodeTraffic(const TrafficRecord* records, std::size_t count);
bool decodeTraffic(std::string_view blob, std::vector<TrafficRecord>& out);

// Records encoded as one chunk with what a store keeps beside it: made
// where the records are (a recorder's writer, off the GUI thread), stored
// by the store's thread as it is.
struct TrafficChunk
{
    std::string data;
    std::size_t records = 0;
    std::int64_t firstNs = 0, lastNs = 0; // the first and last record's times
};
TrafficChunk encodeChunk(const std::vector<TrafficRecord>& records);

// A whole set: "STTRAFF1" and its chunks of `chunkRecords`; false when the
// bytes are not one (another file, truncated, damaged).
std::string encodeTrafficSet(const std::vector<TrafficRecord>& records, std::size_t chunkRecords = 50000);
bool decodeTrafficSet(std::string_view bytes, std::vector<TrafficRecord>& out);
// A set made of chunks already encoded (a project's), without decoding them.
std::string trafficSetOfChunks(const std::vector<std::string>& chunks);

} // namespace stampede
