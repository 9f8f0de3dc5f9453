#include "newmanfiles.h"

#include "importparts.h"

#include "core/csvtable.h"
#include "core/utf8.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <map>

namespace stampede {

namespace {

bool fromUtf16(const std::string& bytes, bool little, std::string& out, std::string& error)
{
    if (bytes.size() % 2) {
        error = "UTF-16 text of an odd number of bytes (cut short)";
        return false;
    }
    auto unit = [&](std::size_t i) {
        const auto a = std::uint8_t(bytes[i]), b = std::uint8_t(bytes[i + 1]);
        return std::uint32_t(little ? a | (b << 8) : (a << 8) | b);
    };
    out.clear();
    for (std::size_t i = 2; i < bytes.size(); i += 2) {
        std::uint32_t c = unit(i);
        if (c >= 0xD800 && c < 0xDC00 && i + 3 < bytes.size() && unit(i + 2) >= 0xDC00 && unit(i + 2) < 0xE000) {
            c = 0x10000 + ((c - 0xD800) << 10) + (unit(i + 2) - 0xDC00);
            i += 2;
        } else if (c >= 0xD800 && c < 0xE000) {
            error = "UTF-16 text with an unpaired surrogate at byte " + std::to_string(i);
            return false;
        }
        appendUtf8(out, c);
    }
    return true;
}

// A value of a variable export, as a request sends it: a string as it is, others as JSON.
std::string valueText(const Json& v)
{
    return v.is_null() ? std::string() : textOf(v);
}

bool variableList(const Json& values, const std::string& where, PostmanVariables& out, std::string& error)
{
    for (std::size_t i = 0; i < values.size(); ++i) {
        const Json& v = values[i];
        const std::string at = where + "[" + std::to_string(i) + "]";
        if (!v.is_object()) {
            error = at + " is not an object with a key and a value";
            return false;
        }
        const Json& key = member(v, "key");
        if (!key.is_string() || key.get<std::string>().empty()) {
            error = at + " has no key";
            return false;
        }
        const std::string name = key.get<std::string>();
        const Json &enabled = member(v, "enabled"), &disabled = member(v, "disabled"); // either spelling
        if ((enabled.is_boolean() && !enabled.get<bool>()) || (disabled.is_boolean() && disabled.get<bool>())) {
            out.disabled.push_back(name);
            continue;
        }
        // a key given twice: the last one (Postman's)
        for (auto it = out.values.begin(); it != out.values.end(); ++it)
            if (it->first == name) {
                out.values.erase(it);
                break;
            }
        out.values.emplace_back(name, valueText(member(v, "value")));
        if (str(v, "type") == "secret")
            out.secrets.push_back(name);
    }
    return true;
}

// newman's CSV (csv-parse with trim, relax and relax_column_count): fields
// trimmed around the delimiter, a quote inside an unquoted field taken as it
// is, a row of fewer fields lacking the rest; an unquoted number is a number.
struct Cell
{
    std::string text;
    bool quoted = false;
};

bool isBlank(char c)
{
    return c == ' ' || c == '\t';
}

// One field from text[i] on: blanks before it skipped, a quoted part read ("" a quote, line breaks kept), then
// the rest up to the delimiter (an unquoted field, or what follows a closing quote: relax), its blanks at the
// end trimmed; false when a quote is not closed.
bool readField(const std::string& text, std::size_t& i, std::size_t& line, Cell& cell)
{
    while (i < text.size() && isBlank(text[i]))
        ++i;
    if (i < text.size() && text[i] == '"') {
        cell.quoted = true;
        for (++i;; ++i) {
            if (i >= text.size())
                return false;
            if (text[i] != '"') {
                line += text[i] == '\n';
                cell.text += text[i];
            } else if (i + 1 < text.size() && text[i + 1] == '"') {
                cell.text += '"';
                ++i;
            } else {
                ++i;
                break;
            }
        }
    }
    std::string rest;
    while (i < text.size() && text[i] != ',' && text[i] != '\n' && text[i] != '\r')
        rest += text[i++];
    while (!rest.empty() && isBlank(rest.back()))
        rest.pop_back();
    cell.text += rest;
    return true;
}

bool csvRows(const std::string& text, std::vector<std::vector<Cell>>& rows, std::string& error)
{
    std::size_t i = 0, line = 1;
    while (i < text.size()) {
        std::vector<Cell> row;
        const std::size_t rowLine = line;
        for (;; ++i) { // a field, then another after each comma
            if (!readField(text, i, line, row.emplace_back())) {
                error = "line " + std::to_string(rowLine) + ": a quoted field is not closed";
                return false;
            }
            if (i >= text.size() || text[i] != ',')
                break;
        }
        if (i < text.size() && text[i] == '\r')
            ++i;
        if (i < text.size() && text[i] == '\n')
            ++i, ++line;
        if (!(row.size() == 1 && row[0].text.empty() && !row[0].quoted)) // an empty line
            rows.push_back(std::move(row));
    }
    return true;
}

// newman's csvAutoParse: an unquoted field that reads as a number is that number (its JSON text).
bool numberText(const std::string& s, std::string& out)
{
    std::size_t i = s[0] == '+' || s[0] == '-' ? 1 : 0, digits = 0;
    for (; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
        ++digits;
    if (i < s.size() && s[i] == '.')
        for (++i; i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])); ++i)
            ++digits;
    if (!digits)
        return false;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        std::size_t j = i + 1 + (i + 1 < s.size() && (s[i + 1] == '+' || s[i + 1] == '-'));
        if (j >= s.size())
            return false;
        for (; j < s.size() && std::isdigit(static_cast<unsigned char>(s[j])); ++j) {
        }
        i = j;
    }
    if (i != s.size())
        return false;
    const double d = std::strtod(s.c_str(), nullptr);
    if (!std::isfinite(d))
        return false;
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, d);
    out.assign(buf, r.ptr);
    if (out == "-0")
        out = "0";
    return true;
}

