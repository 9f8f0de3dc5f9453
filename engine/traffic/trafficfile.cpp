#include "trafficfile.h"

#include "masking.h"

#include <openssl/rand.h>

#include <optional>

namespace stampede {

bool readTrafficFile(const std::string& path, const std::string& format, TrafficImport& out, std::string& used,
                     std::string& error, const ImportProgress& progress)
{
    const bool har =
        format == "har" || (format.empty() && path.size() > 4 && path.compare(path.size() - 4, 4, ".har") == 0);
    if (har) {
        used = "har";
        return importHar(path, out, error);
    }
    used = format.empty() || format == "nginx" || format == "combined" ? "combined" : format;
    std::optional<LogFormat> custom;
    if (used != "combined") {
        custom = LogFormat::compile(format, error);
        if (!custom) {
            error = "--format: " + error;
            return false;
        }
    }
    return importLog(path, custom ? *custom : LogFormat::combined(), out, error, progress);
}

bool readMaskedTrafficFile(const std::string& path, const std::string& format, const std::vector<std::string>& masks,
                           TrafficImport& in, std::string& where, std::string& error)
{
    std::vector<MaskRule> rules;
    if (std::size_t failed = 0; !parseMasks(masks, rules, error, &failed)) {
        where = "mask[" + std::to_string(failed) + "]";
        return false;
    }
    std::string used;
    if (!readTrafficFile(path, format, in, used, error)) {
        where = error.rfind("--format: ", 0) == 0 ? "format" : "file";
        if (where == "format")
            error.erase(0, 10);
        return false;
    }
    if (in.records.empty()) {
        where = "file";
        error = "none of the " + std::to_string(in.lines) + " lines of \"" + path + "\" could be read as " + used;
        return false;
    }
    static const std::string key = [] {
        unsigned char bytes[32] = {};
        if (RAND_bytes(bytes, sizeof bytes) != 1)
            return std::string("stampede");
        return std::string(reinterpret_cast<const char*>(bytes), sizeof bytes);
    }();
    const Masker masker(std::move(rules), key);
    if (!masker.empty())
        for (TrafficRecord& r : in.records)
            masker.apply(r);
    return true;
}

} // namespace stampede
