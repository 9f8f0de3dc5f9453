#pragma once
// The files newman takes beside a collection, read for a collection run
// (stampede-cli run P@COLLECTION --environment F --globals F --iteration-data F):
// Postman's export of an environment or of the globals, and an iteration data
// file (CSV with a header row, or a JSON array of objects: a row an
// iteration). Text in UTF-8 (a byte order mark skipped) or UTF-16 with its
// byte order mark, as Postman and Windows editors write them.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace stampede {

// `bytes` as UTF-8: a UTF-8 byte order mark dropped, UTF-16 (LE or BE, by its
// mark) converted; false with `error` when UTF-16 is cut or unpaired, or the
// text is neither UTF-16 nor UTF-8.
bool textOfFile(const std::string& bytes, std::string& out, std::string& error);

struct PostmanVariables
{
    std::string name;                                        // an environment's own name; empty for globals
    std::vector<std::pair<std::string, std::string>> values; // enabled ones, in the file's order
    std::vector<std::string> secrets;                        // names whose type is "secret"
    std::vector<std::string> disabled;                       // names left out ("enabled": false)
};

// An environment ({"name", "values": [{"key", "value", "enabled", "type"}]}; a
// value with "enabled": false or "disabled": true is left out, and one that is
// left out does not replace an earlier one of its key)
// or globals (that object, or its bare "values" array) export; a value that is
// not a string is taken as its JSON text. False with `error` saying what is
// wrong and where.
bool readPostmanVariables(const std::string& bytes, PostmanVariables& out, std::string& error);

// The column of the data's CSV that says each cell's type (IterationData); a
// file's own column of the name is left out.
constexpr std::string_view kTypesColumn = "$types";

struct IterationData
{
    std::string csv; // RFC 4180 text with a header row: a CSV source's inline data
    std::vector<std::string> columns;
    std::size_t rows = 0;
};

// A data file: JSON when its first character (past blanks) is '[' or `fileName`
// ends in .json, else CSV. JSON: an array of objects, the columns every key in
// order of first appearance, a value not a string as its JSON text and a key a
// row lacks as "". False with `error` (the line for CSV, the row for JSON).
bool readIterationData(const std::string& bytes, const std::string& fileName, IterationData& out, std::string& error);

} // namespace stampede
