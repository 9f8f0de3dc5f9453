// What a realm has beside the standard classes: CryptoJS's digests, HMACs
// and encodings (MD5, SHA1, SHA256, SHA512, HmacMD5/SHA1/SHA256/SHA512,
// enc.Hex, enc.Base64, enc.Utf8, enc.Latin1) and btoa/atob - on OpenSSL, with
// CryptoJS's word arrays as hex in JavaScript. The natives they call are
// taken into the prelude's closure and removed from the global.
#include "builtins.h"

#include <js/CallArgs.h>
#include <js/Conversions.h>
#include <js/PropertyAndElement.h>
#include <js/PropertySpec.h>
#include <js/String.h>
#include <jsapi.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <string>

namespace stampede::script {

namespace {

bool argText(JSContext* cx, const JS::CallArgs& args, unsigned i, std::string& out)
{
    JS::RootedString s(cx, JS::ToString(cx, args.get(i)));
    if (!s)
        return false;
    JS::UniqueChars chars = JS_EncodeStringToUTF8(cx, s);
    if (!chars)
        return false;
    out = chars.get();
    return true;
}

bool fromHex(const std::string& hex, std::string& out);
bool fail(JSContext* cx, const char* message);

// Argument i, hex, as its bytes (a script's own malformed hex throws).
bool argBytes(JSContext* cx, const JS::CallArgs& args, unsigned i, std::string& out)
{
    std::string hex;
    if (!argText(cx, args, i, hex))
        return false;
    return fromHex(hex, out) || fail(cx, "Malformed hex data");
}

bool returnText(JSContext* cx, JS::CallArgs& args, const std::string& text)
{
    JSString* s = JS_NewStringCopyUTF8N(cx, JS::UTF8Chars(text.data(), text.size()));
    if (!s)
        return false;
    args.rval().setString(s);
    return true;
}

std::string toHex(const unsigned char* p, std::size_t n)
{
    static const char digits[] = "0123456789abcdef";
    std::string out;
    out.reserve(n * 2);
    for (std::size_t i = 0; i < n; ++i) {
        out += digits[p[i] >> 4];
        out += digits[p[i] & 15];
    }
    return out;
}

bool fromHex(const std::string& hex, std::string& out)
{
    auto nibble = [](char c) {
        return c >= '0' && c <= '9'   ? c - '0'
               : c >= 'a' && c <= 'f' ? c - 'a' + 10
               : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                      : -1;
    };
    if (hex.size() % 2)
        return false;
    out.clear();
    out.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int hi = nibble(hex[i]), lo = nibble(hex[i + 1]);
        if (hi < 0 || lo < 0)
            return false;
        out += char(hi * 16 + lo);
    }
    return true;
}

const EVP_MD* digestNamed(const std::string& name)
{
    return name == "md5"      ? EVP_md5()
           : name == "sha1"   ? EVP_sha1()
           : name == "sha256" ? EVP_sha256()
           : name == "sha512" ? EVP_sha512()
                              : nullptr;
}

bool fail(JSContext* cx, const char* message)
{
    JS_ReportErrorUTF8(cx, "%s", message);
    return false;
}

// __utf8hex(text): the text's UTF-8 bytes as hex
bool utf8hex(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    std::string text;
    if (!argText(cx, args, 0, text))
        return false;
    return returnText(cx, args, toHex(reinterpret_cast<const unsigned char*>(text.data()), text.size()));
}

// __hexutf8(hex): the bytes read as UTF-8
bool hexutf8(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    std::string bytes;
    return argBytes(cx, args, 0, bytes) && returnText(cx, args, bytes);
}

// __digest(name, hex): the digest of the bytes, as hex
bool digest(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    std::string name, bytes;
    if (!argText(cx, args, 0, name) || !argBytes(cx, args, 1, bytes))
        return false;
    const EVP_MD* md = digestNamed(name);
    if (!md)
        return fail(cx, "unknown digest");
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!EVP_Digest(bytes.data(), bytes.size(), out, &n, md, nullptr))
        return fail(cx, "the digest failed");
    return returnText(cx, args, toHex(out, n));
}

// __hmac(name, keyHex, dataHex): the HMAC, as hex
bool hmac(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    std::string name, key, data;
    if (!argText(cx, args, 0, name) || !argBytes(cx, args, 1, key) || !argBytes(cx, args, 2, data))
        return false;
    const EVP_MD* md = digestNamed(name);
    if (!md)
        return fail(cx, "unknown digest");
    unsigned char out[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (!HMAC(md, key.data(), int(key.size()), reinterpret_cast<const unsigned char*>(data.data()), data.size(), out,
              &n))
        return fail(cx, "the HMAC failed");
    return returnText(cx, args, toHex(out, n));
}

// __b64encode(hex): the bytes in Base64
bool b64encode(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    std::string bytes;
    if (!argBytes(cx, args, 0, bytes))
        return false;
    std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
    const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(bytes.data()), int(bytes.size()));
    out.resize(std::size_t(n));
    return returnText(cx, args, out);
}

