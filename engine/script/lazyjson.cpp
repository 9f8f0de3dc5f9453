#include "lazyjson.h"

#include <js/Array.h>
#include <js/Object.h>
#include <js/PropertyAndElement.h>
#include <js/Proxy.h>
#include <js/Realm.h>
#include <js/String.h>
#include <js/Wrapper.h>
#include <simdjson.h>

#include <charconv>
#include <clocale>
#include <cstdint>
#include <cstring>
#include <limits>
#include <locale.h>
#include <string>
#include <vector>

namespace stampede::script {

namespace {

// A body that simdjson has taken as JSON (so what is read here is known to be
// well formed) is kept as a string, a Latin-1 character a byte, that the GC
// owns (no finalizer; a nursery's string when it dies young): first a table
// of where each '{' and '[' is and where it closes (a count, then pairs of
// 32-bit offsets into the string, in the order they open), then the body's
// bytes. The characters may move when the GC runs, so a reader takes them
// afresh after anything that allocates.
//
// The document handed to the prelude: an object of this class holding that
// string and where the body begins in it (so a value the script could put in
// its place is refused).
const JSClass kDocClass = {"JsonDocument", JSCLASS_HAS_RESERVED_SLOTS(2), nullptr, nullptr, nullptr, nullptr};

// A lazy object's slots: the bytes (undefined once made), where its '{' is
// in them, and the one key read alone before the rest (undefined: none).
enum : std::size_t
{
    kBytesSlot,
    kAtSlot,
    kOneSlot,
    kSlots
};

bool lazyEnumerate(JSContext* cx, JS::HandleObject obj);
bool lazyResolve(JSContext* cx, JS::HandleObject obj, JS::HandleId id, bool* resolvedp);
bool lazyMayResolve(const JSAtomState&, jsid, JSObject* maybeObj)
{
    return !maybeObj || JS::GetReservedSlot(maybeObj, kBytesSlot).isString();
}

const JSClassOps kLazyOps = {nullptr,        nullptr, lazyEnumerate, nullptr, lazyResolve,
                             lazyMayResolve, nullptr, nullptr,       nullptr, nullptr};
// Named "Object", as a plain object is wherever a class's name shows.
const JSClass kLazyClass = {"Object", JSCLASS_HAS_RESERVED_SLOTS(kSlots), &kLazyOps, nullptr, nullptr, nullptr};

class LazyArray;

// In `obj`'s realm while it lives (entered only when it is not the current
// one): what is made for an object is its own realm's (Object.prototype,
// Array), whoever looks at it first - the pm API's shared code included.
class InRealmOf
{
public:
    InRealmOf(JSContext* cx, JSObject* obj)
    {
        if (JS::GetCurrentRealmOrNull(cx) != JS::GetObjectRealmOrNull(obj))
            m_entered.emplace(cx, obj);
    }

private:
    mozilla::Maybe<JSAutoRealm> m_entered;
};

// Reads one well-formed JSON text (simdjson has checked it) from `at` on.
class Reader
{
    friend class LazyArray; // reads its array when first looked at

public:
    Reader(JSContext* cx, JS::HandleString bytes, std::size_t at)
        : m_cx(cx), m_bytes(bytes), m_proto(cx, JS::GetRealmObjectPrototype(cx)), m_at(at)
    {
    }
    char next()
    {
        const std::string_view t = text();
        while (m_at < t.size() && (t[m_at] == ' ' || t[m_at] == '\n' || t[m_at] == '\r' || t[m_at] == '\t'))
            ++m_at;
        return m_at < t.size() ? t[m_at] : '\0';
    }
    void take() { ++m_at; } // the character next() gave
    // A string (at its '"') as a property key.
    bool key(JS::MutableHandleId id)
    {
        JS::RootedString s(m_cx, string(true));
        return s && JS_StringToId(m_cx, s, id);
    }
    // The key at m_at ('"') as its bytes when it has no escape and is ASCII
    // (else empty, `plain` false); past it.
    std::string_view rawKey(bool& plain)
    {
        const std::string_view t = text();
        const std::size_t begin = m_at + 1, end = stringEnd(t, begin);
        m_at = end + 1;
        unsigned char any = 0;
        for (std::size_t i = begin; i < end; ++i)
            any |= static_cast<unsigned char>(t[i]) | (t[i] == '\\' ? 0x80 : 0);
        plain = any < 0x80;
        return plain ? t.substr(begin, end - begin) : std::string_view();
    }
    // Past the value at next() (nothing made).
    void skipValue()
    {
        const std::string_view t = text();
        switch (next()) {
        case '{':
        case '[':
            skipNested();
            return;
        case '"':
            m_at = stringEnd(t, m_at + 1) + 1;
            return;
        default: // a number, true, false or null: up to what follows it
            while (m_at < t.size() && t[m_at] != ',' && t[m_at] != '}' && t[m_at] != ']' && t[m_at] != ' ' &&
                   t[m_at] != '\n' && t[m_at] != '\r' && t[m_at] != '\t')
                ++m_at;
        }
    }
    std::size_t at() const { return m_at; }
    void seek(std::size_t at) { m_at = at; }
    // The value at next(): an object to be made when first looked at, an
    // array with its elements, a primitive as JSON.parse reads it.
    bool value(JS::MutableHandleValue out)
    {
        switch (next()) {
        case '{':
            return lazyObject(out);
        case '[':
            return lazyArray(out);
        case '"':
            if (JSString* s = string(false)) {
                out.setString(s);
                return true;
            }
            return false;
        case 't':
            m_at += 4;
            out.setBoolean(true);
            return true;
        case 'f':
            m_at += 5;
            out.setBoolean(false);
            return true;
        case 'n':
            m_at += 4;
            out.setNull();
            return true;
        default:
            out.set(JS::NumberValue(number()));
            return true;
        }
    }

private:
    bool lazyArray(JS::MutableHandleValue out);
    // The bytes as they are now (valid until the next allocation).
    std::string_view text() const
    {
        JS::AutoCheckCannotGC nogc;
        JSLinearString* s = JS_ASSERT_STRING_IS_LINEAR(m_bytes);
        return {reinterpret_cast<const char*>(JS::GetLatin1LinearStringChars(nogc, s)), JS::GetLinearStringLength(s)};
    }
    bool lazyObject(JS::MutableHandleValue out)
    {
        const std::int32_t at = std::int32_t(m_at); // jsonDocument keeps offsets within int32
        skipNested();
        JSObject* obj = JS_NewObjectWithGivenProto(m_cx, &kLazyClass, m_proto);
        if (!obj)
            return false;
        JS::SetReservedSlot(obj, kBytesSlot, JS::StringValue(m_bytes));
        JS::SetReservedSlot(obj, kAtSlot, JS::Int32Value(at));
        JS::SetReservedSlot(obj, kOneSlot, JS::UndefinedValue());
        out.setObject(*obj);
        return true;
    }
    // The array at m_at ('['), its elements read now (its objects and
    // arrays again made when first looked at).
    bool array(JS::MutableHandleValue out)
    {
        take();
        JS::RootedValueVector values(m_cx);
        JS::RootedValue v(m_cx);
        while (next() != ']') {
            if (!value(&v) || !values.append(v)) {
                if (!JS_IsExceptionPending(m_cx))
                    JS_ReportOutOfMemory(m_cx);
                return false;
            }
            if (next() == ',')
                take();
        }
        take();
        JSObject* a = JS::NewArrayObject(m_cx, values);
        if (!a)
            return false;
        out.setObject(*a);
        return true;
    }
    // Where the string whose first character is at `from` ends (its closing '"').
    static std::size_t stringEnd(std::string_view t, std::size_t from)
    {
        const char* text = t.data();
        for (;;) {
            const char* quote = static_cast<const char*>(std::memchr(text + from, '"', t.size() - from));
            std::size_t at = std::size_t(quote - text), slashes = 0;
            while (text[at - 1 - slashes] == '\\')
                ++slashes;
            if (slashes % 2 == 0)
                return at;
            from = at + 1;
        }
    }
    // Past the object or array at m_at: its closing bracket, from the table.
    void skipNested()
    {
        const std::string_view t = text();
        std::uint32_t pairs = 0;
        std::memcpy(&pairs, t.data(), 4);
        std::uint32_t low = 0, high = pairs; // the pairs are in the order of their opening
        while (low < high) {
            const std::uint32_t middle = (low + high) / 2;
            std::uint32_t pair[2];
            std::memcpy(pair, t.data() + 4 + 8 * std::size_t(middle), 8);
            if (pair[0] == m_at) {
                m_at = std::size_t(pair[1]) + 1;
                return;
            }
            if (pair[0] < m_at)
                low = middle + 1;
            else
                high = middle;
        }
        m_at = t.size(); // not reached: every bracket is in the table
    }
    static unsigned hex4(const char* p)
    {
        unsigned v = 0;
        for (int i = 0; i < 4; ++i) {
            const char c = p[i];
            v = v * 16 + unsigned(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
        }
        return v;
    }
    // The string at m_at ('"'): its bytes as they are when it has no escape
    // and is ASCII (the common case), else decoded to UTF-16 (a lone
    // surrogate written as \u kept, as JSON.parse keeps it).
    JSString* string(bool atom)
    {
        const std::string_view t = text();
        const std::size_t begin = m_at + 1;
        const std::size_t end = stringEnd(t, begin);
        m_at = end + 1;
        unsigned char any = 0; // high bit: not ASCII
        bool escaped = false;
        for (std::size_t i = begin; i < end; ++i) {
            const unsigned char c = static_cast<unsigned char>(t[i]);
            any |= c;
            escaped |= c == '\\';
        }
        const bool plain = !escaped && any < 0x80;
        if (plain) { // copied out first: making the string may move the bytes
            m_plain.assign(t.data() + begin, end - begin);
            return atom ? JS_AtomizeStringN(m_cx, m_plain.data(), m_plain.size())
                        : JS_NewStringCopyN(m_cx, m_plain.data(), m_plain.size());
        }
        m_wide.clear();
        for (std::size_t i = begin; i < end;) {
            const unsigned char c = static_cast<unsigned char>(t[i]);
            if (c == '\\') {
                const char e = t[i + 1];
                i += 2;
                switch (e) {
                case 'b':
                    m_wide.push_back(u'\b');
                    break;
                case 'f':
                    m_wide.push_back(u'\f');
                    break;
                case 'n':
                    m_wide.push_back(u'\n');
                    break;
                case 'r':
                    m_wide.push_back(u'\r');
                    break;
                case 't':
                    m_wide.push_back(u'\t');
                    break;
                case 'u':
                    m_wide.push_back(char16_t(hex4(t.data() + i)));
                    i += 4;
                    break;
                default:
                    m_wide.push_back(char16_t(e));
                    break; // " \ /
                }
                continue;
            }
            // UTF-8 (valid: simdjson has checked it) to UTF-16
            const int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
            char32_t cp = extra == 0 ? c : extra == 1 ? c & 0x1F : extra == 2 ? c & 0x0F : c & 0x07;
            for (int k = 1; k <= extra; ++k)
                cp = (cp << 6) | (static_cast<unsigned char>(t[i + std::size_t(k)]) & 0x3F);
            i += std::size_t(extra) + 1;
            if (cp >= 0x10000) {
                cp -= 0x10000;
                m_wide.push_back(char16_t(0xD800 + (cp >> 10)));
                m_wide.push_back(char16_t(0xDC00 + (cp & 0x3FF)));
            } else {
                m_wide.push_back(char16_t(cp));
            }
        }
        return atom ? JS_AtomizeUCStringN(m_cx, m_wide.data(), m_wide.size())
                    : JS_NewUCStringCopyN(m_cx, m_wide.data(), m_wide.size());
    }
    // The number at m_at, correctly rounded as JSON.parse has it (past the
    // largest double: infinity; below the least: zero, its sign kept).
    double number()
    {
        const std::string_view t = text();
        const std::size_t begin = m_at;
        while (m_at < t.size() && t[m_at] != '\0' && std::strchr("+-.eE0123456789", t[m_at]))
            ++m_at;
        double v = 0;
        const char* first = t.data() + begin;
        const char* last = t.data() + m_at;
        const auto [end, error] = std::from_chars(first, last, v);
        if (error == std::errc() && end == last)
            return v;
        // out of range: strtod says infinity or zero (in the C locale whatever the process's)
        static const locale_t c = newlocale(LC_NUMERIC_MASK, "C", locale_t(nullptr));
        const std::string digits(first, last);
        return strtod_l(digits.c_str(), nullptr, c);
    }

    JSContext* m_cx;
    JS::HandleString m_bytes;
    JS::RootedObject m_proto; // Object.prototype: what a lazy object inherits
    std::size_t m_at;
    std::string m_plain;
    std::u16string m_wide;
};

// An array is a proxy of one (Array.isArray, JSON.stringify, its methods and
// its prototype see an array) until anything looks at what it holds: then its
// elements are read into the array it forwards to, and from there on it
// forwards everything. An array in an answer nobody reads costs nothing.
class LazyArray final : public js::ForwardingProxyHandler
{
public:
    static const char family;
    static const LazyArray singleton;
    constexpr LazyArray() : js::ForwardingProxyHandler(&family) {}
    // the proxy's slots: the bytes (undefined once read) and where its '[' is
    enum : std::size_t
    {
        kBytesSlot,
        kAtSlot,
        kSlots
    };

