// The natives a Postman script's run calls (the pm prelude keeps them in its
// closure and takes them off the shared global): the variables, the request,
// the answer's headers and body asked of the run's PmHost when first read
// (json()'s document made in the user's realm), and each pm.test, change and
// console line told to it as the script says it.
#include "pmnatives.h"

#include "lazyjson.h"

#include <js/CallArgs.h>
#include <js/CharacterEncoding.h>
#include <js/Conversions.h>
#include <js/PropertyAndElement.h>
#include <js/PropertySpec.h>
#include <js/String.h>
#include <jsapi.h>

#include <string>

namespace stampede::script {

JSString* newString(JSContext* cx, std::string_view text)
{
    if (JSString* s = JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(text.data(), text.size())))
        return s;
    JS_ClearPendingException(cx);
    size_t length = 0;
    JS::UniqueTwoByteChars wide(
        JS::LossyUTF8CharsToNewTwoByteCharsZ(cx, JS::UTF8Chars(text.data(), text.size()), &length, js::MallocArena)
            .get());
    return wide ? JS_NewUCStringCopyN(cx, wide.get(), length) : nullptr;
}

namespace {

PmHost* hostOf(JSContext* cx)
{
    PmHost* host = pmRunOf(cx).host;
    if (!host)
        JS_ReportErrorASCII(cx, "not in a script's run");
    return host;
}

// The run's answer body, asked of the host once (text() and json() both read it).
std::optional<std::string_view> bodyOf(JSContext* cx)
{
    PmRun& run = pmRunOf(cx);
    if (!hostOf(cx))
        return std::nullopt;
    if (!run.body)
        run.body = run.host->responseBody();
    return run.body;
}

bool returnString(JSContext* cx, JS::CallArgs& args, std::string_view text)
{
    JSString* s = newString(cx, text);
    if (!s)
        return false;
    args.rval().setString(s);
    return true;
}

// A JSON text the host writes: __pmVariables(), __pmRequest(), __pmHeaders().
template <void (PmHost::*part)(std::string&)> bool hostJson(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    PmHost* host = hostOf(cx);
    if (!host)
        return false;
    std::string json;
    (host->*part)(json);
    return returnString(cx, args, json);
}

// __pmBody(): the answer's body.
bool hostBody(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    const auto body = bodyOf(cx);
    return body && returnString(cx, args, *body);
}

// __pmJsonDoc(): the answer's body parsed, for __pmJsonValue; null when JSON.parse is to read it.
bool hostJsonDoc(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    const auto body = bodyOf(cx);
    if (!body)
        return false;
    JSAutoRealm ar(cx, *pmRunOf(cx).user);
    return jsonDocument(cx, *body, args.rval());
}

// __pmJsonValue(doc): a fresh value of it, its objects made when first looked at.
bool hostJsonValue(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    if (!hostOf(cx))
        return false;
    JSAutoRealm ar(cx, *pmRunOf(cx).user); // its objects are the user's realm's (their prototypes, instanceof)
    return jsonValue(cx, args.get(0), args.rval());
}

// The natives' argument buffers (a runtime is one thread's).
std::string& argBuffer(unsigned i)
{
    thread_local std::string buffers[3];
    return buffers[i];
}

// Argument `i` as UTF-8 (a lone surrogate as U+FFFD), whole, into argBuffer(i)
// (no allocation a run once it has grown). The prelude hands over strings
// only, so no script's code runs here to call back in between.
bool utf8Arg(JSContext* cx, const JS::CallArgs& args, unsigned i)
{
    JS::RootedString s(cx, args.get(i).isString() ? args.get(i).toString() : JS::ToString(cx, args.get(i)));
    if (!s)
        return false;
    std::string& out = argBuffer(i);
    out.resize(JS_GetStringLength(s) * 3); // a UTF-16 unit is at most 3 bytes of UTF-8
    const auto done = JS_EncodeStringToUTF8BufferPartial(cx, s, mozilla::Span<char>(out.data(), out.size()));
    if (!done)
        return false;
    out.resize(mozilla::Get<1>(*done));
    return true;
}

// __pmTest(name, passed, error)
bool hostTest(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    PmHost* host = hostOf(cx);
    if (!host || !utf8Arg(cx, args, 0) || !utf8Arg(cx, args, 2))
        return false;
    host->test(argBuffer(0), JS::ToBoolean(args.get(1)), argBuffer(2));
    args.rval().setUndefined();
    return true;
}

// __pmChange(scope, key, text): set; text undefined: unset; key undefined too: clear.
bool hostChange(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    PmHost* host = hostOf(cx);
    const bool hasKey = !args.get(1).isUndefined(), hasValue = !args.get(2).isUndefined();
    if (!host || (hasKey && !utf8Arg(cx, args, 1)) || (hasValue && !utf8Arg(cx, args, 2)))
        return false;
    const std::string_view k = argBuffer(1), v = argBuffer(2);
    host->change(args.get(0).isInt32() ? args.get(0).toInt32() : -1, hasKey ? &k : nullptr, hasValue ? &v : nullptr);
    args.rval().setUndefined();
    return true;
}

// __pmLog(line)
bool hostLog(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    PmHost* host = hostOf(cx);
    if (!host || !utf8Arg(cx, args, 0))
        return false;
    host->log(argBuffer(0));
    args.rval().setUndefined();
    return true;
}

} // namespace

bool defineHostNatives(JSContext* cx, JS::HandleObject global)
{
    static const JSFunctionSpec natives[] = {JS_FN("__pmVariables", hostJson<&PmHost::variables>, 0, 0),
                                             JS_FN("__pmRequest", hostJson<&PmHost::request>, 0, 0),
                                             JS_FN("__pmHeaders", hostJson<&PmHost::responseHeaders>, 0, 0),
                                             JS_FN("__pmBody", hostBody, 0, 0),
                                             JS_FN("__pmJsonDoc", hostJsonDoc, 0, 0),
                                             JS_FN("__pmJsonValue", hostJsonValue, 1, 0),
                                             JS_FN("__pmTest", hostTest, 3, 0),
                                             JS_FN("__pmChange", hostChange, 3, 0),
                                             JS_FN("__pmLog", hostLog, 1, 0),
                                             JS_FS_END};
    return JS_DefineFunctions(cx, global, natives);
}

} // namespace stampede::script