// A cell of the table: an empty one quoted (a row of one empty cell is no empty line).
std::string cellText(const std::string& s)
{
    return s.empty() ? std::string("\"\"") : csvField(s);
}

// The rows as the CSV a source reads, with a last column "$types": a letter a
// column, 's' its cell is text, 'j' JSON (a number, a boolean, an object...),
// 'u' the row lacks it.
void writeTable(IterationData& out, const std::vector<std::vector<std::pair<std::string, char>>>& rows)
{
    out.csv.clear();
    for (const auto& c : out.columns)
        out.csv += cellText(c) + ",";
    out.csv += std::string(kTypesColumn) + "\n";
    for (const auto& row : rows) {
        std::string types;
        for (std::size_t c = 0; c < out.columns.size(); ++c) {
            const bool has = c < row.size() && row[c].second != 'u';
            out.csv += cellText(has ? row[c].first : std::string()) + ",";
            types += has ? row[c].second : 'u';
        }
        out.csv += types + "\n";
    }
    out.rows = rows.size();
}

bool csvData(const std::string& text, IterationData& out, std::string& error)
{
    std::vector<std::vector<Cell>> rows;
    if (!csvRows(text, rows, error))
        return false;
    if (rows.empty()) {
        error = "no header row";
        return false;
    }
    std::vector<std::vector<std::pair<std::string, char>>> table;
    if (rows[0].size() > CsvTable::kMaxColumns) {
        error = "more than " + std::to_string(CsvTable::kMaxColumns) + " columns";
        return false;
    }
    // a name given twice is one column, the last field of the name (a row read as an object, as newman's);
    // a column named as the types' column is left out
    constexpr std::size_t kLeftOut = std::size_t(-1);
    std::vector<std::size_t> at(rows[0].size(), kLeftOut);
    std::map<std::string, std::size_t> index;
    for (std::size_t c = 0; c < rows[0].size(); ++c) {
        const std::string& name = rows[0][c].text;
        if (name.empty()) {
            error = "line 1: a column without a name";
            return false;
        }
        if (name == kTypesColumn)
            continue;
        const auto [it, added] = index.emplace(name, out.columns.size());
        if (added)
            out.columns.push_back(name);
        at[c] = it->second;
    }
    if (out.columns.empty()) {
        error = "line 1: no column of a name that can be read";
        return false;
    }
    for (std::size_t r = 1; r < rows.size(); ++r) {
        auto& row = table.emplace_back(out.columns.size(), std::pair(std::string(), 'u'));
        for (std::size_t c = 0; c < rows[r].size() && c < at.size(); ++c) {
            if (at[c] == kLeftOut)
                continue;
            std::string number;
            const Cell& cell = rows[r][c];
            if (!cell.quoted && !cell.text.empty() && numberText(cell.text, number))
                row[at[c]] = {number, 'j'};
            else
                row[at[c]] = {cell.text, 's'};
        }
    }
    writeTable(out, table);
    return true;
}