    static bool fill(JSContext* cx, JS::HandleObject proxy)
    {
        const JS::Value& slot = js::GetProxyReservedSlot(proxy, kBytesSlot);
        if (!slot.isString())
            return true;
        JS::RootedString bytes(cx, slot.toString());
        InRealmOf realm(cx, proxy);
        Reader read(cx, bytes, std::size_t(js::GetProxyReservedSlot(proxy, kAtSlot).toInt32()));
        js::SetProxyReservedSlot(proxy, kBytesSlot, JS::UndefinedValue());
        js::SetProxyReservedSlot(proxy, kAtSlot, JS::UndefinedValue());
        JS::RootedValue array(cx);
        if (!read.array(&array))
            return false;
        js::SetProxyPrivate(proxy, array);
        return true;
    }

    bool canNurseryAllocate() const override { return true; }
    bool getOwnPropertyDescriptor(JSContext* cx, JS::HandleObject proxy, JS::HandleId id,
                                  JS::MutableHandle<mozilla::Maybe<JS::PropertyDescriptor>> desc) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::getOwnPropertyDescriptor(cx, proxy, id, desc);
    }
    bool defineProperty(JSContext* cx, JS::HandleObject proxy, JS::HandleId id, JS::Handle<JS::PropertyDescriptor> desc,
                        JS::ObjectOpResult& result) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::defineProperty(cx, proxy, id, desc, result);
    }
    bool ownPropertyKeys(JSContext* cx, JS::HandleObject proxy, JS::MutableHandleIdVector props) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::ownPropertyKeys(cx, proxy, props);
    }
    bool delete_(JSContext* cx, JS::HandleObject proxy, JS::HandleId id, JS::ObjectOpResult& result) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::delete_(cx, proxy, id, result);
    }
    bool enumerate(JSContext* cx, JS::HandleObject proxy, JS::MutableHandleIdVector props) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::enumerate(cx, proxy, props);
    }
    bool preventExtensions(JSContext* cx, JS::HandleObject proxy, JS::ObjectOpResult& result) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::preventExtensions(cx, proxy, result);
    }
    bool has(JSContext* cx, JS::HandleObject proxy, JS::HandleId id, bool* bp) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::has(cx, proxy, id, bp);
    }
    bool get(JSContext* cx, JS::HandleObject proxy, JS::HandleValue receiver, JS::HandleId id,
             JS::MutableHandleValue vp) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::get(cx, proxy, receiver, id, vp);
    }
    bool set(JSContext* cx, JS::HandleObject proxy, JS::HandleId id, JS::HandleValue v, JS::HandleValue receiver,
             JS::ObjectOpResult& result) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::set(cx, proxy, id, v, receiver, result);
    }
    bool hasOwn(JSContext* cx, JS::HandleObject proxy, JS::HandleId id, bool* bp) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::hasOwn(cx, proxy, id, bp);
    }
    bool getOwnEnumerablePropertyKeys(JSContext* cx, JS::HandleObject proxy,
                                      JS::MutableHandleIdVector props) const override
    {
        return fill(cx, proxy) && ForwardingProxyHandler::getOwnEnumerablePropertyKeys(cx, proxy, props);
    }
    bool nativeCall(JSContext* cx, JS::IsAcceptableThis test, JS::NativeImpl impl,
                    const JS::CallArgs& args) const override
    {
        JS::RootedObject proxy(cx, &args.thisv().toObject());
        return fill(cx, proxy) && ForwardingProxyHandler::nativeCall(cx, test, impl, args);
    }
};
const char LazyArray::family = 0;
const LazyArray LazyArray::singleton;
const JSClass kLazyArrayClass = PROXY_CLASS_DEF("Proxy", JSCLASS_HAS_RESERVED_SLOTS(LazyArray::kSlots));

