#include "requestparts.h"

#include "core/text.h"
#include "grpcstep.h"
#include "stampede/v1/scenario.pb.h"

namespace stampede {

bool compileForm(const v1::Form& form, const std::string& field, StepContext& ctx, Template& body,
                 std::string& contentType)
{
    const bool multipart = form.encoding() == v1::Form::FORM_MULTIPART;
    contentType = multipart ? std::string("multipart/form-data; boundary=") + kFormBoundary
                            : std::string("application/x-www-form-urlencoded");
    body = Template();
    bool ok = true;
    for (int i = 0; i < form.fields_size(); ++i) {
        const auto& f = form.fields(i);
        const std::string ff = field + ".form.fields[" + std::to_string(i) + "]";
        Template name, value;
        if (multipart) {
            // a part's name is in its header: no line break; its value is the part's body, as it is
            if (!ctx.compileField(f.name(), ff + ".name", WireField::HeaderValue, name) ||
                !ctx.compileText(f.value(), ff + ".value", value)) {
                ok = false;
                continue;
            }
            body.appendLiteral(std::string("--") + kFormBoundary + "\r\nContent-Disposition: form-data; name=\"");
            body.append(name);
            body.appendLiteral("\"\r\n\r\n");
            body.append(value);
            body.appendLiteral("\r\n");
            continue;
        }
        if (!ctx.compileField(f.name(), ff + ".name", WireField::FormComponent, name) ||
            !ctx.compileField(f.value(), ff + ".value", WireField::FormComponent, value)) {
            ok = false;
            continue;
        }
        if (i > 0)
            body.appendLiteral("&");
        body.append(name);
        body.appendLiteral("=");
        body.append(value);
    }
    if (multipart)
        body.appendLiteral(std::string("--") + kFormBoundary + "--\r\n");
    return ok;
}

namespace {

// The names Postman's digest helper offers (case as the server may write them).
bool knownDigestAlgorithm(std::string_view a)
{
    for (const char* name : {"MD5", "MD5-sess", "SHA-256", "SHA-256-sess", "SHA-512-256", "SHA-512-256-sess"})
        if (equalsNoCase(a, name))
            return true;
    return false;
}

bool compileDigest(const v1::DigestAuth& d, const std::string& field, StepContext& ctx, AuthPlan& out)
{
    auto plan = std::make_shared<DigestPlan>();
    const std::pair<DigestPlan::Field, const std::string*> fields[] = {
        {DigestPlan::User, &d.user()},           {DigestPlan::Realm, &d.realm()},  {DigestPlan::Nonce, &d.nonce()},
        {DigestPlan::Algorithm, &d.algorithm()}, {DigestPlan::Qop, &d.qop()},      {DigestPlan::Nc, &d.nc()},
        {DigestPlan::Cnonce, &d.cnonce()},       {DigestPlan::Opaque, &d.opaque()}};
    const char* names[] = {"user", "password", "realm", "nonce", "algorithm", "qop", "nc", "cnonce", "opaque"};
    bool ok = true;
    for (const auto& [f, text] : fields) // they go into the header as written (quoted): no line break
        ok &= ctx.compileField(*text, field + "." + names[f], WireField::HeaderValue, plan->fields[f]);
    // the password is hashed, never sent: any text
    ok &= ctx.compileText(d.password(), field + ".password", plan->fields[DigestPlan::Password]);
    if (!ok)
        return false;
    const Template& alg = plan->fields[DigestPlan::Algorithm];
    if (alg.isConstant() && !alg.constantText().empty() && !knownDigestAlgorithm(alg.constantText())) {
        ctx.error(field + ".algorithm",
                  "unknown algorithm \"" + alg.constantText() +
                      "\" (MD5, MD5-sess, SHA-256, SHA-256-sess, SHA-512-256 or SHA-512-256-sess)");
        return false;
    }
    const Template& qop = plan->fields[DigestPlan::Qop];
    if (qop.isConstant() && !qop.constantText().empty() && qop.constantText() != "auth" &&
        qop.constantText() != "auth-int") {
        ctx.error(field + ".qop", "qop is auth or auth-int (got \"" + qop.constantText() + "\")");
        return false;
    }
    const Template& nc = plan->fields[DigestPlan::Nc];
    if (nc.isConstant() && !nc.constantText().empty() &&
        (nc.constantText().size() > 8 ||
         nc.constantText().find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)) {
        ctx.error(field + ".nc", "a nonce count is up to 8 hex digits (got \"" + nc.constantText() + "\")");
        return false;
    }
    plan->retry = !d.disable_retry();
    out.digest = std::move(plan);
    return true;
}

} // namespace

bool compileAuth(const v1::HttpAuth& auth, const std::string& field, StepContext& ctx, AuthPlan& out)
{
    out = AuthPlan();
    if (auth.has_basic()) {
        Template user, password;
        if (!ctx.compileText(auth.basic().user(), field + ".auth.basic.user", user) ||
            !ctx.compileText(auth.basic().password(), field + ".auth.basic.password", password))
            return false;
        if (user.leadingLiteral().find(':') != std::string::npos && user.isConstant()) {
            ctx.error(field + ".auth.basic.user", "a Basic user cannot hold a colon (RFC 7617)");
            return false;
        }
        out.basic = user;
        out.basic.appendLiteral(":");
        out.basic.append(password);
        if (!out.basic.isConstant()) {
            out.perIteration = true;
            return true;
        }
        std::string value = "Basic ";
        appendBase64(value, out.basic.constantText());
        out.value = Template::literal(value);
        return true;
    }
    if (auth.has_digest())
        return compileDigest(auth.digest(), field + ".auth.digest", ctx, out);
    Template token;
    if (!ctx.compileField(auth.bearer(), field + ".auth.bearer", WireField::HeaderValue, token))
        return false;
    out.value = Template::literal("Bearer ");
    out.value.append(token);
    return true;
}

} // namespace stampede
