#include "requestparts.h"

#include <algorithm>

#include "core/text.h"
#include "core/textfile.h"
#include "grpcstep.h"
#include "stampede/v1/scenario.pb.h"

namespace stampede {

namespace {

// A filename as a part's header quotes it: the bytes that would end the quote
// or the line percent-encoded (as browsers do, WHATWG's multipart encoding).
std::string quotedFilename(std::string_view name)
{
    std::string out;
    for (const char c : name) {
        if (c == '"')
            out += "%22";
        else if (c == '\r')
            out += "%0D";
        else if (c == '\n')
            out += "%0A";
        else
            out += c;
    }
    return out;
}

// The files that fill each field of `form`, in their order; false after a fault.
bool filesByField(const v1::Form& form, const std::string& field, StepContext& ctx, std::vector<std::vector<int>>& out)
{
    out.assign(std::size_t(form.fields_size()), {});
    bool ok = true;
    for (int k = 0; k < form.files_size(); ++k) {
        const auto& f = form.files(k);
        const std::string ff = field + ".form.files[" + std::to_string(k) + "]";
        if (form.encoding() != v1::Form::FORM_MULTIPART) {
            ctx.error(ff, "a file is sent in a multipart form only (form.encoding FORM_MULTIPART)");
            ok = false;
        } else if (f.field() >= std::uint32_t(form.fields_size())) {
            ctx.error(ff + ".field", "no form field " + std::to_string(f.field()) + " (the form has " +
                                         std::to_string(form.fields_size()) + ")");
            ok = false;
        } else if (f.content_type().find_first_of("\r\n") != std::string::npos) {
            ctx.error(ff + ".content_type", "a Content-Type cannot hold a line break");
            ok = false;
        } else {
            out[f.field()].push_back(k);
        }
    }
    return ok;
}

// One file's part: its header (the field's name, the filename, the type) and its bytes as they are.
void appendFilePart(const v1::FormFile& f, const std::string& bytes, const std::string& boundary, const Template& name,
                    Template& body)
{
    const std::string filename = !f.filename().empty() ? f.filename() : std::string(fileBaseName(f.file()));
    std::string type = f.content_type();
    if (type.empty() && !filename.empty())
        type = contentTypeOfFilename(filename);
    body.appendLiteral("--" + boundary + "\r\nContent-Disposition: form-data; name=\"");
    body.append(name);
    body.appendLiteral("\"; filename=\"" + quotedFilename(filename) + "\"\r\n");
    if (!type.empty()) // a part with neither file nor filename goes without one, as Postman's for a file it lacks
        body.appendLiteral("Content-Type: " + type + "\r\n");
    body.appendLiteral("\r\n");
    body.appendLiteral(bytes);
    body.appendLiteral("\r\n");
}

// The form's boundary: the engine's own, unless a file holds it (then the first of -1, -2... that none holds):
// the same files always make the same bytes.
std::string boundaryFor(const std::vector<std::string>& files)
{
    std::string boundary = kFormBoundary;
    for (int n = 1; std::any_of(files.begin(), files.end(),
                                [&](const std::string& f) { return f.find(boundary) != std::string::npos; });
         ++n)
        boundary = std::string(kFormBoundary) + "-" + std::to_string(n);
    return boundary;
}

} // namespace

bool compileForm(const v1::Form& form, const std::string& field, StepContext& ctx, Template& body,
                 std::string& contentType)
{
    const bool multipart = form.encoding() == v1::Form::FORM_MULTIPART;
    std::vector<std::vector<int>> files;
    bool ok = filesByField(form, field, ctx, files);
    std::vector<std::string> bytes(std::size_t(form.files_size()));
    for (int k = 0; k < form.files_size() && ok; ++k)
        ok &= ctx.fileOrInline(form.files(k).file(), form.files(k).data(),
                               field + ".form.files[" + std::to_string(k) + "].file", bytes[std::size_t(k)]);
    const std::string boundary = boundaryFor(bytes);
    contentType =
        multipart ? "multipart/form-data; boundary=" + boundary : std::string("application/x-www-form-urlencoded");
    body = Template();
    for (int i = 0; i < form.fields_size(); ++i) {
        const auto& f = form.fields(i);
        const std::string ff = field + ".form.fields[" + std::to_string(i) + "]";
        Template name, value;
        if (multipart) {
            // a part's name is in its header: no line break; its value is the part's body, as it is
            if (!ctx.compileField(f.name(), ff + ".name", WireField::HeaderValue, name)) {
                ok = false;
                continue;
            }
            if (ok)
                for (const int k : files[std::size_t(i)])
                    appendFilePart(form.files(k), bytes[std::size_t(k)], boundary, name, body);
            if (!files[std::size_t(i)].empty())
                continue;
            if (!ctx.compileText(f.value(), ff + ".value", value)) {
                ok = false;
                continue;
            }
            body.appendLiteral("--" + boundary + "\r\nContent-Disposition: form-data; name=\"");
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
        body.appendLiteral("--" + boundary + "--\r\n");
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
