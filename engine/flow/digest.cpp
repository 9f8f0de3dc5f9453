#include "digest.h"

#include "core/text.h"

#include <openssl/evp.h>
#include <openssl/rand.h>

#include <cstdio>
#include <map>

namespace stampede {

namespace {

constexpr std::size_t kMaxValue = 4096;       // a parameter's value
constexpr std::size_t kMaxHeader = 64 * 1024; // a WWW-Authenticate value read at all

bool isTchar(char c)
{
    const auto u = static_cast<unsigned char>(c);
    if ((u >= '0' && u <= '9') || (u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z'))
        return true;
    return std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

bool isControl(char c)
{
    const auto u = static_cast<unsigned char>(c);
    return (u < 0x20 && u != '\t') || u == 0x7f;
}

// RFC 7235's challenge list, read left to right.
class ChallengeReader
{
public:
    explicit ChallengeReader(std::string_view s) : m_s(s) {}
    bool done() const { return m_i >= m_s.size(); }
    char peek() const { return done() ? '\0' : m_s[m_i]; }
    void skip() { ++m_i; }
    void spaces()
    {
        while (!done() && (m_s[m_i] == ' ' || m_s[m_i] == '\t'))
            ++m_i;
    }
    void separators()
    {
        while (!done() && (m_s[m_i] == ' ' || m_s[m_i] == '\t' || m_s[m_i] == ','))
            ++m_i;
    }
    std::string_view token()
    {
        const std::size_t from = m_i;
        while (!done() && isTchar(m_s[m_i]))
            ++m_i;
        return m_s.substr(from, m_i - from);
    }
    // A parameter's value: a quoted-string (unescaped) or the text up to the next comma or space; false when a
    // quote is not closed, or it holds a control byte or is too long.
    bool value(std::string& out)
    {
        out.clear();
        if (peek() != '"') {
            while (!done() && m_s[m_i] != ',' && m_s[m_i] != ' ' && m_s[m_i] != '\t') {
                if (isControl(m_s[m_i]) || m_s[m_i] == '"')
                    return false;
                out += m_s[m_i++];
            }
            return out.size() <= kMaxValue;
        }
        ++m_i;
        while (!done()) {
            char c = m_s[m_i++];
            if (c == '"')
                return true;
            if (c == '\\') {
                if (done())
                    return false;
                c = m_s[m_i++];
            }
            if (isControl(c) || out.size() == kMaxValue)
                return false;
            out += c;
        }
        return false; // not closed
    }

private:
    std::string_view m_s;
    std::size_t m_i = 0;
};

struct Algorithm
{
    const EVP_MD* md = nullptr;
    bool session = false; // -sess: A1 takes the nonces
};

Algorithm algorithmNamed(std::string_view name)
{
    Algorithm a;
    constexpr std::string_view kSess = "-sess";
    if (name.size() > kSess.size() && equalsNoCase(name.substr(name.size() - kSess.size()), kSess)) {
        a.session = true;
        name.remove_suffix(kSess.size());
    }
    if (name.empty() || equalsNoCase(name, "MD5"))
        a.md = EVP_md5();
    else if (equalsNoCase(name, "SHA-256"))
        a.md = EVP_sha256();
    else if (equalsNoCase(name, "SHA-512-256"))
        a.md = EVP_sha512_256();
    return a;
}

std::string lowerHex(const unsigned char* bytes, std::size_t n)
{
    static const char* kHex = "0123456789abcdef";
    std::string hex;
    hex.reserve(n * 2);
    for (std::size_t i = 0; i < n; ++i) {
        hex += kHex[bytes[i] >> 4];
        hex += kHex[bytes[i] & 15];
    }
    return hex;
}

std::string hexDigest(const EVP_MD* md, std::string_view text)
{
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(text.data(), text.size(), out, &n, md, nullptr))
        return {};
    return lowerHex(out, n);
}

// name="value", with " and \ escaped (the values come from the server and the user).
void appendQuoted(std::string& out, std::string_view name, std::string_view value)
{
    if (out.back() != ' ')
        out += ", ";
    out += name;
    out += "=\"";
    for (const char c : value) {
        if (c == '"' || c == '\\')
            out += '\\';
        out += c;
    }
    out += '"';
}

void appendToken(std::string& out, std::string_view name, std::string_view value)
{
    out += ", ";
    out += name;
    out += '=';
    out += value;
}

std::string randomNonce()
{
    unsigned char bytes[8];
    if (RAND_bytes(bytes, sizeof bytes) != 1)
        return "0a4f113b0a4f113b";
    return lowerHex(bytes, sizeof bytes);
}

std::uint32_t nonceCount(std::string_view hex)
{
    std::uint32_t n = 0;
    if (hex.empty() || hex.size() > 8)
        return 1;
    for (const char c : hex) {
        const int d = hexDigit(c);
        if (d < 0)
            return 1;
        n = n * 16 + std::uint32_t(d);
    }
    return n ? n : 1;
}

} // namespace

std::optional<DigestChallenge> parseDigestChallenge(std::string_view value)
{
    if (value.size() > kMaxHeader)
        return std::nullopt;
    ChallengeReader r(value);
    bool inDigest = false, seen = false;
    std::map<std::string, std::string> params; // lower-case names
    std::string v;
    while (true) {
        r.separators();
        if (r.done())
            break;
        const std::string_view t = r.token();
        if (t.empty()) { // a byte no challenge starts with
            if (inDigest)
                return std::nullopt;
            r.skip();
            continue;
        }
        r.spaces();
        if (r.peek() == '=') { // a parameter of the challenge being read (or another scheme's token68 padding)
            r.skip();
            r.spaces();
            const bool ok = r.value(v);
            if (!inDigest) {
                if (!ok)
                    break; // another scheme's broken value: no Digest challenge follows that can be trusted
                continue;
            }
            if (!ok || !params.emplace(asciiLower(t), v).second)
                return std::nullopt; // malformed, or a parameter twice
            continue;
        }
        if (inDigest)
            break; // the next challenge: the first Digest one is answered
        inDigest = seen = equalsNoCase(t, "Digest");
    }
    if (!seen)
        return std::nullopt;
    const auto realm = params.find("realm"), nonce = params.find("nonce");
    if (realm == params.end() || nonce == params.end() || nonce->second.empty())
        return std::nullopt;
    DigestChallenge c;
    c.realm = realm->second;
    c.nonce = nonce->second;
    if (const auto o = params.find("opaque"); o != params.end())
        c.opaque = o->second;
    const auto a = params.find("algorithm");
    c.algorithm = a == params.end() ? std::string("MD5") : a->second;
    if (!algorithmNamed(c.algorithm).md)
        return std::nullopt;
    if (const auto q = params.find("qop"); q != params.end()) {
        bool auth = false, authInt = false;
        std::string_view list = q->second;
        while (!list.empty()) {
            const std::size_t comma = list.find(',');
            std::string_view one = list.substr(0, comma);
            while (!one.empty() && (one.front() == ' ' || one.front() == '\t'))
                one.remove_prefix(1);
            while (!one.empty() && (one.back() == ' ' || one.back() == '\t'))
                one.remove_suffix(1);
            auth |= equalsNoCase(one, "auth");
            authInt |= equalsNoCase(one, "auth-int");
            list = comma == std::string_view::npos ? std::string_view() : list.substr(comma + 1);
        }
        if (!auth && !authInt)
            return std::nullopt; // only qops this engine cannot answer
        c.qop = auth ? "auth" : "auth-int";
    }
    if (const auto s = params.find("stale"); s != params.end())
        c.stale = equalsNoCase(s->second, "true");
    return c;
}

std::string digestAuthorization(const DigestChallenge& c, const DigestAnswerInput& in)
{
    const Algorithm alg = algorithmNamed(c.algorithm);
    if (!alg.md)
        return {};
    const auto H = [&](std::string_view text) { return hexDigest(alg.md, text); };
    char nc[9];
    std::snprintf(nc, sizeof nc, "%08x", in.nc);
    std::string a1 = H(std::string(in.user) + ":" + c.realm + ":" + std::string(in.password));
    if (alg.session)
        a1 = H(a1 + ":" + c.nonce + ":" + std::string(in.cnonce));
    std::string a2 = std::string(in.method) + ":" + std::string(in.uri);
    if (c.qop == "auth-int")
        a2 += ":" + H(in.body);
    const std::string response =
        c.qop.empty() ? H(a1 + ":" + c.nonce + ":" + H(a2))
                      : H(a1 + ":" + c.nonce + ":" + nc + ":" + std::string(in.cnonce) + ":" + c.qop + ":" + H(a2));
    std::string out = "Digest ";
    appendQuoted(out, "username", in.user);
    appendQuoted(out, "realm", c.realm);
    appendQuoted(out, "nonce", c.nonce);
    appendQuoted(out, "uri", in.uri);
    appendToken(out, "algorithm", c.algorithm);
    if (!c.qop.empty()) {
        appendToken(out, "qop", c.qop);
        appendToken(out, "nc", nc);
    }
    if (!c.qop.empty() || alg.session)
        appendQuoted(out, "cnonce", in.cnonce);
    appendQuoted(out, "response", response);
    if (!c.opaque.empty())
        appendQuoted(out, "opaque", c.opaque);
    return out;
}

std::string DigestSession::authorization(const std::vector<std::string>& fields, bool first, std::string_view method,
                                         std::string_view uri, std::string_view body)
{
    if (fields.size() != DigestPlan::kFields)
        return {};
    if (first)
        m_answered = false;
    const auto field = [&](DigestPlan::Field f) -> const std::string& { return fields[f]; };
    if (!m_known && !field(DigestPlan::Realm).empty() && !field(DigestPlan::Nonce).empty()) {
        // realm and nonce written in the step: its first send is answered with them (Postman's)
        m_challenge.realm = field(DigestPlan::Realm);
        m_challenge.nonce = field(DigestPlan::Nonce);
        m_challenge.opaque = field(DigestPlan::Opaque);
        m_challenge.algorithm = field(DigestPlan::Algorithm).empty() ? "MD5" : field(DigestPlan::Algorithm);
        m_challenge.qop = field(DigestPlan::Qop);
        m_nc = nonceCount(field(DigestPlan::Nc));
        m_cnonce = field(DigestPlan::Cnonce).empty() ? randomNonce() : field(DigestPlan::Cnonce);
        m_known = true;
    }
    if (!m_known)
        return {};
    DigestAnswerInput in;
    in.user = field(DigestPlan::User);
    in.password = field(DigestPlan::Password);
    in.method = method;
    in.uri = uri;
    in.body = body;
    in.cnonce = m_cnonce;
    in.nc = m_nc++;
    return digestAuthorization(m_challenge, in);
}

bool DigestSession::challenged(int status, const std::vector<std::pair<std::string, std::string>>& headers,
                               const std::vector<std::string>& fields)
{
    if ((status != 401 && status != 403) || m_answered)
        return false; // not a challenge, or the answered send was refused: its credentials are wrong
    std::optional<DigestChallenge> c;
    for (const auto& [name, value] : headers)
        if (equalsNoCase(name, "www-authenticate") && (c = parseDigestChallenge(value)))
            break;
    if (!c)
        return false;
    if (fields.size() == DigestPlan::kFields) // the step's own values win (Postman keeps what the user wrote)
        for (const auto& [f, value] : {std::pair{DigestPlan::Realm, &c->realm}, std::pair{DigestPlan::Nonce, &c->nonce},
                                       std::pair{DigestPlan::Opaque, &c->opaque}, std::pair{DigestPlan::Qop, &c->qop},
                                       std::pair{DigestPlan::Algorithm, &c->algorithm}})
            if (!fields[f].empty())
                *value = fields[f];
    if (m_known && !c->stale && c->nonce == m_challenge.nonce && c->realm == m_challenge.realm &&
        c->opaque == m_challenge.opaque && c->qop == m_challenge.qop)
        return false; // the challenge that was answered: nothing new to answer with
    m_challenge = std::move(*c);
    m_known = true;
    m_answered = true;
    const bool written = fields.size() == DigestPlan::kFields;
    m_nc = written ? nonceCount(fields[DigestPlan::Nc]) : 1;
    m_cnonce = written && !fields[DigestPlan::Cnonce].empty() ? fields[DigestPlan::Cnonce] : randomNonce();
    return true;
}

DigestHook::DigestHook(std::uint32_t users, std::size_t steps, FlowHost& host)
    : m_users(users), m_sessions(steps), m_host(host)
{
}

DigestHook::UserStep& DigestHook::session(std::uint32_t user, std::size_t step)
{
    auto& users = m_sessions[step];
    if (users.empty())
        users.resize(m_users);
    return users[user];
}

void DigestHook::newIteration(std::uint32_t user, bool fresh)
{
    if (!fresh)
        return; // the same user's next iteration answers the challenge it has, as a browser would
    for (auto& users : m_sessions)
        if (!users.empty())
            users[user] = UserStep();
}

void DigestHook::beforeSend(const StepCall& call, Outgoing& out)
{
    const RenderedRequest& r = *out.request;
    std::string_view body;
    if (!out.dropBody) {
        if (r.wire.empty())
            body = r.body;
        else if (const std::size_t end = r.wire.find("\r\n\r\n"); end != std::string::npos)
            body = std::string_view(r.wire).substr(end + 4);
    }
    const std::string_view method = out.method.empty() ? std::string_view(call.plan.method) : out.method;
    UserStep& us = session(call.user, call.step);
    us.fields = &r.digest;
    m_header = us.session.authorization(r.digest, !call.hop, method, call.target, body);
    out.authorization = m_header;
}

StepHook::Next DigestHook::onAnswer(const StepCall& call, const Answer& answer)
{
    if (!answer.headers || !call.plan.digest || !call.plan.digest->retry)
        return Next::Judge;
    UserStep& us = session(call.user, call.step);
    static const std::vector<std::string> kNone;
    if (!us.session.challenged(answer.status, *answer.headers, us.fields ? *us.fields : kNone))
        return Next::Judge;
    m_host.countAnswer(call, answer); // the challenge's answer is a request of the step
    ++m_host.stepMetrics(call.step, call.now).counters.authChallenges;
    const std::string target(call.target);
    m_host.sendAgain(call, target, false);
    return Next::Taken;
}

} // namespace stampede
