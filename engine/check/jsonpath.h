#pragma once
// JSON paths for checks and extraction: compiled once (at plan time), read
// from an answer's body on the worker. The syntax, a small JSONPath subset:
//
//   $                  the whole document
//   $.name  $.a.b      an object's member (letters, digits, _ and -)
//   $['a.b']  $["x"]   a member whose name has other characters (\' \" \\ escape)
//   $[0]  $.items[2]   an array's element, from 0
//
// Wildcards, slices, filters and recursive descent are refused with a
// message: a check reads one value. Reading uses simdjson's On-Demand API,
// which walks only what the path needs (it does not build the document).
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

class JsonPath
{
public:
    struct Segment
    {
        bool isIndex = false;
        std::string name;    // a member's name
        std::size_t index{}; // an element's index
    };
    // Returns nothing and `error` (naming the position) when `text` is not a path.
    static std::optional<JsonPath> compile(std::string_view text, std::string& error);
    const std::string& text() const { return m_text; }
    const std::vector<Segment>& segments() const { return m_segments; }
    // The same place as an RFC 6901 JSON Pointer ("" for the whole document).
    const std::string& pointer() const { return m_pointer; }

private:
    std::string m_text, m_pointer;
    std::vector<Segment> m_segments;
};

// Reads paths from one body at a time. One per worker thread: it keeps its
// parser and a padded copy of the body between answers (no allocation once
// warm). Not thread-safe.
class JsonReader
{
public:
    JsonReader();
    ~JsonReader();
    JsonReader(const JsonReader&) = delete;
    JsonReader& operator=(const JsonReader&) = delete;

    enum class Outcome
    {
        Found,
        Missing, // no such member or element, or a member asked of a non-object
        NotJson, // the body is not JSON (or not where the path goes)
    };
    // Takes `body` for the reads that follow (a copy into the padded buffer).
    void load(std::string_view body);
    // The value at `path` in the loaded body. On Found, `value` is a string's
    // content (unescaped), a number's text as written, true, false or null, or
    // an object's or array's JSON text.
    Outcome read(const JsonPath& path, std::string& value);

    // The longest body read (longer ones are NotJson; 64 MiB).
    static constexpr std::size_t kMaxBody = 64u << 20;

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace stampede
