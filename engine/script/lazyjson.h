#pragma once
// pm.response.json() without building what the script never reads. The body
// is checked as JSON once (simdjson) and its bytes kept; each JSON object is
// an ordinary object whose members are made when the script first looks at
// it: when that first look is one key it has (`j.data`), that member alone;
// at any other look (another key, its keys, JSON.stringify, a freeze) all of
// its members, in the text's order, nested objects again so. Each array
// is a proxy of a real array (Array.isArray, its prototype and methods see an
// array) whose elements are read when anything first looks at what it holds.
// What it gives reads exactly as JSON.parse's fresh objects would (order,
// duplicate keys, numbers, -0, escapes, lone surrogates, UTF-8); a text
// simdjson does not take (not JSON, a byte order mark, not UTF-8, deeper than
// 1,024, an integer past 64 bits) is left to JSON.parse, which says why.
#include <string_view>

#include <jsapi.h>

namespace stampede::script {

// The parsed body as a document object (what jsonValue takes), or null when
// the text is for JSON.parse to read (and to say what is wrong with it).
bool jsonDocument(JSContext* cx, std::string_view text, JS::MutableHandleValue out);

// A fresh value read from `document` (jsonDocument's): primitives as they are,
// objects made when first looked at. False (an exception pending) when
// `document` is not one.
bool jsonValue(JSContext* cx, JS::HandleValue document, JS::MutableHandleValue out);

} // namespace stampede::script
