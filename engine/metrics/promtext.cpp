#include "promtext.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

namespace stampede {

namespace {

bool nameStart(char c)
{
    return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || c == ':';
}

bool nameChar(char c)
{
    return nameStart(c) || std::isdigit(static_cast<unsigned char>(c));
}

void skipBlanks(std::string_view s, std::size_t& i)
{
    while (i < s.size() && (s[i] == ' ' || s[i] == '\t'))
        ++i;
}

bool parseName(std::string_view s, std::size_t& i, std::string& out)
{
    if (i >= s.size() || !nameStart(s[i]))
        return false;
    const std::size_t start = i;
    while (i < s.size() && nameChar(s[i]))
        ++i;
    out.assign(s.substr(start, i - start));
    return true;
}

// "value" with \\ \" \n escapes, from the opening quote.
bool parseQuoted(std::string_view s, std::size_t& i, std::string& out)
{
    if (i >= s.size() || s[i] != '"')
        return false;
    out.clear();
    for (++i; i < s.size(); ++i) {
        if (s[i] == '"') {
            ++i;
            return true;
        }
        if (s[i] == '\\') {
            if (++i >= s.size())
                return false;
            out += s[i] == 'n' ? '\n' : s[i];
        } else {
            out += s[i];
        }
    }
    return false;
}

bool parseLabels(std::string_view s, std::size_t& i, PromSample& out)
{
    ++i; // '{'
    for (;;) {
        skipBlanks(s, i);
        if (i < s.size() && s[i] == '}') {
            ++i;
            return true;
        }
        std::string name, value;
        if (!parseName(s, i, name))
            return false;
        skipBlanks(s, i);
        if (i >= s.size() || s[i] != '=')
            return false;
        ++i;
        skipBlanks(s, i);
        if (!parseQuoted(s, i, value))
            return false;
        out.labels.emplace_back(std::move(name), std::move(value));
        skipBlanks(s, i);
        if (i < s.size() && s[i] == ',')
            ++i;
        else if (i >= s.size() || s[i] != '}')
            return false;
    }
}

bool parseValue(std::string_view text, double& out)
{
    if (text == "NaN") {
        out = std::numeric_limits<double>::quiet_NaN();
        return true;
    }
    if (text == "+Inf" || text == "Inf" || text == "-Inf") {
        out = text[0] == '-' ? -std::numeric_limits<double>::infinity() : std::numeric_limits<double>::infinity();
        return true;
    }
    if (!text.empty() && text[0] == '+')
        text.remove_prefix(1);
    const auto r = std::from_chars(text.data(), text.data() + text.size(), out);
    return r.ec == std::errc() && r.ptr == text.data() + text.size();
}

bool parseLine(std::string_view line, PromSample& out)
{
    std::size_t i = 0;
    skipBlanks(line, i);
    if (!parseName(line, i, out.name))
        return false;
    if (i < line.size() && line[i] == '{' && !parseLabels(line, i, out))
        return false;
    if (i >= line.size() || (line[i] != ' ' && line[i] != '\t'))
        return false;
    skipBlanks(line, i);
    std::size_t end = i;
    while (end < line.size() && line[end] != ' ' && line[end] != '\t')
        ++end;
    if (!parseValue(line.substr(i, end - i), out.value))
        return false;
    skipBlanks(line, end);
    if (end == line.size())
        return true;
    std::int64_t timestamp = 0; // optional milliseconds, unused
    const auto r = std::from_chars(line.data() + end, line.data() + line.size(), timestamp);
    return r.ec == std::errc() && r.ptr == line.data() + line.size();
}

} // namespace

PromParse parsePromText(std::string_view text)
{
    PromParse out;
    std::size_t lineNo = 0;
    for (std::size_t start = 0; start < text.size();) {
        std::size_t end = text.find('\n', start);
        if (end == std::string_view::npos)
            end = text.size();
        std::string_view line = text.substr(start, end - start);
        start = end + 1;
        ++lineNo;
        if (!line.empty() && line.back() == '\r')
            line.remove_suffix(1);
        std::size_t first = 0;
        skipBlanks(line, first);
        if (first == line.size() || line[first] == '#')
            continue;
        PromSample s;
        if (!parseLine(line, s)) {
            if (!out.badLines++)
                out.firstBadLine = lineNo;
            continue;
        }
        if (out.samples.size() < kMaxPromSamples)
            out.samples.push_back(std::move(s));
    }
    return out;
}

std::optional<double> promValue(const PromParse& parsed, std::string_view name,
                                const std::vector<std::pair<std::string, std::string>>& labels)
{
    std::optional<double> sum;
    for (const auto& s : parsed.samples) {
        if (s.name != name)
            continue;
        const bool all = std::all_of(labels.begin(), labels.end(), [&](const auto& want) {
            return std::find(s.labels.begin(), s.labels.end(), want) != s.labels.end();
        });
        if (all)
            sum = sum.value_or(0) + s.value;
    }
    return sum;
}

} // namespace stampede
