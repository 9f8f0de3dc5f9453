#pragma once
// The one rule for what may go into a request's line and headers, whoever
// wrote the text: the user, a data set, an extraction, a recording. A CR, LF
// or NUL is never sent in a URL or a header value (it would end the line and
// let the text write headers or a second request of its own); a request
// target is percent-encoded as a browser sends it (RFC 3986: a space, a
// control byte, a quote, <>\^`{|} and every non-ASCII byte as %XX of its
// UTF-8, an existing %XX kept as it is).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace stampede {

// Where a piece of text goes in a request.
enum class WireField : std::uint8_t
{
    Body,          // anything, byte for byte
    Target,        // the path and query: encoded; CR, LF and NUL refused
    HeaderValue,   // a header (or gRPC metadata) value: CR, LF and NUL refused
    FormComponent, // a urlencoded form's name or value: every byte but A-Z a-z 0-9 - . _ ~ as %XX
};

// The offset of the first CR, LF or NUL in `s`; npos when there is none.
std::size_t forbiddenByte(std::string_view s);
// "a line break (CR)", "a line break (LF)", "a NUL byte": what forbiddenByte found.
std::string_view forbiddenByteName(char c);

// Appends `text` as a request target, percent-encoded. False (and `out`
// unchanged) when it holds a CR, LF or NUL.
bool appendTarget(std::string& out, std::string_view text);
// Appends `text` percent-encoded as a form's name or value is (RFC 3986's
// unreserved bytes kept, every other byte %XX: a space is %20).
void appendFormComponent(std::string& out, std::string_view text);
// Appends `value` as `field` takes it; false (and `out` unchanged) when it cannot be sent.
inline bool appendField(std::string& out, std::string_view value, WireField field)
{
    switch (field) {
    case WireField::Target:
        return appendTarget(out, value);
    case WireField::HeaderValue:
        if (forbiddenByte(value) != std::string_view::npos)
            return false;
        break;
    case WireField::FormComponent:
        appendFormComponent(out, value);
        return true;
    case WireField::Body:
        break;
    }
    out.append(value);
    return true;
}

// Why `value` cannot go into `field` ("" when it can): "holds a line break (CR) at byte 4".
std::string fieldFault(std::string_view value, WireField field);
// Why a header written as it is cannot be sent ("" when it can): its name is
// not an HTTP token, or its value holds a CR, LF or NUL.
std::string headerFault(std::string_view name, std::string_view value);

} // namespace stampede