bool Reader::lazyArray(JS::MutableHandleValue out)
{
    const std::int32_t at = std::int32_t(m_at);
    skipNested();
    JS::RootedValue target(m_cx, JS::ObjectOrNullValue(JS::NewArrayObject(m_cx, 0)));
    if (target.isNull())
        return false;
    js::ProxyOptions options;
    options.setClass(&kLazyArrayClass).setLazyProto(true);
    JSObject* proxy = js::NewProxyObject(m_cx, &LazyArray::singleton, target, nullptr, options);
    if (!proxy)
        return false;
    js::SetProxyReservedSlot(proxy, LazyArray::kBytesSlot, JS::StringValue(m_bytes));
    js::SetProxyReservedSlot(proxy, LazyArray::kAtSlot, JS::Int32Value(at));
    out.setObject(*proxy);
    return true;
}

// Makes all of `obj`'s members, in the text's order (a key given twice keeps
// its first place and its last value, as JSON.parse has it); from then on it
// is an ordinary object. The one key read alone before (kOneSlot), when the
// object still has it, goes back to its place with what it holds now; when
// the script deleted it, it stays deleted. (It is the object's only own
// property: looking up any other key comes here first.)
bool materialize(JSContext* cx, JS::HandleObject obj)
{
    const JS::Value& slot = JS::GetReservedSlot(obj, kBytesSlot);
    if (!slot.isString())
        return true;
    JS::RootedString bytes(cx, slot.toString());
    InRealmOf realm(cx, obj);
    Reader read(cx, bytes, std::size_t(JS::GetReservedSlot(obj, kAtSlot).toInt32()) + 1);
    JS::RootedId one(cx);
    const JS::Value oneKey = JS::GetReservedSlot(obj, kOneSlot);
    const bool hadOne = oneKey.isString();
    JS::SetReservedSlot(obj, kBytesSlot, JS::UndefinedValue()); // made (what follows defines, not resolves)
    JS::SetReservedSlot(obj, kAtSlot, JS::UndefinedValue());
    JS::SetReservedSlot(obj, kOneSlot, JS::UndefinedValue());
    JS::Rooted<mozilla::Maybe<JS::PropertyDescriptor>> kept(cx); // the one key as it is now (Nothing: deleted)
    bool moved = false;                                          // taken out, to be put back in its place
    if (hadOne) {
        JS::RootedString name(cx, oneKey.toString());
        if (!JS_StringToId(cx, name, &one) || !JS_GetOwnPropertyDescriptorById(cx, obj, one, &kept))
            return false;
        JS::ObjectOpResult deleted;
        if (kept.isSome() && kept->configurable()) { // (one the script made unconfigurable stays first)
            if (!JS_DeletePropertyById(cx, obj, one, deleted))
                return false;
            moved = deleted.ok();
        }
    }
    JS::RootedId id(cx);
    JS::RootedValue value(cx);
    while (read.next() != '}') {
        if (!read.key(&id))
            return false;
        read.next(); // ':'
        read.take();
        if (hadOne && id.get() == one.get()) { // the one key: back once, as it is now, or not at all
            read.skipValue();
            if (moved) {
                JS::Rooted<JS::PropertyDescriptor> desc(cx, *kept.get());
                if (!JS_DefinePropertyById(cx, obj, id, desc))
                    return false;
            }
            moved = false;
        } else if (!read.value(&value) || !JS_DefinePropertyById(cx, obj, id, value, JSPROP_ENUMERATE)) {
            return false;
        }
        if (read.next() == ',')
            read.take();
    }
    return true;
}

