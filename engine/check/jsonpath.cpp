#include "jsonpath.h"

#include <simdjson.h>

#include <cstring>

namespace stampede {

namespace {

bool plainNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

void appendPointerToken(std::string& pointer, const std::string& token)
{
    pointer += '/';
    for (const char c : token) {
        if (c == '~')
            pointer += "~0";
        else if (c == '/')
            pointer += "~1";
        else
            pointer += c;
    }
}

// An object's or array's JSON text, as written.
template <typename Container> JsonReader::Outcome rawJson(simdjson::ondemand::value& v, std::string& out)
{
    Container c;
    std::string_view raw;
    if (v.get<Container>().get(c) || c.raw_json().get(raw))
        return JsonReader::Outcome::NotJson;
    out.assign(raw);
    return JsonReader::Outcome::Found;
}

} // namespace

std::optional<JsonPath> JsonPath::compile(std::string_view text, std::string& error)
{
    JsonPath p;
    p.m_text = std::string(text);
    auto fail = [&](std::size_t at, const std::string& why) {
        error = "\"" + std::string(text) + "\" is not a JSON path: " + why + " at character " + std::to_string(at + 1);
        return std::nullopt;
    };
    if (text.empty() || text[0] != '$')
        return fail(0, "it starts with $");
    std::size_t i = 1;
    while (i < text.size()) {
        Segment s;
        if (text[i] == '.') {
            if (i + 1 < text.size() && text[i + 1] == '.')
                return fail(i, "recursive descent (..) is not supported");
            std::size_t j = i + 1;
            while (j < text.size() && plainNameChar(text[j]))
                ++j;
            if (j == i + 1)
                return fail(i + 1, text.size() > i + 1 && text[i + 1] == '*' ? "wildcards are not supported"
                                                                             : "a member name is expected");
            s.name = std::string(text.substr(i + 1, j - i - 1));
            i = j;
        } else if (text[i] == '[') {
            if (i + 1 >= text.size())
                return fail(i, "an unclosed [");
            const char q = text[i + 1];
            if (q == '\'' || q == '"') {
                std::size_t j = i + 2;
                for (; j < text.size() && text[j] != q; ++j) {
                    if (text[j] == '\\') {
                        if (++j >= text.size())
                            break;
                    }
                    s.name += text[j];
                }
                if (j + 1 >= text.size() || text[j] != q || text[j + 1] != ']')
                    return fail(i, "an unclosed quoted name");
                i = j + 2;
            } else {
                std::size_t j = i + 1;
                std::size_t index = 0;
                while (j < text.size() && text[j] >= '0' && text[j] <= '9') {
                    if (index > (std::size_t(1) << 40))
                        return fail(i + 1, "an index too large");
                    index = index * 10 + std::size_t(text[j] - '0');
                    ++j;
                }
                if (j == i + 1 || j >= text.size() || text[j] != ']')
                    return fail(i + 1, q == '*'   ? "wildcards are not supported"
                                       : q == '-' ? "negative indexes are not supported"
                                                  : "an index (0, 1, ...) or a quoted name is expected");
                s.isIndex = true;
                s.index = index;
                i = j + 1;
            }
        } else {
            return fail(i, "\".\" or \"[\" is expected");
        }
        if (s.isIndex)
            p.m_pointer += "/" + std::to_string(s.index);
        else
            appendPointerToken(p.m_pointer, s.name);
        p.m_segments.push_back(std::move(s));
    }
    return p;
}

struct JsonReader::Impl
{
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    std::string buffer;
    std::size_t length = 0;
    bool loaded = false;
};

JsonReader::JsonReader() : m_impl(std::make_unique<Impl>()) {}
JsonReader::~JsonReader() = default;

void JsonReader::load(std::string_view body)
{
    Impl& d = *m_impl;
    d.loaded = false;
    if (body.size() > kMaxBody)
        return;
    if (d.buffer.size() < body.size() + simdjson::SIMDJSON_PADDING)
        d.buffer.resize(body.size() + simdjson::SIMDJSON_PADDING);
    if (!body.empty()) // an answer without a body may have no bytes at all (a null view): memcpy's is undefined
        std::memcpy(d.buffer.data(), body.data(), body.size());
    d.length = body.size();
    d.loaded = d.parser.iterate(d.buffer.data(), d.length, d.buffer.size()).get(d.doc) == simdjson::SUCCESS;
}

JsonReader::Outcome JsonReader::read(const JsonPath& path, std::string& value)
{
    Impl& d = *m_impl;
    if (!d.loaded)
        return Outcome::NotJson;
    if (path.segments().empty()) { // the whole document, as written
        std::string_view whole(d.buffer.data(), d.length);
        while (!whole.empty() && std::strchr(" \t\r\n", whole.front()))
            whole.remove_prefix(1);
        while (!whole.empty() && std::strchr(" \t\r\n", whole.back()))
            whole.remove_suffix(1);
        simdjson::ondemand::json_type type;
        if (d.doc.rewind(), d.doc.type().get(type) != simdjson::SUCCESS)
            return Outcome::NotJson;
        value.assign(whole);
        return Outcome::Found;
    }
    d.doc.rewind();
    simdjson::ondemand::value v;
    const auto error = d.doc.at_pointer(path.pointer()).get(v);
    if (error == simdjson::NO_SUCH_FIELD || error == simdjson::INDEX_OUT_OF_BOUNDS ||
        error == simdjson::SCALAR_DOCUMENT_AS_VALUE || error == simdjson::INCORRECT_TYPE ||
        error == simdjson::INVALID_JSON_POINTER)
        return Outcome::Missing;
    if (error)
        return Outcome::NotJson;
    simdjson::ondemand::json_type type;
    if (v.type().get(type))
        return Outcome::NotJson;
    switch (type) {
    case simdjson::ondemand::json_type::string: {
        std::string_view s;
        if (v.get_string().get(s))
            return Outcome::NotJson;
        value.assign(s);
        return Outcome::Found;
    }
    case simdjson::ondemand::json_type::object:
        return rawJson<simdjson::ondemand::object>(v, value);
    case simdjson::ondemand::json_type::array:
        return rawJson<simdjson::ondemand::array>(v, value);
    default: { // number, true, false, null: as written
        std::string_view token = v.raw_json_token();
        while (!token.empty() && std::strchr(" \t\r\n", token.back()))
            token.remove_suffix(1);
        if (type == simdjson::ondemand::json_type::boolean) {
            bool b = false;
            if (v.get_bool().get(b))
                return Outcome::NotJson;
        } else if (type == simdjson::ondemand::json_type::null) {
            bool isNull = false;
            if (v.is_null().get(isNull) || !isNull) // "nul", "nullx": typed by their first letter only
                return Outcome::NotJson;
        } else {
            double n = 0;
            if (v.get_double().get(n))
                return Outcome::NotJson;
        }
        value.assign(token);
        return Outcome::Found;
    }
    }
    return Outcome::NotJson;
}

} // namespace stampede
