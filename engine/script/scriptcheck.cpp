#include "scriptcheck.h"

#include "nodemodules.h"

#include <algorithm>
#include <cctype>

namespace stampede::script {

namespace {

bool identChar(char c)
{
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
}

// Whether `word` starts at `at` as a whole dotted name (spaces allowed around the dots).
std::size_t matchName(std::string_view s, std::size_t at, std::string_view first, std::string_view second)
{
    if (at > 0 && (identChar(s[at - 1]) || s[at - 1] == '.'))
        return 0;
    if (s.substr(at, first.size()) != first)
        return 0;
    std::size_t i = at + first.size();
    if (second.empty())
        return i < s.size() && identChar(s[i]) ? 0 : i - at;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
    if (i >= s.size() || s[i] != '.')
        return 0;
    ++i;
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
    if (s.substr(i, second.size()) != second || (i + second.size() < s.size() && identChar(s[i + second.size()])))
        return 0;
    return i + second.size() - at;
}

// After require: `(` (or `open`), a string literal; its text (nullopt-like: empty when not a literal).
std::string requiredModule(std::string_view s, std::size_t i, char open = '(')
{
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
    if (i >= s.size() || s[i] != open)
        return {};
    ++i;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
        ++i;
    if (i >= s.size() || (s[i] != '\'' && s[i] != '"' && s[i] != '`'))
        return "?";
    const char quote = s[i++];
    std::string name;
    while (i < s.size() && s[i] != quote && s[i] != '\n')
        name += s[i++];
    return name;
}

// Walks the code of `s`, skipping comments and string literals: `at(i, line)`
// at each position of code returns how many characters it took (0: one).
template <typename At> void eachCode(std::string_view s, At at)
{
    unsigned line = 1;
    for (std::size_t i = 0; i < s.size();) {
        const char c = s[i];
        if (c == '\n') {
            ++line;
            ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '/') { // a line comment
            while (i < s.size() && s[i] != '\n')
                ++i;
        } else if (c == '/' && i + 1 < s.size() && s[i + 1] == '*') { // a block comment
            i += 2;
            while (i < s.size() && !(s[i] == '*' && i + 1 < s.size() && s[i + 1] == '/'))
                line += s[i++] == '\n';
            i += 2;
        } else if (c == '\'' || c == '"' || c == '`') { // a string: what it says is not called
            const char quote = c;
            for (++i; i < s.size() && s[i] != quote; ++i) {
                if (s[i] == '\\')
                    ++i;
                else if (s[i] == '\n')
                    ++line;
            }
            ++i;
        } else {
            const std::size_t n = at(i, line);
            i += n ? n : 1;
        }
    }
}

// After a call's name: `(` (or `open`: `[` of tests["name"]) and a plain string literal (no escapes, no ${});
// false when not.
bool literalArgument(std::string_view s, std::size_t i, std::string& out, char open = '(')
{
    out = requiredModule(s, i, open);
    if (out.empty() || out == "?" || out.find('\\') != std::string::npos || out.find("${") != std::string::npos)
        return false;
    while (i < s.size() && s[i] != open)
        ++i;
    while (++i < s.size() && std::isspace(static_cast<unsigned char>(s[i])))
        ;
    std::size_t close = i + 1 + out.size();
    if (!(close < s.size() && s[close] == s[i]))
        return false;
    // the whole argument: a name made of a literal and more ("a" + x) is an expression's
    while (++close < s.size() && std::isspace(static_cast<unsigned char>(s[close])))
        ;
    return close < s.size() && (s[close] == ',' || s[close] == (open == '[' ? ']' : ')'));
}

} // namespace

std::vector<ScriptNote> unsupportedCalls(std::string_view s)
{
    std::vector<ScriptNote> out;
    eachCode(s, [&](std::size_t i, unsigned line) -> std::size_t {
        if (std::size_t r = matchName(s, i, "require", {})) {
            const std::string module = requiredModule(s, i + r);
            std::string why;
            const auto& list = sandboxModules();
            const bool listed = std::any_of(list.begin(), list.end(), [&](const auto& m) { return m.name == module; });
            if (module.empty() || module == "crypto-js" || module == "btoa" || module == "atob" || module == "tv4" ||
                module == "csv-parse/lib/sync" || module == "csv-parse/sync")
                return r;
            if (!listed)
                out.push_back({line, "require('" + module + "')"});
            else if (!resolveModule(module, {}, why))
                out.push_back({line, "require('" + module + "') (" + why.substr(why.find(": ") + 2) + ")"});
            return r;
        }
        return 0;
    });
    return out;
}

ScriptNames scriptNames(std::string_view s)
{
    ScriptNames out;
    const auto add = [](std::vector<std::string>& to, std::string name) {
        if (std::find(to.begin(), to.end(), name) == to.end())
            to.push_back(std::move(name));
    };
    static constexpr std::string_view kScopes[] = {"environment", "collectionVariables", "variables", "globals"};
    eachCode(s, [&](std::size_t i, unsigned) -> std::size_t {
        std::string name;
        if (std::size_t n = matchName(s, i, "pm", "test")) {
            if (literalArgument(s, i + n, name))
                add(out.tests, name);
            else
                out.otherTests = true;
            return n;
        }
        if (std::size_t n = matchName(s, i, "tests", {})) { // Postman's older API: tests["name"] = passed
            std::size_t k = i + n;
            while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k])))
                ++k;
            if (k < s.size() && s[k] == '[') {
                if (literalArgument(s, i + n, name, '['))
                    add(out.tests, name);
                else
                    out.otherTests = true;
            }
            return n;
        }
        for (const std::string_view legacy : {"setEnvironmentVariable", "setGlobalVariable"})
            if (std::size_t n = matchName(s, i, "postman", legacy)) {
                if (literalArgument(s, i + n, name))
                    add(out.sets, name);
                return n;
            }
        for (const std::string_view scope : kScopes)
            if (std::size_t n = matchName(s, i, "pm", scope)) {
                std::size_t k = i + n;
                while (k < s.size() && std::isspace(static_cast<unsigned char>(s[k])))
                    ++k;
                if (k < s.size() && s[k] == '.' && s.substr(k + 1, 3) == "set" &&
                    !(k + 4 < s.size() && identChar(s[k + 4])) && literalArgument(s, k + 4, name))
                    add(out.sets, name);
                return n;
            }
        return 0;
    });
    return out;
}

} // namespace stampede::script
