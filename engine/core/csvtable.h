#pragma once
// CSV as RFC 4180 writes it: a header row naming the columns, quoted fields
// (with "" for a quote, and line breaks inside quotes), LF or CRLF endings.
// The whole table is parsed once, up front; cells are then read without copies.
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class CsvTable
{
public:
    // The most columns a table may have (docs/command-line.md, "Limits"); parsing takes
    // time in proportion to the text, however wide.
    static constexpr std::size_t kMaxColumns = 10000;
    // Parses `text`. On failure returns false and sets `error` to a message that
    // names the line, e.g. "line 4: 2 fields, the header has 3".
    bool parse(std::string_view text, char delimiter, std::string& error);

    const std::vector<std::string>& columns() const { return m_columns; }
    std::size_t rowCount() const { return m_rowCount; }
    int columnIndex(std::string_view name) const;
    std::string_view cell(std::size_t row, std::size_t column) const
    {
        return m_cells[row * m_columns.size() + column];
    }

private:
    std::vector<std::string> m_columns;
    std::vector<std::string> m_cells; // row-major
    std::size_t m_rowCount = 0;
};

// `s` as one CSV field: quoted (a quote doubled) when it holds a comma, a
// quote or a line break, or starts with a byte order mark (which a reader
// skips at the start of a text); as it is otherwise.
std::string csvField(std::string_view s);

} // namespace stampede
