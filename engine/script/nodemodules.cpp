#include "nodemodules.h"

#include <nlohmann/json.hpp>

#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace stampede::script {

namespace {

// Node's own modules: a package that needs one of them does not run here.
constexpr std::string_view kNodeBuiltins[] = {
    "assert", "buffer",      "child_process", "crypto",         "events", "fs",  "http", "https", "net", "os",
    "path",   "querystring", "stream",        "string_decoder", "timers", "tls", "url",  "util",  "zlib"};

bool isFile(const std::string& path)
{
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool isDir(const std::string& path)
{
    struct stat st;
    return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

// The real path of `path`, when it lies under the root (Debian links some
// packages' files to /usr/lib/nodejs or /usr/share/javascript, as much the system's).
std::optional<std::string> underRoot(const std::string& path)
{
    char buf[PATH_MAX];
    if (!::realpath(path.c_str(), buf))
        return std::nullopt;
    const std::string real = buf;
    for (const std::string_view root :
         {kNodeModulesRoot, std::string_view("/usr/lib/nodejs"), std::string_view("/usr/share/javascript")})
        if (real.size() > root.size() && real.compare(0, root.size(), root) == 0 && real[root.size()] == '/')
            return real;
    return std::nullopt;
}

std::string dirOf(const std::string& path)
{
    return path.substr(0, path.rfind('/'));
}

// "a/./b/../c" as "a/c"; false when it climbs above its start.
bool normalize(const std::string& path, std::string& out)
{
    std::vector<std::string> parts;
    std::stringstream in(path);
    for (std::string p; std::getline(in, p, '/');) {
        if (p.empty() || p == ".")
            continue;
        if (p == "..") {
            if (parts.empty())
                return false;
            parts.pop_back();
        } else {
            parts.push_back(p);
        }
    }
    out.clear();
    for (const auto& p : parts)
        out += "/" + p;
    return true;
}

nlohmann::json packageJson(const std::string& dir)
{
    std::ifstream f(dir + "/package.json");
    if (!f)
        return nlohmann::json::object();
    try {
        return nlohmann::json::parse(f);
    } catch (const nlohmann::json::exception&) {
        return nlohmann::json::object();
    }
}

// The package folder a file lies in (the nearest with a package.json, up to the root).
std::string packageOf(const std::string& file)
{
    for (std::string dir = dirOf(file); dir.size() > kNodeModulesRoot.size(); dir = dirOf(dir))
        if (isFile(dir + "/package.json"))
            return dir;
    return {};
}

// A file as node looks for it: as named, with .js or .json, or a folder's main or index.js.
std::optional<std::string> asFile(const std::string& path, int depth = 0)
{
    for (const char* ext : {"", ".js", ".json"})
        if (isFile(path + ext))
            return path + ext;
    if (depth < 2 && isDir(path)) {
        const nlohmann::json pkg = packageJson(path);
        if (pkg.contains("main") && pkg["main"].is_string())
            if (auto f = asFile(path + "/" + pkg["main"].get<std::string>(), depth + 1))
                return f;
        if (isFile(path + "/index.js"))
            return path + "/index.js";
    }
    return std::nullopt;
}

// A package's "browser" replacement of one of its files ("./dist/rng.js": "./dist/rng-browser.js"): the
// browser's form needs no node module.
std::string browserForm(const std::string& file)
{
    const std::string pkg = packageOf(file);
    if (pkg.empty())
        return file;
    const nlohmann::json browser = packageJson(pkg).value("browser", nlohmann::json());
    if (!browser.is_object())
        return file;
    for (const auto& [from, to] : browser.items()) {
        std::string a, b;
        if (to.is_string() && normalize(pkg + "/" + from, a) && a == file &&
            normalize(pkg + "/" + to.get<std::string>(), b))
            return isFile(b) ? b : file;
    }
    return file;
}

} // namespace

const std::vector<SandboxModule>& sandboxModules()
{
    static const std::vector<SandboxModule> modules = {
        {"lodash", "node-lodash"}, {"moment", "node-moment"},   {"uuid", "node-uuid"},    {"ajv", "node-ajv"},
        {"xml2js", "node-xml2js"}, {"cheerio", "node-cheerio"}, {"buffer", "node-buffer"}};
    return modules;
}

std::optional<ModuleFile> resolveModule(std::string_view spec, std::string_view fromDir, std::string& error)
{
    const std::string name(spec);
    const bool relative = name.rfind("./", 0) == 0 || name.rfind("../", 0) == 0;
    if (fromDir.empty()) { // a user's script: a sandbox module by its name
        const auto& list = sandboxModules();
        const auto it = std::find_if(list.begin(), list.end(), [&](const SandboxModule& m) { return m.name == name; });
        if (it == list.end()) {
            error = "require('" + name +
                    "'): not a module of the sandbox (it has crypto-js, btoa, atob, tv4, csv-parse/lib/sync";
            for (const auto& m : list)
                error += ", " + std::string(m.name);
            error += ")";
            return std::nullopt;
        }
        if (!isDir(std::string(kNodeModulesRoot) + "/" + name)) {
            error = "require('" + name + "'): the module is not installed on this machine (Debian's " +
                    std::string(it->package) + ": apt install " + std::string(it->package) + ")";
            return std::nullopt;
        }
    } else if (!relative) {
        // a module of node's own, unless Debian packages a plain-JavaScript form of it (node-events: events)
        const std::string base = name.substr(0, name.find('/'));
        if ((std::find(std::begin(kNodeBuiltins), std::end(kNodeBuiltins), base) != std::end(kNodeBuiltins) &&
             !isDir(std::string(kNodeModulesRoot) + "/" + base)) ||
            name.rfind("node:", 0) == 0) {
            error = "require('" + name + "'): node's own module, which the sandbox does not have";
            return std::nullopt;
        }
    }
    std::string joined;
    if (name.empty() || name.front() == '/' || name.find('\0') != std::string::npos ||
        !normalize(relative ? std::string(fromDir) + "/" + name : std::string(kNodeModulesRoot) + "/" + name, joined)) {
        error = "require('" + name + "'): not a module name";
        return std::nullopt;
    }
    const auto found = asFile(joined);
    const auto real = found ? underRoot(browserForm(*found)) : std::nullopt;
    if (!real) {
        error = "require('" + name + "'): no such module under " + std::string(kNodeModulesRoot);
        return std::nullopt;
    }
    return ModuleFile{*real, dirOf(*real)};
}

bool readModule(const ModuleFile& file, std::string& source, std::string& error)
{
    std::ifstream f(file.path, std::ios::binary);
    if (!f) {
        error = "cannot read " + file.path;
        return false;
    }
    source.assign(std::istreambuf_iterator<char>(f), {});
    if (source.size() > kMaxModuleBytes) {
        error = file.path + " is larger than " + std::to_string(kMaxModuleBytes >> 20) + " MiB";
        return false;
    }
    return true;
}

} // namespace stampede::script