// __b64decode(text): the Base64's bytes as hex (ASCII whitespace ignored);
// throws on anything else that is not Base64
bool b64decode(JSContext* cx, unsigned argc, JS::Value* vp)
{
    JS::CallArgs args = JS::CallArgsFromVp(argc, vp);
    std::string text, clean;
    if (!argText(cx, args, 0, text))
        return false;
    for (const char c : text)
        if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f')
            clean += c;
    if (clean.size() % 4 == 2)
        clean += "==";
    else if (clean.size() % 4 == 3)
        clean += "=";
    if (clean.size() % 4)
        return fail(cx, "The string to be decoded is not correctly encoded.");
    std::string out(clean.size() / 4 * 3, '\0');
    const int n = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(out.data()),
                                  reinterpret_cast<const unsigned char*>(clean.data()), int(clean.size()));
    if (n < 0)
        return fail(cx, "The string to be decoded is not correctly encoded.");
    std::size_t size = std::size_t(n);
    for (std::size_t i = clean.size(); i > 0 && clean[i - 1] == '='; --i)
        --size; // EVP_DecodeBlock counts the padding's bytes
    return returnText(cx, args, toHex(reinterpret_cast<const unsigned char*>(out.data()), size));
}

const char* const kPrelude = R"JS(
(() => {
  const natives = { utf8hex: __utf8hex, hexutf8: __hexutf8, digest: __digest, hmac: __hmac,
                    b64encode: __b64encode, b64decode: __b64decode };
  for (const name of ['__utf8hex', '__hexutf8', '__digest', '__hmac', '__b64encode', '__b64decode'])
    delete globalThis[name];
  const latin1hex = (s) => {
    let hex = '';
    for (let i = 0; i < s.length; ++i) {
      const c = s.charCodeAt(i);
      if (c > 255) return null;
      hex += (c < 16 ? '0' : '') + c.toString(16);
    }
    return hex;
  };
  const hexlatin1 = (hex) => {
    let s = '';
    for (let i = 0; i < hex.length; i += 2) s += String.fromCharCode(parseInt(hex.substr(i, 2), 16));
    return s;
  };
  class WordArray {
    constructor(hex) { this.hex = hex; }
    get sigBytes() { return this.hex.length / 2; }
    toString(encoder) { return (encoder || enc.Hex).stringify(this); }
    concat(other) { this.hex += other.hex; return this; }
    clone() { return new WordArray(this.hex); }
  }
  const enc = {
    Hex: { stringify: (w) => w.hex, parse: (h) => new WordArray(String(h).toLowerCase()) },
    Base64: { stringify: (w) => natives.b64encode(w.hex), parse: (s) => new WordArray(natives.b64decode(s)) },
    Utf8: { stringify: (w) => natives.hexutf8(w.hex), parse: (s) => new WordArray(natives.utf8hex(String(s))) },
    Latin1: { stringify: (w) => hexlatin1(w.hex), parse: (s) => new WordArray(latin1hex(String(s)) ?? '') },
  };
  const words = (v) => (v instanceof WordArray ? v : enc.Utf8.parse(v));
  const hash = (name) => (message) => new WordArray(natives.digest(name, words(message).hex));
  const hmac = (name) => (message, key) => new WordArray(natives.hmac(name, words(key).hex, words(message).hex));
  Object.defineProperty(globalThis, 'CryptoJS', { value: Object.freeze({
    MD5: hash('md5'), SHA1: hash('sha1'), SHA256: hash('sha256'), SHA512: hash('sha512'),
    HmacMD5: hmac('md5'), HmacSHA1: hmac('sha1'), HmacSHA256: hmac('sha256'), HmacSHA512: hmac('sha512'),
    enc: Object.freeze(enc), lib: Object.freeze({ WordArray }) }), writable: true, configurable: true });
  // btoa/atob as browsers have them: Latin-1 text, an InvalidCharacterError otherwise
  const invalid = (what) => {
    const e = new Error(what); // (defined: the realm's Error.prototype is frozen, its name is not assigned over)
    Object.defineProperty(e, 'name', { value: 'InvalidCharacterError', writable: true, configurable: true });
    return e;
  };
  globalThis.btoa = (text) => {
    const hex = latin1hex(String(text));
    if (hex === null) throw invalid('btoa: the string contains characters outside of the Latin1 range');
    return natives.b64encode(hex);
  };
  globalThis.atob = (text) => {
    let hex;
    try { hex = natives.b64decode(String(text)); } catch (e) { throw invalid('atob: ' + e.message); }
    return hexlatin1(hex);
  };
})();
)JS";

} // namespace

const char* preludeSource()
{
    return kPrelude;
}

bool defineNatives(JSContext* cx, JS::HandleObject global)
{
    static const JSFunctionSpec natives[] = {JS_FN("__utf8hex", utf8hex, 1, 0),
                                             JS_FN("__hexutf8", hexutf8, 1, 0),
                                             JS_FN("__digest", digest, 2, 0),
                                             JS_FN("__hmac", hmac, 3, 0),
                                             JS_FN("__b64encode", b64encode, 1, 0),
                                             JS_FN("__b64decode", b64decode, 1, 0),
                                             JS_FS_END};
    return JS_DefineFunctions(cx, global, natives);
}

} // namespace stampede::script
