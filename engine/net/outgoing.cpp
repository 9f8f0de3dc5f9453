#include "outgoing.h"

#include "core/text.h"

namespace stampede {

namespace {

const std::string kCookieName = "cookie";
const std::string kAuthorizationName = "authorization";

std::string_view nameOf(const nghttp2_nv& nv)
{
    return {reinterpret_cast<const char*>(nv.name), nv.namelen};
}

bool startsWithNoCase(std::string_view s, std::string_view prefix)
{
    return equalsNoCase(s.substr(0, prefix.size()), prefix);
}

nghttp2_nv ownValue(const nghttp2_nv& nv, std::string& value)
{
    nghttp2_nv out = nv;
    out.value = reinterpret_cast<std::uint8_t*>(value.data());
    out.valuelen = value.size();
    out.flags |= NGHTTP2_NV_FLAG_NO_COPY_VALUE;
    return out;
}

} // namespace

std::string_view requestTarget(const RenderedRequest& r)
{
    if (r.wire.empty()) { // HTTP/2
        for (const nghttp2_nv& nv : r.nv)
            if (nameOf(nv) == ":path")
                return {reinterpret_cast<const char*>(nv.value), nv.valuelen};
        return "/";
    }
    const std::size_t a = r.wire.find(' ');
    const std::size_t b = a == std::string::npos ? a : r.wire.find(' ', a + 1);
    return b == std::string::npos ? std::string_view("/") : std::string_view(r.wire).substr(a + 1, b - a - 1);
}

void encodeHttp1(const Outgoing& o, std::string& out)
{
    const std::string& base = o.request->wire;
    const std::size_t lineEnd = base.find("\r\n");
    const std::size_t headEnd = base.find("\r\n\r\n");
    out.clear();
    if (lineEnd == std::string::npos || headEnd == std::string::npos) { // not a request the renderer makes
        out = base;
        return;
    }
    if (o.method.empty() && o.target.empty()) {
        out.append(base, 0, lineEnd + 2);
    } else {
        const std::size_t a = base.find(' ');
        const std::size_t b = base.find(' ', a + 1);
        const std::string_view line(base.data(), lineEnd);
        out += o.method.empty() ? line.substr(0, a) : o.method;
        out += ' ';
        out += o.target.empty() ? line.substr(a + 1, b - a - 1) : o.target;
        out += line.substr(b);
        out += "\r\n";
    }
    for (std::size_t at = lineEnd + 2; at < headEnd + 2;) {
        const std::size_t end = base.find("\r\n", at) + 2;
        const std::string_view line = std::string_view(base).substr(at, end - at);
        // an answered Digest challenge replaces the step's own Authorization header, as Postman's helper does
        const bool replaced = !o.authorization.empty() && startsWithNoCase(line, "authorization:");
        if (!replaced &&
            !(o.dropBody && (startsWithNoCase(line, "content-length:") || startsWithNoCase(line, "content-type:"))))
            out += line;
        at = end;
    }
    if (!o.cookie.empty()) {
        out += "Cookie: ";
        out += o.cookie;
        out += "\r\n";
    }
    if (!o.authorization.empty()) {
        out += "Authorization: ";
        out += o.authorization;
        out += "\r\n";
    }
    out += "\r\n";
    if (!o.dropBody)
        out.append(base, headEnd + 4);
}

void encodeHttp2(const Outgoing& o, Http2Encoding& out)
{
    const RenderedRequest& r = *o.request;
    out.method.assign(o.method);
    out.target.assign(o.target);
    out.cookie.assign(o.cookie);
    out.authorization.assign(o.authorization);
    out.nv.clear();
    out.bytes = 0;
    for (const nghttp2_nv& nv : r.nv) {
        const std::string_view name = nameOf(nv);
        if ((o.dropBody && (name == "content-length" || name == "content-type")) ||
            (!o.authorization.empty() && equalsNoCase(name, kAuthorizationName)))
            continue; // an answered Digest challenge replaces the step's own Authorization header
        if (name == ":method" && !out.method.empty())
            out.nv.push_back(ownValue(nv, out.method));
        else if (name == ":path" && !out.target.empty())
            out.nv.push_back(ownValue(nv, out.target));
        else
            out.nv.push_back(nv);
        out.bytes += out.nv.back().namelen + out.nv.back().valuelen;
    }
    for (auto [name, value] :
         {std::pair{&kCookieName, &out.cookie}, std::pair{&kAuthorizationName, &out.authorization}})
        if (!value->empty()) {
            out.nv.push_back({reinterpret_cast<std::uint8_t*>(const_cast<char*>(name->data())),
                              reinterpret_cast<std::uint8_t*>(value->data()), name->size(), value->size(),
                              NGHTTP2_NV_FLAG_NO_COPY_NAME | NGHTTP2_NV_FLAG_NO_COPY_VALUE});
            out.bytes += name->size() + value->size();
        }
    out.body = o.dropBody ? std::string_view() : std::string_view(r.body);
    out.bytes += out.body.size();
}

} // namespace stampede
