#include "csvtable.h"

#include "utf8.h"

#include <algorithm>
#include <cstdio>
#include <unordered_set>

namespace stampede {

namespace {

// Reads one record starting at `pos`; fills `fields`; advances `pos` and `line`.
bool readRecord(std::string_view text, std::size_t& pos, char delim, std::vector<std::string>& fields,
                std::size_t& line, std::string& error)
{
    fields.clear();
    std::string field;
    bool quoted = false;
    bool fieldStarted = false;
    const std::size_t startLine = line;
    while (pos < text.size()) {
        const char c = text[pos];
        if (quoted) {
            if (c == '"') {
                if (pos + 1 < text.size() && text[pos + 1] == '"') {
                    field.push_back('"');
                    pos += 2;
                    continue;
                }
                quoted = false;
                ++pos;
                // after a closing quote only a delimiter or the end of the record may follow
                if (pos < text.size() && text[pos] != delim && text[pos] != '\n' && text[pos] != '\r') {
                    error = "line " + std::to_string(line) + ": text after a closing quote";
                    return false;
                }
                continue;
            }
            if (c == '\n')
                ++line;
            field.push_back(c);
            ++pos;
            continue;
        }
        if (c == '"' && !fieldStarted && field.empty()) {
            quoted = true;
            fieldStarted = true;
            ++pos;
            continue;
        }
        if (c == delim) {
            fields.push_back(std::move(field));
            field.clear();
            fieldStarted = false;
            ++pos;
            continue;
        }
        if (c == '\r' || c == '\n') {
            if (c == '\r' && pos + 1 < text.size() && text[pos + 1] == '\n')
                ++pos;
            ++pos;
            ++line;
            fields.push_back(std::move(field));
            return true;
        }
        field.push_back(c);
        fieldStarted = true;
        ++pos;
    }
    if (quoted) {
        error = "line " + std::to_string(startLine) + ": a quoted field is not closed";
        return false;
    }
    fields.push_back(std::move(field));
    return true;
}

} // namespace

bool CsvTable::parse(std::string_view text, char delimiter, std::string& error)
{
    m_columns.clear();
    m_cells.clear();
    m_rowCount = 0;
    if (text.size() >= 3 && text.substr(0, 3) == "\xEF\xBB\xBF")
        text.remove_prefix(3); // UTF-8 byte order mark
    // a value goes into requests and the run's record as text: not UTF-8 is bad input, named where
    if (const std::size_t bad = invalidUtf8(text); bad != std::string_view::npos) {
        const std::string_view before = text.substr(0, bad);
        const std::size_t line = 1 + std::size_t(std::count(before.begin(), before.end(), '\n'));
        const std::size_t lastBreak = before.rfind('\n');
        const std::size_t column = bad - (lastBreak == std::string_view::npos ? 0 : lastBreak + 1) + 1;
        char hex[8];
        std::snprintf(hex, sizeof hex, "0x%02X", static_cast<unsigned char>(text[bad]));
        error = "line " + std::to_string(line) + ", column " + std::to_string(column) + ": not UTF-8 (byte " + hex +
                "); save the file as UTF-8";
        return false;
    }
    std::size_t pos = 0;
    std::size_t line = 1;
    std::vector<std::string> fields;
    if (text.empty()) {
        error = "the file is empty: a header row naming the columns is needed";
        return false;
    }
    if (!readRecord(text, pos, delimiter, fields, line, error))
        return false;
    if (fields.size() > kMaxColumns) {
        error = "line 1: " + std::to_string(fields.size()) + " columns, at most " + std::to_string(kMaxColumns);
        return false;
    }
    std::unordered_set<std::string_view> seen;
    for (std::size_t i = 0; i < fields.size(); ++i) {
        if (fields[i].empty()) {
            error = "line 1: column " + std::to_string(i + 1) + " has no name in the header row";
            return false;
        }
        if (!seen.insert(fields[i]).second) {
            error = "line 1: column name \"" + fields[i] + "\" appears twice";
            return false;
        }
    }
    m_columns = fields;
    while (pos < text.size()) {
        const std::size_t recordLine = line;
        if (!readRecord(text, pos, delimiter, fields, line, error))
            return false;
        if (fields.size() == 1 && fields[0].empty())
            continue; // blank line
        if (fields.size() != m_columns.size()) {
            error = "line " + std::to_string(recordLine) + ": " + std::to_string(fields.size()) +
                    (fields.size() == 1 ? " field" : " fields") + ", the header has " +
                    std::to_string(m_columns.size());
            return false;
        }
        for (auto& f : fields)
            m_cells.push_back(std::move(f));
        ++m_rowCount;
    }
    return true;
}

int CsvTable::columnIndex(std::string_view name) const
{
    for (std::size_t i = 0; i < m_columns.size(); ++i)
        if (m_columns[i] == name)
            return int(i);
    return -1;
}

std::string csvField(std::string_view s)
{
    if (s.find_first_of(",\"\r\n") == std::string_view::npos && s.substr(0, 3) != "\xEF\xBB\xBF")
        return std::string(s);
    std::string out = "\"";
    for (char c : s)
        out += c == '"' ? std::string("\"\"") : std::string(1, c);
    return out + "\"";
}

} // namespace stampede
