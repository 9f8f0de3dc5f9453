// The JSON path reader's cost on a worker: reads per CPU-second of a token
// from a 1 KiB answer (near the start, in the middle, at the end), against a
// full parse of the same body into simdjson's DOM (what a reader that builds
// the document would pay). Prints the figures and the ratios; medians of 5.
#include "check/jsonpath.h"

#include <simdjson.h>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

namespace {

double cpuSeconds()
{
    timespec ts{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

template <typename F> double perCpuSecond(int n, F f)
{
    std::vector<double> rates;
    for (int round = 0; round < 5; ++round) {
        const double t0 = cpuSeconds();
        for (int i = 0; i < n; ++i)
            f();
        rates.push_back(n / (cpuSeconds() - t0));
    }
    std::sort(rates.begin(), rates.end());
    return rates[2];
}

} // namespace

int main()
{
    // a 1 KiB answer: a code, a token, a list of items, and a trailer field
    std::string body = "{\"code\": 0, \"data\": {\"token\": \"tk-4f9c2b\", \"items\": [";
    for (int i = 0; body.size() < 900; ++i)
        body += (i ? ", " : "") + std::string("{\"id\": ") + std::to_string(i) + ", \"name\": \"item " +
                std::to_string(i) + "\", \"price\": 12.50}";
    body += "]}, \"trace\": \"end-of-body\"}";
    std::printf("body: %zu bytes\n", body.size());
    std::string error;
    stampede::JsonReader reader;
    std::string value;
    const int n = 200000;
    std::size_t sink = 0; // printed at the end, so no read is optimised away
    for (const char* path : {"$.code", "$.data.token", "$.data.items[10].name", "$.trace"}) {
        const auto p = stampede::JsonPath::compile(path, error);
        if (!p) {
            std::fprintf(stderr, "%s\n", error.c_str());
            return 2;
        }
        const double rate = perCpuSecond(n, [&] {
            reader.load(body);
            reader.read(*p, value);
            sink += value.size();
        });
        std::printf("%-24s %12.0f reads/CPU-s\n", path, rate);
    }
    simdjson::dom::parser dom;
    const simdjson::padded_string padded(body);
    const double full = perCpuSecond(n, [&] {
        simdjson::dom::element doc;
        if (dom.parse(padded).get(doc) == simdjson::SUCCESS)
            sink += doc["trace"].get_string().value_unsafe().size();
    });
    std::printf("%-24s %12.0f parses/CPU-s (full DOM, for comparison)\n", "whole document", full);
    std::printf("(%zu bytes read in all)\n", sink);
    return 0;
}
