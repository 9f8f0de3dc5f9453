#pragma once
// Desensitising recorded traffic before it is stored: rules by field (a query
// parameter, a header, a JSON body key at any depth, a form field, cookies,
// or a regular expression over the whole request) with an action: `hash`
// (keyed HMAC-SHA-256: stable, so the same user stays the same user, and
// digits stay digits of the same length; an 11-digit number starting with 1,
// a mobile number, keeps its 3-digit network prefix), `replace` or `drop`
// (the parameter, header, key or field removed; a regex's match emptied).
// Presets cover Chinese mobile numbers, ID card numbers, bank cards, e-mail
// addresses, bearer tokens and cookies.
//
// Text form (the command line's --mask): FIELD:NAME=ACTION, e.g.
// query:phone=hash, header:authorization=replace:***, json:idCard=drop,
// form:password=replace:x, regex:1[3-9][0-9]{9}=hash, cookie:*=hash,
// or preset:cn-mobile (cn-id, bank-card, email, bearer, cookies).
#include "check/checks.h"
#include "trafficrecord.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

struct MaskRule
{
    enum class Field
    {
        Query,
        Header,
        JsonKey,
        Form,
        Cookie, // the Cookie header's values by cookie name ("*": all)
        Regex   // anywhere in the target, header values and body; group 1 when the pattern has one
    };
    enum class Action
    {
        Hash,
        Replace,
        Drop
    };
    Field field = Field::Query;
    std::string name; // a parameter, header (lower-case), key, field or cookie name; a regex's pattern
    Action action = Action::Hash;
    std::string replacement;
    RegexPtr regex;   // Field::Regex
    std::string text; // as written

    // One rule, or a preset's rules; nothing and `error` when it does not read.
    static std::vector<MaskRule> parse(std::string_view text, std::string& error);
};

// The presets' names, for help and errors.
const std::vector<std::string>& maskPresets();

class Masker
{
public:
    // `key`: the secret of the keyed hash (a project keeps its own, so a
    // value hashes the same in every import into it).
    Masker(std::vector<MaskRule> rules, std::string key);
    bool empty() const { return m_rules.empty(); }
    // Applies every rule, in order; returns how many values it changed.
    std::size_t apply(TrafficRecord& r) const;
    // The keyed hash of a value: digits stay digits of the same length; other
    // text becomes "h_" and 16 hex digits.
    std::string hash(std::string_view value) const;
    const std::vector<MaskRule>& rules() const { return m_rules; }

private:
    std::string act(const MaskRule& rule, std::string_view value) const;
    std::size_t query(const MaskRule& rule, std::string& target) const;
    std::size_t form(const MaskRule& rule, std::string& body) const;
    std::size_t json(const MaskRule& rule, std::string& body) const;
    std::size_t cookies(const MaskRule& rule, TrafficRecord& r) const;
    std::size_t regex(const MaskRule& rule, std::string& text) const;

    std::vector<MaskRule> m_rules;
    std::string m_key;
};

} // namespace stampede
