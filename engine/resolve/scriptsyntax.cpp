#include "scriptsyntax.h"

#include "script/jsruntime.h"

#include <algorithm>
#include <cstdlib>

namespace stampede {

namespace {

// "steps[1].testScript:3: SyntaxError: ..." as "line 3: SyntaxError: ...";
// an error found past the script's end (an unclosed brace: at the wrapper's
// closing line) is at its last line.
std::string withoutName(const std::string& error, const std::string& name, std::string_view source,
                        unsigned* line = nullptr)
{
    if (error.compare(0, name.size() + 1, name + ":") != 0)
        return error;
    const std::string rest = error.substr(name.size() + 1);
    const std::size_t colon = rest.find(':');
    const auto last = unsigned(std::count(source.begin(), source.end(), '\n') + 1);
    const auto at = std::min(unsigned(std::strtoul(rest.c_str(), nullptr, 10)), last);
    if (line)
        *line = at;
    return "line " + std::to_string(at) + (colon == std::string::npos ? rest : rest.substr(colon));
}

} // namespace

bool checkScriptSyntax(const v1::Scenario& scenario, std::vector<PlanError>& errors)
{
    bool ok = true;
    for (int i = 0; i < scenario.steps_size(); ++i) {
        const v1::Step& st = scenario.steps(i);
        const std::string field = "steps[" + std::to_string(i) + "].";
        for (const auto& [source, name] : {std::pair{&st.pre_request_script(), field + "preRequestScript"},
                                           std::pair{&st.test_script(), field + "testScript"}}) {
            if (source->empty())
                continue;
            if (const std::string error =
                    script::JsRuntime::thisThread().syntaxError(script::pmScriptSource(*source), name);
                !error.empty()) {
                errors.push_back({name, withoutName(error, name, *source)});
                ok = false;
            }
        }
    }
    return ok;
}

std::string scriptSyntaxError(const std::string& source, unsigned* line)
{
    const std::string error = script::JsRuntime::thisThread().syntaxError(script::pmScriptSource(source), "script");
    return error.empty() ? error : withoutName(error, "script", source, line);
}

} // namespace stampede