// The member `id` of `obj` made alone (the script reads one key: the rest
// not made until it looks at another or at the whole), when it is a key
// the text has and every key of the object is plain ASCII; `done` false
// when the whole is to be made instead.
bool resolveOne(JSContext* cx, JS::HandleObject obj, JS::HandleId id, bool& done)
{
    done = false;
    if (!JS::GetReservedSlot(obj, kOneSlot).isUndefined() || !id.isString())
        return true;
    JSLinearString* name = JS::AtomToLinearString(id.toAtom());
    const std::size_t length = JS::GetLinearStringLength(name);
    if (!JS::LinearStringHasLatin1Chars(name) || length > 256)
        return true;
    char wanted[256];
    {
        JS::AutoCheckCannotGC nogc;
        std::memcpy(wanted, JS::GetLatin1LinearStringChars(nogc, name), length);
    }
    JS::RootedString bytes(cx, JS::GetReservedSlot(obj, kBytesSlot).toString());
    InRealmOf realm(cx, obj);
    Reader read(cx, bytes, std::size_t(JS::GetReservedSlot(obj, kAtSlot).toInt32()) + 1);
    std::size_t found = 0; // where its last value is (0: not there)
    while (read.next() != '}') {
        bool plain = false;
        const std::string_view key = read.rawKey(plain);
        if (!plain)
            return true;
        read.next(); // ':'
        read.take();
        if (key == std::string_view(wanted, length))
            found = read.at();
        read.skipValue();
        if (read.next() == ',')
            read.take();
    }
    if (!found)
        return true; // not a key of it: the whole is made (what else is looked up is then found as usual)
    read.seek(found);
    JS::RootedValue value(cx);
    if (!read.value(&value) || !JS_DefinePropertyById(cx, obj, id, value, JSPROP_ENUMERATE))
        return false;
    JS::SetReservedSlot(obj, kOneSlot, JS::StringValue(id.toString()));
    done = true;
    return true;
}

