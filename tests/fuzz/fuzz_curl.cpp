// libFuzzer target: the curl command reader. Whatever the input: no crash, a
// refusal says why, and a command read has a method and an absolute URL,
// and goes out and back the same (toCurl, then parseCurl again); a -F file
// field names one of the form's fields.
#include "core/curlcommand.h"

#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string input(reinterpret_cast<const char*>(data), size);
    std::string error;
    const auto r = stampede::parseCurl(input, error);
    if (!r) {
        if (error.empty())
            __builtin_trap();
        return 0;
    }
    if (r->method.empty() || r->url.find("://") == std::string::npos)
        __builtin_trap();
    // -F name=@path: each file field is one of the form's, in order, its value empty
    for (std::size_t k = 0; k < r->formFiles.size(); ++k) {
        const auto& [at, path] = r->formFiles[k];
        if (at >= r->form.size() || !r->form[at].second.empty() || (k > 0 && at <= r->formFiles[k - 1].first))
            __builtin_trap();
    }
    stampede::CurlRequest plain = *r;
    plain.form.clear();
    const auto back = stampede::parseCurl(stampede::toCurl(plain), error);
    if (!back || back->url != plain.url || back->body != plain.body)
        __builtin_trap();
    return 0;
}
