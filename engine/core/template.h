#pragma once
// `${name}` and `${name.column}` templates: compiled once into literal and
// variable segments, expanded per request into a caller-owned buffer, so that
// steady-state expansion allocates nothing once the buffer has grown.
#include "wiretext.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace stampede {

struct VarRef
{
    std::uint16_t variable = 0; // index into the run's variables
    std::int16_t column = -1;   // CSV column, or -1 for a scalar source
};

// The values that one iteration drew; looked up by reference during expansion.
class ValueLookup
{
public:
    virtual ~ValueLookup() = default;
    virtual std::string_view value(VarRef ref) const = 0;
};

// What a name in `${...}` means, decided at compile time: either a constant to
// fold into the literal text, or a reference resolved per iteration.
struct Resolution
{
    enum Kind
    {
        Unknown,
        Constant,
        Reference
    } kind = Unknown;
    std::string constant;
    VarRef ref;
    std::string error; // for Unknown: the message, e.g. "unknown variable ${userId}"
};
using Resolver = std::function<Resolution(std::string_view name)>;

class Template
{
public:
    // Compiles `text`. On failure returns false and sets `error`
    // (e.g. "unknown variable ${userId}", "unclosed ${ at offset 7").
    bool compile(std::string_view text, const Resolver& resolve, std::string& error);
    // A template of fixed text.
    static Template literal(std::string_view text)
    {
        Template t;
        t.appendLiteral(text);
        return t;
    }

    bool isConstant() const { return m_refs.empty(); }
    // Only meaningful when isConstant().
    const std::string& constantText() const { return m_literals.front(); }
    const std::vector<VarRef>& references() const { return m_refs; }

    // Appends the expansion to `out`. Each value goes in as its reference's
    // field takes it (a target's encoded; wiretext.h): the index of the first
    // reference whose value its field refuses (`out` then part-written), or -1.
    int appendTo(std::string& out, const ValueLookup& values) const
    {
        out += m_literals[0];
        for (std::size_t i = 0; i < m_refs.size(); ++i) {
            if (!appendField(out, values.value(m_refs[i]), m_fields[i]))
                return int(i);
            out += m_literals[i + 1];
        }
        return -1;
    }

    // Composition, for building a request from its parts.
    void appendLiteral(std::string_view text) { m_literals.back().append(text); }
    void append(const Template& other);
    // Where this template's text goes: its literals are checked (and a
    // target's encoded) now, its values when expanded. False with `error`
    // ("holds a line break (CR) at byte 4") when a literal cannot be sent.
    bool setField(WireField field, std::string& error);
    WireField field(std::size_t ref) const { return m_fields[ref]; }
    // Drops the first `n` characters of the leading literal (n <= its length).
    void removePrefix(std::size_t n) { m_literals.front().erase(0, n); }
    const std::string& leadingLiteral() const { return m_literals.front(); }

    // Every `${...}` name in text, in order, for "where is this variable used".
    static std::vector<std::string> names(std::string_view text);

private:
    // literals[0] ref[0] literals[1] ref[1] ... literals[n]
    std::vector<std::string> m_literals{std::string()};
    std::vector<VarRef> m_refs;
    std::vector<WireField> m_fields; // per reference
};

} // namespace stampede
