#include "httpstep.h"

#include "requestparts.h"

#include "core/number.h"
#include "core/text.h"
#include "core/textfile.h"
#include "core/url.h"
#include "load/loadcompile.h"
#include "net/http1responseparser.h"
#include "net/tlscontext.h"
#include "stampede/v1/scenario.pb.h"

#include <algorithm>
#include <cctype>

namespace stampede {

namespace {

// `url` up to its fragment (a # outside ${...}).
std::string withoutFragment(const std::string& url)
{
    for (std::size_t i = 0; i < url.size(); ++i) {
        if (url.compare(i, 2, "${") == 0) {
            const std::size_t close = url.find('}', i);
            if (close == std::string::npos)
                break;
            i = close;
        } else if (url[i] == '#') {
            return url.substr(0, i);
        }
    }
    return url;
}

// An HTTP request step; false after reporting its faults.
Template prefixSlash(const Template& t)
{
    Template out;
    out.appendLiteral("/");
    out.append(t);
    return out;
}

std::string pathOf(const std::string& url)
{
    const std::size_t off = Url::targetOffset(url);
    const std::string p = url.substr(off);
    return p.empty() ? "/" : p;
}

} // namespace

bool HttpStepCompiler::compile(const v1::Step& st, const std::string& field, PlannedStep& ps)
{
    const auto& rq = st.request();
    ps.method = rq.method().empty() ? "GET" : rq.method();
    std::transform(ps.method.begin(), ps.method.end(), ps.method.begin(),
                   [](unsigned char c) { return char(std::toupper(c)); });
    if (!isHttpToken(ps.method)) {
        m_ctx.error(field + ".request.method", "\"" + rq.method() + "\" is not an HTTP method");
        return false;
    }
    ps.noResponseBody = ps.method == "HEAD";
    ps.url = rq.url();
    Template url;
    const auto parsed = target(rq, field, ps, url);
    if (!parsed)
        return false;
    ps.name = st.name().empty() ? ps.method + " " + pathOf(rq.url()) : st.name();
    ps.folder = st.folder();
    ps.host = parsed->host;
    ps.port = parsed->port;
    ps.secure = parsed->scheme == "https";
    ps.head.appendLiteral(ps.method + " ");
    ps.head.append(url);
    ps.head.appendLiteral(" HTTP/1.1\r\n");
    ps.h2Headers.emplace_back(":method", Template::literal(ps.method));
    ps.h2Headers.emplace_back(":scheme", Template::literal(parsed->scheme));
    ps.h2Headers.emplace_back(":authority", Template::literal(parsed->hostHeader()));
    ps.h2Headers.emplace_back(":path", url);
    headers(rq, field, *parsed, ps);
    ps.hasBody = !rq.body().empty();
    if (ps.hasBody && !m_ctx.compileText(rq.body(), field + ".request.body", ps.body))
        return false;
    if (!formAndAuth(rq, field + ".request", ps))
        return false;
    if (rq.has_timeout()) {
        ps.timeout = toNanos(rq.timeout());
        if (ps.timeout <= 0) {
            m_ctx.error(field + ".request.timeout", "must be positive");
            return false;
        }
        if (!withinLongest(ps.timeout, field + ".request.timeout", RunLimits::kTimeoutSeconds,
                           [this](const std::string& f, const std::string& m) { m_ctx.error(f, m); }))
            return false;
    }
    ps.fixed = ps.head.isConstant() && (!ps.hasBody || ps.body.isConstant()) && !ps.basicPerIteration &&
               (!ps.digest || ps.digest->isConstant());
    ps.h2Fixed = ps.fixed;
    if (ps.fixed) {
        ps.fixedBytes = ps.head.constantText();
        if (requestNeedsLength(ps.method, ps.hasBody))
            ps.fixedBytes +=
                "Content-Length: " + std::to_string(ps.hasBody ? ps.body.constantText().size() : 0) + "\r\n";
        ps.fixedBytes += "\r\n";
        if (ps.hasBody)
            ps.fixedBytes += ps.body.constantText();
    }
    return true;
}

// A body that is a file's bytes, as they are; its Content-Type (unless the user's headers have one) as
// written, or by the file's extension.
bool HttpStepCompiler::fileBody(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps, bool typed)
{
    const v1::BodyFile& f = rq.body_file();
    if (!rq.body().empty() || (rq.has_form() && rq.form().fields_size() > 0)) {
        m_ctx.error(field + ".body_file", "a request has one of a body, a form and a file body");
        return false;
    }
    if (f.content_type().find_first_of("\r\n") != std::string::npos) {
        m_ctx.error(field + ".body_file.content_type", "a Content-Type cannot hold a line break");
        return false;
    }
    std::string bytes;
    if (!m_ctx.fileOrInline(f.file(), f.data(), field + ".body_file.file", bytes))
        return false;
    ps.body = Template::literal(bytes);
    ps.hasBody = true;
    if (!typed)
        return true;
    const std::string type = !f.content_type().empty() ? f.content_type()
                             : f.file().empty()        ? std::string("application/octet-stream")
                                                       : contentTypeOfFilename(fileBaseName(f.file()));
    ps.head.appendLiteral("Content-Type: " + type + "\r\n");
    ps.h2Headers.emplace_back("content-type", Template::literal(type));
    return true;
}

// A form body and the Authorization, as written (requestparts.h); each
// header only when the user's headers have none of its name.
bool HttpStepCompiler::formAndAuth(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps)
{
    const auto userSet = [&](std::string_view name) {
        return std::any_of(rq.headers().begin(), rq.headers().end(),
                           [&](const v1::Header& h) { return equalsNoCase(h.name(), name); });
    };
    const auto add = [&](const std::string& name, const Template& value) {
        ps.head.appendLiteral(name + ": ");
        ps.head.append(value);
        ps.head.appendLiteral("\r\n");
        ps.h2Headers.emplace_back(asciiLower(name), value);
    };
    // a form without a field is no body (as Postman's empty formdata and urlencoded bodies: nothing sent)
    if (rq.has_form() && rq.form().fields_size() > 0) {
        if (!rq.body().empty()) {
            m_ctx.error(field + ".form", "a request has a body or a form, not both");
            return false;
        }
        std::string contentType;
        if (!compileForm(rq.form(), field, m_ctx, ps.body, contentType))
            return false;
        ps.hasBody = true;
        if (!userSet("content-type"))
            add("Content-Type", Template::literal(contentType));
    }
    if (rq.has_body_file() && !fileBody(rq, field, ps, !userSet("content-type")))
        return false;
    // the user's own Authorization wins over a helper's, but for Digest: the hook answers the server's challenge,
    // and its answer replaces the header the user wrote (Postman's helper removes it before it signs)
    if (!rq.has_auth() || (userSet("authorization") && !rq.auth().has_digest()))
        return true;
    AuthPlan auth;
    if (!compileAuth(rq.auth(), field, m_ctx, auth))
        return false;
    if (auth.digest) { // answered to the server's challenge by the step's hook (flows())
        ps.digest = std::move(auth.digest);
        ps.needs |= kNeedsHeaders; // WWW-Authenticate
        return true;
    }
    if (!auth.perIteration) {
        add("Authorization", auth.value);
        return true;
    }
    ps.basicAuth = std::move(auth.basic);
    ps.basicPerIteration = true;
    ps.authH2 = ps.h2Headers.size();
    ps.h2Headers.emplace_back("authorization", Template());
    return true;
}

// The URL: its scheme and host known before the run (resolved, with TLS
// for https), the rest (`url`) a template of the path and query.
std::optional<Url> HttpStepCompiler::target(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps,
                                            Template& url)
{
    if (rq.url().empty()) {
        m_ctx.error(field + ".request.url", "a request needs a URL");
        return std::nullopt;
    }
    // a fragment is the browser's, never sent (as curl and browsers do)
    if (!m_ctx.compileText(withoutFragment(rq.url()), field + ".request.url", url))
        return std::nullopt;
    // a collection run (newman's verdict): a URL without a scheme, written or from its variables
    // ("localhost:4041/x", "{{host}}/path"), is http://, as Postman and newman take it
    if (m_ctx.plan().testsVerdict && url.leadingLiteral().find("://") == std::string::npos &&
        !m_ctx.compileText("http://" + withoutFragment(rq.url()), field + ".request.url", url))
        return std::nullopt;
    // The scheme and host must be known before the run: they may use
    // constants, but no per-iteration value (a collection run's are found as it sends, as newman's).
    const std::string lead = url.leadingLiteral();
    const std::size_t split = Url::targetOffset(lead);
    if (!url.isConstant() && split == lead.size()) {
        if (m_ctx.plan().testsVerdict)
            return runtimeTarget(rq, field, ps, url);
        m_ctx.error(field + ".request.url",
                    "the scheme and host must be written out or come from constants, and a / must follow them: \"" +
                        rq.url() + "\"");
        return std::nullopt;
    }
    std::string err;
    auto parsed = Url::parse(lead.substr(0, split), err);
    if (!parsed) {
        m_ctx.error(field + ".request.url", err);
        return std::nullopt;
    }
    ps.endpoint = Endpoint::named(parsed->host, parsed->port); // looked up by the resolve step, not here
    ps.targetField = field + ".request.url";
    if (parsed->scheme == "https") {
        ps.endpoint.tls = m_ctx.tlsContext(!(m_ctx.scenario().tls().insecure() || rq.insecure()));
        if (!ps.endpoint.tls)
            return std::nullopt; // the fault is reported once, on the tls field
        ps.endpoint.serverName =
            m_ctx.scenario().tls().server_name().empty() ? parsed->host : m_ctx.scenario().tls().server_name();
    }
    url.removePrefix(split);
    if (url.leadingLiteral().empty() || url.leadingLiteral()[0] == '?')
        url = prefixSlash(url);
    if (!url.setField(WireField::Target, err)) {
        m_ctx.error(field + ".request.url", "the path " + err + ": it would end the request line");
        return std::nullopt;
    }
    return parsed;
}

// A collection run's URL whose scheme or host comes from a value only known as it is sent (a script sets it, an
// answer gives it): the whole URL goes in the request line's place, the renderer takes it apart as it renders
// (RequestRenderer::splitOrigin), "http://" before it when it has no scheme, as newman.
std::optional<Url> HttpStepCompiler::runtimeTarget(const v1::HttpRequest& rq, const std::string& field, PlannedStep& ps,
                                                   Template& url)
{
    if (!m_ctx.compileText(withoutFragment(rq.url()), field + ".request.url", url))
        return std::nullopt;
    std::string err;
    if (!url.setField(WireField::Target, err)) {
        m_ctx.error(field + ".request.url", "the URL " + err + ": it would end the request line");
        return std::nullopt;
    }
    ps.runtimeOrigin = true;
    ps.targetField = field + ".request.url";
    ps.runtimeTls = m_ctx.tlsContext(!(m_ctx.scenario().tls().insecure() || rq.insecure()));
    if (!ps.runtimeTls)
        return std::nullopt; // the fault is reported once, on the tls field
    Url unknown;             // no server before the run
    unknown.scheme = "http";
    return unknown;
}

// The user's headers (framing left to the engine), then Host, User-Agent
// and the stress tag unless given; in both the HTTP/1.1 and HTTP/2 forms.
void HttpStepCompiler::headers(const v1::HttpRequest& rq, const std::string& field, const Url& server, PlannedStep& ps)
{
    bool userHost = false, userAgent = false, userTrace = false, tagged = false;
    for (int h = 0; h < rq.headers_size(); ++h) {
        const auto& hd = rq.headers(h);
        const std::string hf = field + ".request.headers[" + std::to_string(h) + "]";
        if (!isHttpToken(hd.name())) {
            m_ctx.error(hf + ".name", "\"" + hd.name() + "\" is not a header name");
            continue;
        }
        const std::string lower = asciiLower(hd.name());
        if (lower == "content-length" || lower == "transfer-encoding")
            continue; // framing is the engine's job
        userHost |= lower == "host";
        userAgent |= lower == "user-agent";
        userTrace |= lower == "traceparent";
        Template value;
        if (!m_ctx.compileField(hd.value(), hf + ".value", WireField::HeaderValue, value))
            continue;
        if (lower == "baggage" && asciiLower(m_ctx.plan().stressHeader) == "baggage" && !tagged) {
            value.appendLiteral("," + m_ctx.plan().stressValue); // one baggage: the request's members and the tag
            tagged = true;
        }
        ps.head.appendLiteral(hd.name() + ": ");
        ps.head.append(value);
        ps.head.appendLiteral("\r\n");
        if (lower == "host")
            ps.h2Headers[2].second = value; // :authority
        else if (!isConnectionHeader(lower))
            ps.h2Headers.emplace_back(lower, value); // connection headers are not HTTP/2's
    }
    for (int h = 0; h < m_ctx.scenario().default_headers_size();
         ++h) { // the scenario's, unless the request has its own
        const auto& hd = m_ctx.scenario().default_headers(h);
        const std::string lower = asciiLower(hd.name());
        const std::string hf = "defaultHeaders[" + std::to_string(h) + "]";
        if (std::any_of(rq.headers().begin(), rq.headers().end(),
                        [&](const v1::Header& mine) { return equalsNoCase(mine.name(), hd.name()); }))
            continue;
        if (!isHttpToken(hd.name()) || lower == "host" || lower == "content-length" || lower == "transfer-encoding") {
            m_ctx.error(hf + ".name", "\"" + hd.name() + "\" is not a header a scenario may add to every request");
            continue;
        }
        Template value;
        if (!m_ctx.compileField(hd.value(), hf + ".value", WireField::HeaderValue, value))
            continue;
        ps.head.appendLiteral(hd.name() + ": ");
        ps.head.append(value);
        ps.head.appendLiteral("\r\n");
        if (!isConnectionHeader(lower))
            ps.h2Headers.emplace_back(lower, value);
    }
    if (ps.runtimeOrigin)
        ps.runtimeHost = !userHost; // the renderer writes it, after the request line
    else if (!userHost)
        ps.head.appendLiteral("Host: " + server.hostHeader() + "\r\n");
    if (!userAgent) {
        ps.head.appendLiteral("User-Agent: stampede/" STAMPEDE_VERSION "\r\n");
        ps.h2Headers.emplace_back("user-agent", Template::literal("stampede/" STAMPEDE_VERSION));
    }
    if (!m_ctx.plan().stressHeader.empty() && !tagged) {
        ps.head.appendLiteral(m_ctx.plan().stressHeader + ": " + m_ctx.plan().stressValue + "\r\n");
        ps.h2Headers.emplace_back(asciiLower(m_ctx.plan().stressHeader), Template::literal(m_ctx.plan().stressValue));
    }
    if (m_ctx.plan().trace && !userTrace) {
        const Template value = m_ctx.traceparent();
        ps.head.appendLiteral("traceparent: ");
        ps.head.append(value);
        ps.head.appendLiteral("\r\n");
        ps.h2Headers.emplace_back("traceparent", value);
    }
}

} // namespace stampede