bool jsonData(const std::string& text, IterationData& out, std::string& error)
{
    Json root;
    ImportNote why;
    if (!parseJson(text, root, why)) {
        error = why.text();
        return false;
    }
    if (!root.is_array()) {
        error = "a JSON data file is an array of objects, a row an iteration";
        return false;
    }
    std::map<std::string, std::size_t> index;
    for (std::size_t r = 0; r < root.size(); ++r) {
        if (!root[r].is_object()) {
            error = "row " + std::to_string(r + 1) + " is not an object";
            return false;
        }
        for (const auto& [key, value] : root[r].items())
            if (!key.empty() && key != kTypesColumn && // "": no name reaches it
                index.emplace(key, out.columns.size()).second)
                out.columns.push_back(key);
    }
    if (out.columns.size() > CsvTable::kMaxColumns) {
        error = "more than " + std::to_string(CsvTable::kMaxColumns) + " names";
        return false;
    }
    if (out.columns.empty() && !root.empty()) {
        error = "no row has a named value";
        return false;
    }
    std::vector<std::vector<std::pair<std::string, char>>> table;
    for (const Json& row : root) {
        std::vector<std::pair<std::string, char>> cells(out.columns.size(), {std::string(), 'u'});
        for (const auto& [key, value] : row.items())
            if (!key.empty() && key != kTypesColumn)
                cells[index[key]] =
                    value.is_string() ? std::pair(value.get<std::string>(), 's') : std::pair(dumpJson(value), 'j');
        table.push_back(std::move(cells));
    }
    writeTable(out, table);
    return true;
}

} // namespace

bool textOfFile(const std::string& bytes, std::string& out, std::string& error)
{
    if (bytes.size() >= 2 && std::uint8_t(bytes[0]) == 0xFF && std::uint8_t(bytes[1]) == 0xFE)
        return fromUtf16(bytes, true, out, error);
    if (bytes.size() >= 2 && std::uint8_t(bytes[0]) == 0xFE && std::uint8_t(bytes[1]) == 0xFF)
        return fromUtf16(bytes, false, out, error);
    out = bytes.compare(0, 3, "\xEF\xBB\xBF") == 0 ? bytes.substr(3) : bytes;
    if (const std::size_t bad = invalidUtf8(out); bad != std::string::npos) {
        char byte[8];
        std::snprintf(byte, sizeof byte, "0x%02X", unsigned(std::uint8_t(out[bad])));
        error = std::string("not UTF-8 (byte ") + byte + " at " + std::to_string(bad) +
                "): save the file as UTF-8 or UTF-16 with its byte order mark";
        return false;
    }
    return true;
}

bool readPostmanVariables(const std::string& bytes, PostmanVariables& out, std::string& error)
{
    out = {};
    std::string text;
    if (!textOfFile(bytes, text, error))
        return false;
    Json root;
    ImportNote why;
    if (!parseJson(text, root, why)) {
        error = why.text();
        return false;
    }
    if (root.is_array())
        return variableList(root, "the values", out, error);
    if (!root.is_object() || !member(root, "values").is_array()) {
        error = "not a Postman environment or globals export (an object with \"values\": [{\"key\", \"value\"}])";
        return false;
    }
    out.name = str(root, "name");
    return variableList(member(root, "values"), "values", out, error);
}

bool readIterationData(const std::string& bytes, const std::string& fileName, IterationData& out, std::string& error)
{
    out = {};
    std::string text;
    if (!textOfFile(bytes, text, error))
        return false;
    const std::size_t first = text.find_first_not_of(" \t\r\n");
    const bool json = (first != std::string::npos && text[first] == '[') ||
                      (fileName.size() >= 5 && fileName.compare(fileName.size() - 5, 5, ".json") == 0);
    if (!(json ? jsonData(text, out, error) : csvData(text, out, error)))
        return false;
    if (out.rows == 0) {
        error = json ? "the array has no rows" : "a header row but no data rows";
        return false;
    }
    return true;
}

} // namespace stampede
