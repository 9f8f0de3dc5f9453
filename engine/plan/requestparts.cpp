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
    Template token;
    if (!ctx.compileField(auth.bearer(), field + ".auth.bearer", WireField::HeaderValue, token))
        return false;
    out.value = Template::literal("Bearer ");
    out.value.append(token);
    return true;
}

} // namespace stampede
