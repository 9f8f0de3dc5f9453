// The natives a Postman script's run calls (the pm prelude keeps them in its
// closure and takes them off the shared global): the variables, the request,
// the answer's headers and body asked of the run's PmHost when first read
// (json()'s document made in the user's realm), and each pm.test, change and
// console line told to it as the script says it.
#include "pmnatives.h"

#include "lazyjson.h"
#include "nodemodules.h"

#include <js/Array.h>
#include <js/CallArgs.h>
#include <js/CharacterEncoding.h>
#include <js/Conversions.h>
#include <js/PropertyAndElement.h>
#include <js/PropertySpec.h>
#include <js/String.h>
#include <jsapi.h>

#include <cerrno>
#include <string>
#include <sys/random.h>

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

// A JSON text the host writes: __pmVariables(), __pmRequest(), __pmHeaders(), __pmCookies().
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

// __pmSendRequest(spec): the host's answer to pm.sendRequest, as JSON (see PmHost::sendRequest).
bool hostSendRequest(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    PmHost* host = hostOf(cx);
    if (!host || !utf8Arg(cx, args, 0))
        return false;
    std::string json;
    holdBudget(cx, true); // the wait for the answer is not the script's time
    host->sendRequest(argBuffer(0), json);
    holdBudget(cx, false);
    return returnString(cx, args, json);
}

// __pmShared(kind, key, value, by): the run's shared data asked (see PmHost::shared), its answer as JSON.
bool hostShared(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    PmHost* host = hostOf(cx);
    const bool hasValue = !args.get(2).isUndefined();
    if (!host || !args.get(0).isInt32() || !utf8Arg(cx, args, 1) || (hasValue && !utf8Arg(cx, args, 2)))
        return false;
    double by = 1;
    if (!args.get(3).isUndefined() && !JS::ToNumber(cx, args.get(3), &by))
        return false;
    std::string json;
    holdBudget(cx, true); // the wait for the controller is not the script's time
    host->shared(args.get(0).toInt32(), argBuffer(1), hasValue ? argBuffer(2) : std::string_view(), by, json);
    holdBudget(cx, false);
    return returnString(cx, args, json);
}

// __pmModule(spec, fromDir): [path, dir, source] of the module, or an Error saying why not.
bool hostModule(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    if (!utf8Arg(cx, args, 0) || !utf8Arg(cx, args, 1))
        return false;
    std::string error, source;
    const auto file = resolveModule(argBuffer(0), argBuffer(1), error);
    if (!file || !readModule(*file, source, error)) {
        JS_ReportErrorUTF8(cx, "%s", error.c_str());
        return false;
    }
    JS::RootedValueArray<3> parts(cx);
    for (std::size_t i = 0; i < 3; ++i) {
        JSString* s = newString(cx, i == 0 ? file->path : i == 1 ? file->dir : source);
        if (!s)
            return false;
        parts[i].setString(s);
    }
    JSObject* array = JS::NewArrayObject(cx, parts);
    if (!array)
        return false;
    args.rval().setObject(*array);
    return true;
}

// __pmModulesGlobal(): modulesGlobal's.
bool hostModulesGlobal(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    JSObject* global = modulesGlobal(cx);
    if (!global)
        return false;
    args.rval().setObject(*global);
    return true;
}

// __pmHold(hold): a module loads (true), or is loaded (false).
bool hostHold(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    holdBudget(cx, JS::ToBoolean(args.get(0)));
    args.rval().setUndefined();
    return true;
}

// __pmRandomBytes(n): n bytes (at most 65536, as crypto.getRandomValues) from the system's random source.
bool hostRandomBytes(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    const int n = args.get(0).isInt32() ? args.get(0).toInt32() : -1;
    if (n < 0 || n > 65536) {
        JS_ReportErrorASCII(cx, "getRandomValues: at most 65536 bytes");
        return false;
    }
    std::string bytes(std::size_t(n), '\0');
    for (std::size_t got = 0; got < bytes.size();) {
        const ssize_t r = ::getrandom(bytes.data() + got, bytes.size() - got, 0);
        if (r < 0 && errno != EINTR) {
            JS_ReportErrorASCII(cx, "getRandomValues: the system's random source failed");
            return false;
        }
        got += r > 0 ? std::size_t(r) : 0;
    }
    JS::RootedObject array(cx, JS::NewArrayObject(cx, std::size_t(n)));
    if (!array)
        return false;
    for (int i = 0; i < n; ++i)
        if (!JS_SetElement(cx, array, std::uint32_t(i), int32_t(std::uint8_t(bytes[std::size_t(i)]))))
            return false;
    args.rval().setObject(*array);
    return true;
}

} // namespace

bool defineHostNatives(JSContext* cx, JS::HandleObject global)
{
    static const JSFunctionSpec natives[] = {JS_FN("__pmVariables", hostJson<&PmHost::variables>, 0, 0),
                                             JS_FN("__pmRequest", hostJson<&PmHost::request>, 0, 0),
                                             JS_FN("__pmHeaders", hostJson<&PmHost::responseHeaders>, 0, 0),
                                             JS_FN("__pmCookies", hostJson<&PmHost::responseCookies>, 0, 0),
                                             JS_FN("__pmTrailers", hostJson<&PmHost::responseTrailers>, 0, 0),
                                             JS_FN("__pmBody", hostBody, 0, 0),
                                             JS_FN("__pmJsonDoc", hostJsonDoc, 0, 0),
                                             JS_FN("__pmJsonValue", hostJsonValue, 1, 0),
                                             JS_FN("__pmTest", hostTest, 3, 0),
                                             JS_FN("__pmChange", hostChange, 3, 0),
                                             JS_FN("__pmLog", hostLog, 1, 0),
                                             JS_FN("__pmModule", hostModule, 2, 0),
                                             JS_FN("__pmHold", hostHold, 1, 0),
                                             JS_FN("__pmModulesGlobal", hostModulesGlobal, 0, 0),
                                             JS_FN("__pmRandomBytes", hostRandomBytes, 1, 0),
                                             JS_FN("__pmSendRequest", hostSendRequest, 1, 0),
                                             JS_FN("__pmShared", hostShared, 4, 0),
                                             JS_FS_END};
    return JS_DefineFunctions(cx, global, natives);
}

} // namespace stampede::script
