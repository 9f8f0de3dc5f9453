#pragma once
// Digest access authentication (RFC 7616; RFC 2617's MD5 without qop too), as
// Postman's digest helper does it: a step with `auth.digest` goes without
// Authorization until its server answers 401 (or 403) with a Digest
// challenge; the step is then sent once more with the answer to it (that
// answer's 401 counted as a request of the step and in auth_challenges). The
// challenge is kept for the user's next sends of the step (its nonce count
// going up), and taken anew when the server sends another. With realm and
// nonce written in the step, its first send is answered with them; what the
// step writes wins over the server's challenge (Postman's rule). A second
// challenge to the answered send, or one naming the same nonce, realm, opaque
// and qop that were answered, is the step's answer: its credentials are wrong.
#include "stephook.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stampede {

// A server's Digest challenge, as read from WWW-Authenticate.
struct DigestChallenge
{
    std::string realm, nonce, opaque;
    std::string algorithm; // as the server wrote it ("MD5" when it named none)
    std::string qop;       // the one answered: "auth" (preferred), "auth-int", or "" (the server offers none)
    bool stale = false;
};

// The first Digest challenge in a WWW-Authenticate value (which may hold
// several challenges: "Basic realm=x, Digest realm=..."), or nothing: none, a
// malformed one (an unclosed quote, a parameter twice, a value with a control
// byte or over 4 KiB), or one this engine cannot answer (no realm or nonce,
// an algorithm it does not know, only qops it does not know).
std::optional<DigestChallenge> parseDigestChallenge(std::string_view value);

// What the answer to a challenge is computed from.
struct DigestAnswerInput
{
    std::string_view user, password;
    std::string_view method, uri; // the request line's
    std::string_view body;        // for qop auth-int
    std::string_view cnonce;      // the client's nonce (with a qop or a -sess algorithm)
    std::uint32_t nc = 1;         // the nonce count
};

// The Authorization header's value ("Digest username=..., response=..."), or
// "" for an algorithm it does not know (parseDigestChallenge refuses those).
std::string digestAuthorization(const DigestChallenge& challenge, const DigestAnswerInput& in);

// One user's Digest state for one step: the challenge it answers, its nonce
// count and client nonce. The hook keeps one per user and step; Send keeps one
// for its request.
class DigestSession
{
public:
    // The Authorization for a send of the request whose Digest fields (DigestPlan's order) are `fields`; "" when
    // there is no challenge to answer yet. `first`: the step's own send (not a hop or the challenge's resend).
    std::string authorization(const std::vector<std::string>& fields, bool first, std::string_view method,
                              std::string_view uri, std::string_view body);
    // An answer to the send: true when it brings a challenge to answer by sending again (at most once a send;
    // never one that names what was answered). What the step writes of realm, nonce, qop, algorithm, opaque,
    // nc and cnonce (`fields`) wins over the server's, as in Postman: the server's fills what it leaves empty.
    bool challenged(int status, const std::vector<std::pair<std::string, std::string>>& headers,
                    const std::vector<std::string>& fields);

private:
    DigestChallenge m_challenge;
    bool m_known = false;    // a challenge (the server's, or the step's realm and nonce) to answer
    bool m_answered = false; // this send of the step already went again on a challenge
    std::uint32_t m_nc = 1;
    std::string m_cnonce;
};

class DigestHook final : public StepHook
{
public:
    DigestHook(std::uint32_t users, std::size_t steps, FlowHost& host);
    void newIteration(std::uint32_t user, bool fresh) override;
    void beforeSend(const StepCall& call, Outgoing& out) override;
    Next onAnswer(const StepCall& call, const Answer& answer) override;

private:
    struct UserStep
    {
        DigestSession session;
        const std::vector<std::string>* fields = nullptr; // of the request in flight (it outlives its answer)
    };
    UserStep& session(std::uint32_t user, std::size_t step);

    std::uint32_t m_users;
    std::vector<std::vector<UserStep>> m_sessions; // by step, then user (made at the step's first send)
    std::string m_header;                          // the last Authorization made (read as the request is encoded)
    FlowHost& m_host;
};

} // namespace stampede
