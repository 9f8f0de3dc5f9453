// Cookies as a browser keeps them (RFC 6265): the Set-Cookie parser, HTTP
// dates in their three forms, and a jar's domain, path, secure and expiry
// rules, with time passed in.
#include "check/cookies.h"

#include <QTest>

using namespace stampede;

namespace {
constexpr std::int64_t kNow = 1764547200; // 2025-12-01T00:00:00Z
SetCookie parsed(const char* header)
{
    const auto c = parseSetCookie(header, kNow);
    if (!c)
        QTest::qFail(header, __FILE__, __LINE__);
    return c.value_or(SetCookie{});
}
} // namespace

class TestCookies : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void datesInTheirThreeForms()
    {
        const std::int64_t t = 1445412480; // 2015-10-21T07:28:00Z
        QCOMPARE(parseCookieDate("Wed, 21 Oct 2015 07:28:00 GMT"), std::optional<std::int64_t>(t));
        QCOMPARE(parseCookieDate("Wednesday, 21-Oct-15 07:28:00 GMT"), std::optional<std::int64_t>(t));
        QCOMPARE(parseCookieDate("Wed Oct 21 07:28:00 2015"), std::optional<std::int64_t>(t));
        QCOMPARE(parseCookieDate("Thu, 01 Jan 1970 00:00:00 GMT"), std::optional<std::int64_t>(0));
        QVERIFY(!parseCookieDate("Wed, 32 Oct 2015 07:28:00 GMT"));
        QVERIFY(!parseCookieDate("Wed, 21 Foo 2015 07:28:00 GMT"));
        QVERIFY(!parseCookieDate("Wed, 21 Oct 2015 24:00:00 GMT"));
        QVERIFY(!parseCookieDate("tomorrow"));
        QVERIFY(!parseCookieDate(""));
    }

    void setCookieAttributes()
    {
        const SetCookie c = parsed(" sid = abc123 ; Path=/shop; Domain=.Example.com; Secure; HttpOnly; "
                                   "Expires=Wed, 21 Oct 2015 07:28:00 GMT; Max-Age=60");
        QCOMPARE(c.name, std::string("sid"));
        QCOMPARE(c.value, std::string("abc123"));
        QCOMPARE(c.path, std::string("/shop"));
        QCOMPARE(c.domain, std::string("example.com"));
        QVERIFY(c.secure && c.httpOnly);
        QCOMPARE(c.expires, std::optional<std::int64_t>(kNow + 60)); // Max-Age wins, in any order
        QCOMPARE(parsed("a=1; Max-Age=0").expires, std::optional<std::int64_t>(kNow - 1));
        QCOMPARE(parsed("a=1; Max-Age=-5").expires, std::optional<std::int64_t>(kNow - 1));
        QVERIFY(!parsed("a=1; Max-Age=soon").expires);
        QVERIFY(parsed("a=1; Path=relative").path.empty()); // not a path: the default
        QCOMPARE(parsed("empty=").value, std::string());
        QVERIFY(!parseSetCookie("no pair here", kNow));
        QVERIFY(!parseSetCookie("=value", kNow));
    }

    void jarSendsWhatMatches()
    {
        CookieJar jar;
        jar.receive(parsed("sid=1"), "shop.example.com", "/cart/add", kNow); // host-only, path /cart
        jar.receive(parsed("lang=zh; Domain=example.com; Path=/"), "shop.example.com", "/", kNow);
        jar.receive(parsed("tok=s; Secure; Path=/"), "shop.example.com", "/", kNow);
        jar.receive(parsed("evil=1; Domain=other.com"), "shop.example.com", "/", kNow); // another domain
        jar.receive(parsed("tld=1; Domain=com"), "shop.example.com", "/", kNow);        // a bare suffix
        QCOMPARE(jar.size(), std::size_t(3));
        QCOMPARE(jar.header("shop.example.com", "/cart/view?x=1", false, kNow), std::string("sid=1; lang=zh"));
        QCOMPARE(jar.header("shop.example.com", "/cart", true, kNow), std::string("sid=1; lang=zh; tok=s"));
        QCOMPARE(jar.header("shop.example.com", "/cartoon", false, kNow), std::string("lang=zh"));  // not /cart
        QCOMPARE(jar.header("api.example.com", "/cart/view", false, kNow), std::string("lang=zh")); // host-only
        QCOMPARE(jar.header("example.org", "/", true, kNow), std::string());
    }

    void replacedAndExpired()
    {
        CookieJar jar;
        jar.receive(parsed("a=1; Path=/"), "h.test", "/", kNow);
        jar.receive(parsed("b=2; Path=/; Max-Age=10"), "h.test", "/", kNow);
        jar.receive(parsed("a=3; Path=/"), "h.test", "/", kNow); // replaced, keeps its place
        QCOMPARE(jar.header("h.test", "/", false, kNow), std::string("a=3; b=2"));
        QCOMPARE(jar.header("h.test", "/", false, kNow + 10), std::string("a=3")); // b expired
        jar.receive(parsed("a=x; Path=/; Max-Age=0"), "h.test", "/", kNow);        // deleted by the server
        QCOMPARE(jar.header("h.test", "/", false, kNow), std::string());
        QCOMPARE(jar.size(), std::size_t(0));
    }

    void boundedJar()
    {
        CookieJar jar;
        for (int i = 0; i < int(CookieJar::kMaxCookies) + 5; ++i)
            jar.receive(parsed(("c" + std::to_string(i) + "=v; Path=/").c_str()), "h.test", "/", kNow);
        QCOMPARE(jar.size(), CookieJar::kMaxCookies);
        QVERIFY(jar.header("h.test", "/", false, kNow).rfind("c5=v;", 0) == 0); // the oldest went
    }
};

QTEST_APPLESS_MAIN(TestCookies)
#include "tst_cookies.moc"
