#pragma once
// Desensitising recorded traffic before it is stored: rules by field (a query
// parameter, a header, a JSON body key at any depth, a form field, cookies,
// or a regular expression over the whole request) with an action: `hash`
// (keyed HMAC-SHA-256: stable, so the same user stays the same user, and
// digits stay digits of the same length; an 11-digit number starting with 1,
// a mobile number, keeps its 3-digit network prefix), `replace` or `drop`
// (the parameter, header, key or field removed; a regex's match emptied).
// Presets cover Chinese mobile numbers, ID card numbers, bank cards, e-mail
// addresses, bearer tokens, cookies and credentials in headers (Authorization
// and Proxy-Authorization whatever their scheme, X-Api-Key, and every header
// whose name holds token, secret or password).
//
// Text form (the command line's --mask): FIELD:NAME=ACTION, e.g.
// query:phone=hash, header:authorization=replace:***, json:idCard=drop,
// form:password=replace:x, regex:1[3-9][0-9]{9}=hash, cookie:*=hash,
// or preset:cn-mobile (cn-id, bank-card, email, bearer, secrets, cookies,
// credentials). A header's name may be *part*: every header whose name holds it.
// A name may list several: query:token|password=hash. "secrets" hashes
// token, access_token, password, secret, api_key, sign (and kin) in
// queries, forms and JSON bodies at any depth.
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
    std::string name;               // a parameter, header (lower-case), key, field or cookie name; a regex's pattern
    std::vector<std::string> names; // a name of several ("token|password"): each of them
    Action action = Action::Hash;
    std::string replacement;
    RegexPtr regex;                       // Field::Regex
    std::string text;                     // as written (a preset's rules: "preset:NAME")
    bool named(std::string_view n) const; // whether `n` is the rule's name (or one of its names)

    // One rule, or a preset's rules; nothing and `error` when it does not read.
    static std::vector<MaskRule> parse(std::string_view text, std::string& error);
};

// Every rule of `texts` (presets expanded), in order; false with `error`
// and, in `failed`, the index of the text that does not read.
bool parseMasks(const std::vector<std::string>& texts, std::vector<MaskRule>& out, std::string& error,
                std::size_t* failed = nullptr);
// The rules a command uses: none with `noMask`, `given` when there are any, else the defaults.
std::vector<std::string> masksToUse(const std::vector<std::string>& given, bool noMask);

// The presets' names, for help and errors.
const std::vector<std::string>& maskPresets();
// The rules used when none are given: every preset (mobile, ID and bank card
// numbers, e-mail addresses, bearer tokens, secrets by name, cookies).
const std::vector<std::string>& defaultMasks();

class Masker
{
public:
    // `key`: the secret of the keyed hash (a project keeps its own, so a
    // value hashes the same in every import into it).
    Masker(std::vector<MaskRule> rules, std::string key);
    bool empty() const { return m_rules.empty(); }
    // Applies every rule, in order; returns how many values it changed
    // (and, with `perRule`, how many each rule changed, by index).
    std::size_t apply(TrafficRecord& r, std::vector<std::size_t>* perRule = nullptr) const;
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
