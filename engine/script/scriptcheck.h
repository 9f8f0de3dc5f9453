#pragma once
// What a Postman script calls that Stampede does not run, found in its text
// before it runs (at import and when a run is planned), each with its line:
// require() of a module that is neither built in
// (crypto-js, btoa, atob) nor found among the sandbox's modules. Comments and
// string literals are skipped.
#include <string>
#include <string_view>
#include <vector>

namespace stampede::script {

struct ScriptNote
{
    unsigned line = 0;
    std::string what; // "require('fs')"
};

std::vector<ScriptNote> unsupportedCalls(std::string_view source);

// The names a script gives as plain string literals: its pm.test names (and
// tests["name"] of Postman's older API), and the variables it sets
// (pm.environment / collectionVariables / variables / globals .set("name",
// ...), postman.setEnvironmentVariable / setGlobalVariable), each once, in order. otherTests: some pm.test
// is named by an expression (its results are counted under the script's own
// check).
struct ScriptNames
{
    std::vector<std::string> tests;
    std::vector<std::string> sets;
    bool otherTests = false;
};
ScriptNames scriptNames(std::string_view source);

} // namespace stampede::script
