// `stampede-cli import`: a collection (Postman, OpenAPI, HAR, curl) made into
// a project's requests, as the workbench imports one; or, with --traffic (or
// an access log), recorded traffic read, masked and stored in a project as a
// traffic set, for replay.
#include "cli.h"

#include "collection/collection.h"
#include "core/text.h"
#include "core/textfile.h"
#include "store/projectstore.h"
#include "traffic/masking.h"
#include "traffic/trafficfile.h"
#include "traffic/trafficstore.h"

#include <cstdio>
#include <ctime>
#include <regex>
#include <sys/stat.h>

namespace stampede::cli {

namespace {

const char* kImportUsage =
    "Usage: stampede-cli import FILE --project P.stampede [--name NAME] [--working-dir DIR] [-q]\n"
    "       stampede-cli import FILE --project P.stampede --traffic [--format F] [--mask RULE ...] [--name NAME] [-q]\n"
    "\n"
    "A collection: a Postman Collection v2.0 or v2.1 (with or without a byte order\n"
    "mark; v1 is refused, naming it), an OpenAPI 3 file in JSON or YAML, a HAR 1.2\n"
    "file (one request per entry) or a file of curl commands, made into a collection\n"
    "of the project's requests (folders, auth, bodies, {{variables}} as ${variables}),\n"
    "its variables as an environment named after it, in one transaction: all or\n"
    "nothing. What it could not take (a script's call, a file that is not found...) is listed.\n"
    "Run it with: stampede-cli run P.stampede@NAME [--iterations N].\n"
    "\n"
    "Recorded traffic (--traffic; an access log is traffic whatever the flags): read and\n"
    "stored in the project as a traffic set (compressed), masked first: the original\n"
    "values of masked fields never reach the project.\n"
    "\n"
    "  FILE                 the collection; or an access log (plain or gzip'd) or a HAR 1.2 file\n"
    "  --traffic            FILE is recorded traffic, for replay (a HAR file is a collection otherwise)\n"
    "  --format F           traffic: nginx or combined (the default for logs), har (the default for\n"
    "                       *.har), caddy, traefik (their JSON logs), envoy, haproxy (their default\n"
    "                       formats), or an nginx log_format directive or format string, e.g.\n"
    "                       'log_format main \\'$remote_addr [$time_local] \"$request\" $status\\';'\n"
    "                       (a JSON one, escape=json '{\"uri\": \"$request_uri\", ...}', reads lines by key)\n"
    "  --mask RULE          traffic: FIELD:NAME=ACTION: FIELD query, header, json, form, cookie or regex;\n"
    "                       NAME may list several (query:token|sign=hash); ACTION hash (keyed by the\n"
    "                       project: the same value, the same hash), replace:TEXT or drop; or\n"
    "                       preset:NAME (cn-id, bank-card, cn-mobile, email, bearer, secrets: token,\n"
    "                       access_token, password, secret, api_key, sign... in queries, forms and\n"
    "                       JSON; cookies) (repeatable). Default: every preset\n"
    "  --no-mask            traffic: stored as read, without the default masking\n"
    "  --name NAME          the collection's (or traffic set's) name; default: the file's own\n"
    "  --working-dir DIR    where a form's file fields (Postman's src) are looked up, as newman's;\n"
    "                       default: the collection's own folder. The path is kept, and the file read\n"
    "                       when a run is prepared (a bundle carries its bytes)\n"
    "  --insecure-file-read a file field may name a file outside the working folder (newman's default)\n"
    "  -q, --quiet          no progress\n"
    "\n"
    "Lines of traffic that cannot be read are counted and the first 20 shown with their numbers.\n"
    "Exit codes: 0 stored, 2 bad input (not a collection, an unknown $variable, a bad mask,\n"
    "nothing readable), 3 not stored.\n";

int refuse(const std::string& error, int code)
{
    std::fprintf(stderr, "stampede-cli import: %s\n", error.c_str());
    return code;
}

std::string isoTime(std::int64_t nanos)
{
    const std::time_t s = std::time_t(nanos / 1000000000);
    std::tm tm{};
    gmtime_r(&s, &tm);
    char buf[40];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
    char ms[8];
    std::snprintf(ms, sizeof ms, ".%03dZ", int(nanos / 1000000 % 1000));
    return std::string(buf) + ms;
}

// A reason without the line's own text (quoted parts), which masking has not seen.
std::string withoutQuotes(const std::string& why)
{
    return std::regex_replace(why, std::regex("\"[^\"]*\""), "\"...\"");
}

struct ImportOptions
{
    std::string file, project, name, format, workingDir;
    std::vector<std::string> masks;
    bool quiet = false;
    bool anyFile = false; // --insecure-file-read
    bool traffic = false;
    bool noMask = false;
};

bool parse(const std::vector<std::string>& args, ImportOptions& o, std::string& error, bool& help)
{
    ArgReader r{args};
    for (; !r.done(); ++r.pos) {
        const std::string& a = args[r.pos];
        std::string v;
        if (a == "-h" || a == "--help") {
            help = true;
            return true;
        } else if (a == "-q" || a == "--quiet") {
            o.quiet = true;
        } else if (a == "--traffic") {
            o.traffic = true;
        } else if (a == "--no-mask") {
            o.noMask = o.traffic = true;
        } else if (a == "--project" || a.rfind("--project=", 0) == 0) {
            if (!r.value("--project", o.project, error))
                return false;
        } else if (a == "--working-dir" || a.rfind("--working-dir=", 0) == 0) {
            if (!r.value("--working-dir", o.workingDir, error))
                return false;
        } else if (a == "--insecure-file-read") {
            o.anyFile = true;
        } else if (a == "--name" || a.rfind("--name=", 0) == 0) {
            if (!r.value("--name", o.name, error))
                return false;
        } else if (a == "--format" || a.rfind("--format=", 0) == 0) {
            if (!r.value("--format", o.format, error))
                return false;
        } else if (a == "--mask" || a.rfind("--mask=", 0) == 0) {
            if (!r.value("--mask", v, error))
                return false;
            o.masks.push_back(v);
        } else if (!a.empty() && a[0] == '-') {
            error = "unknown option \"" + a + "\"";
            return false;
        } else if (o.file.empty()) {
            o.file = a;
        } else {
            error = "one file at a time (\"" + a + "\" too)";
            return false;
        }
    }
    if (o.file.empty())
        error = "give the file to import";
    else if (o.noMask && !o.masks.empty())
        error = "--no-mask and --mask: one or the other";
    else if (o.project.empty())
        error = "--project: give the project to store it in";
    return error.empty();
}

bool readTraffic(const ImportOptions& o, TrafficImport& in, std::string& formatText, std::string& error)
{
    int shown = -1;
    return readTrafficFile(o.file, o.format, in, formatText, error, [&](double f) {
        const int percent = int(f * 100);
        if (!o.quiet && percent / 5 != shown / 5) {
            std::fprintf(stderr, "\rreading %s: %3d %%", o.file.c_str(), percent);
            shown = percent;
        }
        return true;
    });
}

// Whether FILE is a collection: not when traffic is asked for (--traffic,
// --format, --mask), else by its content (JSON, YAML, curl) or its name.
bool isCollection(const ImportOptions& o)
{
    if (o.traffic || !o.format.empty() || !o.masks.empty())
        return false;
    std::string head(1024, '\0');
    std::FILE* f = std::fopen(o.file.c_str(), "rb");
    if (!f)
        return false; // the traffic reader says why it cannot be read
    head.resize(std::fread(head.data(), 1, head.size(), f));
    std::fclose(f);
    if (head.rfind("\xEF\xBB\xBF", 0) == 0)
        head.erase(0, 3);
    const std::string t(trimSpaces(head));
    const std::string lower = asciiLower(o.file);
    const auto endsWith = [&](const char* e) {
        const std::string_view s(e);
        return lower.size() >= s.size() && lower.compare(lower.size() - s.size(), s.size(), s) == 0;
    };
    return (!t.empty() && t[0] == '{') || t.rfind("curl ", 0) == 0 || t.rfind("openapi:", 0) == 0 ||
           t.rfind("swagger:", 0) == 0 || endsWith(".json") || endsWith(".yaml") || endsWith(".yml") ||
           endsWith(".har") || endsWith(".sh") || endsWith(".curl");
}

int importCollectionFile(const ImportOptions& o)
{
    struct stat st
    {
    };
    if (::stat(o.file.c_str(), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > kMaxCollectionBytes)
        return refuse(ImportNote{"too-large", {}}.text(), BadInput);
    std::string data, why;
    if (!readWholeFile(o.file, data, why))
        return refuse("cannot read \"" + o.file + "\": " + why, BadInput);
    // a file field's file: in the collection's folder (or --working-dir), kept relative to the project's
    CollectionImport c = importCollection(
        data, o.file, filesBeside(o.file),
        filesUnder(o.workingDir.empty() ? folderOf(o.file) : o.workingDir, o.anyFile, folderOf(o.project)));
    if (c.error)
        return refuse(o.file + ": " + c.error->text(), BadInput);
    if (!o.name.empty())
        c.name = o.name;
    std::unique_ptr<ProjectStore> store = ProjectStore::openOrCreate(o.project, why);
    if (!store)
        return refuse("--project: " + why, BadInput);
    const std::int64_t id = writeCollection(*store, c, why);
    if (!id)
        return refuse("cannot store the collection in \"" + o.project + "\": " + why, RunFailed);
    const auto item = store->item(id);
    std::printf("imported %d requests from %s (%s) as the collection \"%s\" in %s%s\n", c.requestCount(),
                o.file.c_str(), c.format.c_str(), item ? item->name.c_str() : c.name.c_str(), o.project.c_str(),
                c.variables.empty() ? "" : ", its variables as an environment of the same name");
    for (const ImportNote& n : c.notImported)
        std::printf("not imported: %s\n", n.text().c_str());
    return Passed;
}

} // namespace

int importCommand(const std::vector<std::string>& args)
{
    ImportOptions o;
    std::string error;
    bool help = false;
    if (!parse(args, o, error, help))
        return refuse(error, BadInput);
    if (help) {
        std::fputs(kImportUsage, stdout);
        return Passed;
    }
    if (isCollection(o))
        return importCollectionFile(o);
    std::vector<MaskRule> rules;
    const std::vector<std::string> masks = masksToUse(o.masks, o.noMask);
    if (!parseMasks(masks, rules, error))
        return refuse(error, BadInput);
    TrafficImport in;
    std::string formatText;
    const bool read = readTraffic(o, in, formatText, error);
    if (!o.quiet && formatText != "har")
        std::fputc('\n', stderr);
    if (!read)
        return refuse(error, BadInput);
    for (const TrafficProblem& p : in.problems)
        std::fprintf(stderr, "line %llu: %s%s%s\n", static_cast<unsigned long long>(p.line), p.why.c_str(),
                     p.text.empty() ? "" : ": ", p.text.substr(0, 120).c_str());
    if (in.records.empty())
        return refuse("nothing to import: none of the " + std::to_string(in.lines) + " lines could be read", BadInput);

    std::unique_ptr<ProjectStore> store = ProjectStore::openOrCreate(o.project, error);
    if (!store)
        return refuse("--project: " + error, BadInput);
    TrafficStore traffic(*store);
    if (!rules.empty()) {
        const std::string key = traffic.maskKey();
        if (key.empty())
            return refuse(traffic.error(), RunFailed);
        const Masker masker(rules, key);
        for (TrafficRecord& r : in.records)
            masker.apply(r);
    }
    std::string payload =
        "{\"source\": " + jsonString(o.file.substr(o.file.rfind('/') + 1)) + ", \"format\": " + jsonString(formatText) +
        ", \"records\": " + std::to_string(in.records.size()) + ", \"lines\": " + std::to_string(in.lines) +
        ", \"bad\": " + std::to_string(in.bad) + ", \"first\": " + jsonString(isoTime(in.records.front().atNanos)) +
        ", \"last\": " + jsonString(isoTime(in.records.back().atNanos)) + ", \"masks\": [";
    for (std::size_t i = 0; i < masks.size(); ++i)
        payload += (i ? ", " : "") + jsonString(masks[i]);
    payload += "], \"problems\": [";
    for (std::size_t i = 0; i < in.problems.size(); ++i)
        payload += std::string(i ? ", " : "") + "{\"line\": " + std::to_string(in.problems[i].line) +
                   ", \"why\": " + jsonString(withoutQuotes(in.problems[i].why)) + "}";
    payload += "]}";
    const std::string name = o.name.empty() ? o.file.substr(o.file.rfind('/') + 1) : o.name;
    if (!traffic.save(name, in.records, payload))
        return refuse("cannot store the traffic in \"" + o.project + "\": " + traffic.error(), RunFailed);
    std::printf("read %llu lines (%llu could not be read); stored %zu requests from %s to %s as \"%s\" in %s\n",
                static_cast<unsigned long long>(in.lines), static_cast<unsigned long long>(in.bad), in.records.size(),
                isoTime(in.records.front().atNanos).c_str(), isoTime(in.records.back().atNanos).c_str(), name.c_str(),
                o.project.c_str());
    return Passed;
}

} // namespace stampede::cli
