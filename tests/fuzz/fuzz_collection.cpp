// libFuzzer target: the collection readers (Postman, OpenAPI in JSON and
// YAML, HAR, curl). Whatever the input: no crash, a refusal says why, and
// every request made is a payload a run can read (bundle/storedrequest.h).
#include "bundle/storedrequest.h"
#include "collection/collection.h"
#include "stampede/v1/scenario.pb.h"

#include <cstdint>
#include <string>

namespace {
void check(const std::vector<stampede::ImportedItem>& items)
{
    for (const auto& i : items) {
        if (i.folder) {
            check(i.children);
            continue;
        }
        stampede::v1::Step step;
        std::string error;
        if (!stampede::storedRequestStep(i.payload, i.name, step, error))
            __builtin_trap();
    }
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    // an OpenAPI document's files beside it: the input itself under every name (references across files,
    // back into themselves, at any depth), counted: an import reads at most kMaxFilesBeside of them
    int read = 0;
    const stampede::BesideReader beside = [&](const std::string&, std::string& text, std::string&) {
        if (++read > stampede::kMaxFilesBeside)
            __builtin_trap();
        text = input;
        return true;
    };
    for (const char* name : {"c.json", "spec.yaml", "requests.sh"}) {
        read = 0;
        const stampede::CollectionImport c = stampede::importCollection(input, name, beside);
        if (c.error) {
            if (c.error->text().empty())
                __builtin_trap();
            continue;
        }
        if (c.requestCount() > stampede::kMaxImportedRequests)
            __builtin_trap();
        check(c.items);
    }
    return 0;
}