bool lazyEnumerate(JSContext* cx, JS::HandleObject obj)
{
    return materialize(cx, obj);
}

bool lazyResolve(JSContext* cx, JS::HandleObject obj, JS::HandleId id, bool* resolvedp)
{
    *resolvedp = false;
    if (!JS::GetReservedSlot(obj, kBytesSlot).isString())
        return true;
    bool done = false;
    if (!resolveOne(cx, obj, id, done))
        return false;
    if (done) {
        *resolvedp = true;
        return true;
    }
    return materialize(cx, obj) && JS_AlreadyHasOwnPropertyById(cx, obj, id, resolvedp);
}

// jsonDocument's scratch, kept from one answer to the next.
struct Scratch
{
    std::vector<std::uint32_t> table; // the count, then (open, close) pairs
    std::vector<std::size_t> open;    // where in `table` each bracket still open is
    std::string bytes;                // the table, then the body
};

} // namespace

bool jsonDocument(JSContext* cx, std::string_view text, JS::MutableHandleValue out)
{
    out.setNull();
    // JSON.parse takes no byte order mark (simdjson would skip it); nothing is no JSON either (and an empty view
    // may point at no bytes, which simdjson would copy from: make asan's UBSan stopped an engine there)
    if (text.substr(0, 3) == "\xEF\xBB\xBF" || text.empty())
        return true;
    thread_local simdjson::dom::parser parser; // its buffers kept from one answer to the next
    simdjson::dom::element root;
    if (parser.parse(text.data(), text.size(), true).get(root) != simdjson::SUCCESS)
        return true;
    // The table of brackets: where each '{' and '[' is and its match, in
    // order, from the structural characters simdjson's first stage found
    // (the document is valid, so they nest).
    const auto& found = *parser.implementation;
    thread_local Scratch scratch;
    std::vector<std::uint32_t>& table = scratch.table;
    table.assign(1, 0);
    std::vector<std::size_t>& open = scratch.open;
    open.clear();
    for (std::uint32_t i = 0; i < found.n_structural_indexes; ++i) {
        const std::uint32_t at = found.structural_indexes[i];
        const char c = text[at];
        if (c == '{' || c == '[') {
            open.push_back(table.size());
            table.push_back(at);
            table.push_back(0);
        } else if (c == '}' || c == ']') {
            table[open.back() + 1] = at;
            open.pop_back();
        }
    }
    const std::size_t pairs = (table.size() - 1) / 2;
    const std::size_t head = 4 + 8 * pairs; // the body's offset in the bytes
    if (head + text.size() >= std::size_t(std::numeric_limits<std::int32_t>::max()))
        return true; // offsets past int32: JSON.parse's to read
    table[0] = std::uint32_t(pairs);
    for (std::size_t i = 1; i < table.size(); ++i)
        table[i] += std::uint32_t(head);
    std::string& bytes = scratch.bytes;
    bytes.resize(head + text.size());
    std::memcpy(bytes.data(), table.data(), head);
    std::memcpy(bytes.data() + head, text.data(), text.size());
    JS::RootedString kept(cx, JS_NewStringCopyN(cx, bytes.data(), bytes.size()));
    if (!kept)
        return false;
    JSObject* document = JS_NewObject(cx, &kDocClass);
    if (!document)
        return false;
    JS::SetReservedSlot(document, 0, JS::StringValue(kept));
    JS::SetReservedSlot(document, 1, JS::Int32Value(std::int32_t(head)));
    out.setObject(*document);
    return true;
}

bool jsonValue(JSContext* cx, JS::HandleValue document, JS::MutableHandleValue out)
{
    if (!document.isObject() || JS::GetClass(&document.toObject()) != &kDocClass) {
        JS_ReportErrorASCII(cx, "not a parsed JSON document");
        return false;
    }
    JS::RootedString bytes(cx, JS::GetReservedSlot(&document.toObject(), 0).toString());
    Reader read(cx, bytes, std::size_t(JS::GetReservedSlot(&document.toObject(), 1).toInt32()));
    return read.value(out);
}

} // namespace stampede::script
