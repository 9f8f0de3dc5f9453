#pragma once
// The modules a Postman script may require (Postman's sandbox has lodash,
// moment, uuid, ajv...): Debian's node-* packages, plain JavaScript under
// /usr/share/nodejs, read as CommonJS. The root is fixed: a script names a
// module of the list, never a path; a module's own requires resolve inside
// the root (its files, its package's "browser" replacements, other packages
// there), and a file whose real path leaves the root (or Debian's
// /usr/lib/nodejs and /usr/share/javascript, where it links files) is refused.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede::script {

// Where Debian puts its node packages.
constexpr std::string_view kNodeModulesRoot = "/usr/share/nodejs";
// The largest module file read.
constexpr std::size_t kMaxModuleBytes = 8u << 20;

// The modules a script may require by name, each with the Debian package that
// holds it.
struct SandboxModule
{
    std::string_view name, package;
};
const std::vector<SandboxModule>& sandboxModules();

struct ModuleFile
{
    std::string path; // real, under the root
    std::string dir;  // its folder: where its relative requires start
};

// `spec` required from a module in `fromDir` ("" : a user's script, which may
// name only a sandbox module). nullopt with `error` (not in the list, not
// installed, a path out of the root, a node built-in it needs).
std::optional<ModuleFile> resolveModule(std::string_view spec, std::string_view fromDir, std::string& error);
// Reads a resolved module's source (at most kMaxModuleBytes); false with `error`.
bool readModule(const ModuleFile& file, std::string& source, std::string& error);

} // namespace stampede::script
