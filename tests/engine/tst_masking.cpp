// Desensitising recorded traffic (issue "Traffic replay"): rules by field and
// their actions, the presets on a realistic request, the keyed hash (stable,
// digits kept digits, another key another value), and rules that do not read.
#include "traffic/masking.h"

#include <QTest>

using namespace stampede;

namespace {

Masker masker(std::initializer_list<const char*> rules, const char* key = "project-key")
{
    std::vector<MaskRule> all;
    for (const char* text : rules) {
        std::string error;
        auto r = MaskRule::parse(text, error);
        if (r.empty())
            qFatal("%s", error.c_str());
        all.insert(all.end(), r.begin(), r.end());
    }
    return Masker(std::move(all), key);
}

std::string header(const TrafficRecord& r, const char* name)
{
    for (const auto& [n, v] : r.headers)
        if (n == name)
            return v;
    return "(none)";
}

bool contains(const TrafficRecord& r, const std::string& text)
{
    if (r.target.find(text) != std::string::npos || r.body.find(text) != std::string::npos ||
        r.host.find(text) != std::string::npos)
        return true;
    for (const auto& [n, v] : r.headers)
        if (v.find(text) != std::string::npos)
            return true;
    return false;
}

} // namespace

class TestMasking : public QObject
{
    Q_OBJECT
private slots:
    void queryAndForm()
    {
        const Masker m = masker({"query:phone=hash", "query:debug=drop", "query:name=replace:someone",
                                 "form:password=replace:x", "form:card=drop"});
        TrafficRecord r;
        r.target = "/api/users?phone=13812345678&name=%E5%BC%A0%E4%B8%89&debug=1&page=2";
        r.body = "user=a&password=s3cret&card=6222020200112233445";
        r.headers = {{"content-type", "application/x-www-form-urlencoded"}};
        QCOMPARE(m.apply(r), std::size_t(5));
        const std::string phone = m.hash("13812345678");
        QCOMPARE(phone.size(), std::size_t(11));
        QVERIFY(phone != "13812345678");
        QCOMPARE(r.target, "/api/users?phone=" + phone + "&name=someone&page=2");
        QCOMPARE(r.body, std::string("user=a&password=x"));
        // only parameter dropped: no dangling "?"
        TrafficRecord only;
        only.target = "/a?debug=1";
        m.apply(only);
        QCOMPARE(only.target, std::string("/a"));
    }

    void headersAndCookies()
    {
        const Masker m = masker({"header:Authorization=replace:Bearer ***", "header:x-user-id=hash",
                                 "header:x-debug=drop", "cookie:session=hash", "cookie:tracking=drop"});
        TrafficRecord r;
        r.headers = {{"authorization", "Bearer eyJhbGciOi.abc"},
                     {"x-user-id", "u-42"},
                     {"x-debug", "1"},
                     {"cookie", "session=abc123; lang=zh; tracking=xyz"}};
        m.apply(r);
        QCOMPARE(header(r, "authorization"), std::string("Bearer ***"));
        QCOMPARE(header(r, "x-user-id"), m.hash("u-42"));
        QVERIFY(m.hash("u-42").rfind("h_", 0) == 0);
        QCOMPARE(header(r, "x-debug"), std::string("(none)"));
        QCOMPARE(header(r, "cookie"), "session=" + m.hash("abc123") + "; lang=zh");
    }

    void jsonKeysAtAnyDepth()
    {
        const Masker m = masker({"json:idCard=hash", "json:password=drop", "json:mobile=hash", "json:note=replace:-"});
        TrafficRecord r;
        r.body = "{\"user\": {\"idCard\": \"11010519491231002X\", \"password\": \"p\\\"w\", \"mobile\": 13812345678},"
                 " \"items\": [{\"note\": {\"x\": 1}, \"text\": \"idCard: 1\"}], \"password\": \"again\"}";
        QCOMPARE(m.apply(r), std::size_t(5));
        const std::string id = m.hash("11010519491231002X");
        QCOMPARE(id.size(), std::size_t(18));
        QCOMPARE(id.back(), 'X'); // an ID card number keeps its shape
        QCOMPARE(r.body, "{\"user\": {\"idCard\": \"" + id + "\", \"mobile\": " + m.hash("13812345678") +
                             "}, \"items\": [{\"note\": \"-\", \"text\": \"idCard: 1\"}]}");
        QVERIFY(!contains(r, "p\\\"w") && !contains(r, "again"));
    }

    // The presets over a realistic request: no original value is left anywhere.
    void presetsLeaveNoOriginal()
    {
        const Masker m = masker({"preset:cn-id", "preset:bank-card", "preset:cn-mobile", "preset:email",
                                 "preset:bearer", "preset:cookies"});
        TrafficRecord r;
        r.target = "/api/pay?phone=13912345678&mail=zhang.san%40example.com&to=user@example.com";
        r.headers = {{"authorization", "Bearer eyJ0eXAiOiJKV1QiLCJhbGc.payload.sig"},
                     {"cookie", "sid=s-98765; uid=77"},
                     {"x-contact", "+86 13600001111"}};
        r.body = "{\"idNo\": \"440301199001011234\", \"card\": \"6222021234567890123\", \"email\": \"li.si@corp.cn\", "
                 "\"amount\": 12}";
        const std::vector<std::string> originals = {
            "13912345678", "user@example.com",   "eyJ0eXAiOiJKV1QiLCJhbGc", "s-98765",
            "13600001111", "440301199001011234", "6222021234567890123",     "li.si@corp.cn"};
        m.apply(r);
        for (const auto& o : originals)
            QVERIFY2(!contains(r, o), o.c_str());
        QVERIFY(r.body.find("\"amount\": 12") != std::string::npos); // what is not personal stays
        QVERIFY(header(r, "authorization").rfind("Bearer h_", 0) == 0);
        QVERIFY(r.target.find("@masked.invalid") != std::string::npos);
    }

    // Issue 47: the defaults leave no credential sent as a header, whatever
    // its scheme or its header's name (Basic, a key, X-Auth-Token,
    // X-Client-Secret), and keep the rest.
    void defaultsCoverCredentialHeaders()
    {
        std::vector<MaskRule> rules;
        std::string error;
        QVERIFY2(parseMasks(defaultMasks(), rules, error), error.c_str());
        const Masker m(rules, "project-key");
        TrafficRecord r;
        r.target = "/api/orders";
        r.headers = {{"Authorization", "Basic YWxpY2U6czNjcmV0"},
                     {"Proxy-Authorization", "Digest username=\"a\""},
                     {"X-Api-Key", "k-1234567"},
                     {"X-Auth-Token", "tok-999"},
                     {"x-client-secret", "cs-42"},
                     {"X-Db-Password", "hunter2"},
                     {"Accept", "application/json"},
                     {"X-Request-Id", "req-1"}};
        m.apply(r);
        for (const char* original : {"YWxpY2U6czNjcmV0", "username", "k-1234567", "tok-999", "cs-42", "hunter2"})
            QVERIFY2(!contains(r, original), original);
        QCOMPARE(header(r, "Accept"), std::string("application/json"));
        QCOMPARE(header(r, "X-Request-Id"), std::string("req-1"));
    }

    // Issue 29: the default rules (every preset) catch tokens by name in
    // queries, forms and JSON at any depth, and e-mail addresses anywhere; a
    // rule's name may list several; each rule says how many values it changed.
    void defaultsCatchSecretsAndEmails()
    {
        std::vector<MaskRule> rules;
        for (const std::string& text : defaultMasks()) {
            std::string error;
            auto r = MaskRule::parse(text, error);
            QVERIFY2(!r.empty(), error.c_str());
            rules.insert(rules.end(), r.begin(), r.end());
        }
        const Masker m(rules, "project-key");
        TrafficRecord r;
        r.target = "/api/orders?token=abc123&access_token=AT-998&page=2&api_key=k-77&sign=9f8e7d";
        r.headers = {{"content-type", "application/json"}, {"x-note", "mail ops@shop.example.org"}};
        r.body = R"({"user": {"email": "wang.wu@example.com", "password": "hunter2", )"
                 R"("auth": {"secret": "s3cr3t", "refresh_token": "RT-1"}}, "page": 2})";
        std::vector<std::size_t> perRule;
        const std::size_t changed = m.apply(r, &perRule);
        for (const char* o : {"abc123", "AT-998", "k-77", "9f8e7d", "ops@shop.example.org", "wang.wu@example.com",
                              "hunter2", "s3cr3t", "RT-1"})
            QVERIFY2(!contains(r, o), o);
        QVERIFY2(r.target.find("page=2") != std::string::npos, r.target.c_str()); // not a secret: kept
        QVERIFY(r.body.find(R"("page": 2)") != std::string::npos);
        QCOMPARE(perRule.size(), rules.size());
        std::size_t sum = 0, secrets = 0, email = 0;
        for (std::size_t i = 0; i < rules.size(); ++i) {
            sum += perRule[i];
            if (rules[i].text == "preset:secrets")
                secrets += perRule[i];
            if (rules[i].text == "preset:email")
                email += perRule[i];
        }
        QCOMPARE(sum, changed);
        QCOMPARE(secrets, std::size_t(7)); // four in the query, three in the body
        QCOMPARE(email, std::size_t(2));

        TrafficRecord form;
        form.body = "username=zhao&password=p%40ss&sign=abc";
        const Masker listed = masker({"form:password|sign=replace:x"});
        QCOMPARE(listed.apply(form), std::size_t(2));
        QCOMPARE(form.body, std::string("username=zhao&password=x&sign=x"));
    }

    // Keyed and stable: the same value hashes the same within a key (so a user
    // stays one user), differently under another key; digits stay digits.
    void hashIsKeyedAndStable()
    {
        const Masker a = masker({"query:uid=hash"}, "key-a");
        const Masker b = masker({"query:uid=hash"}, "key-a");
        const Masker c = masker({"query:uid=hash"}, "key-b");
        QCOMPARE(a.hash("10086"), b.hash("10086"));
        QVERIFY(a.hash("10086") != c.hash("10086"));
        QVERIFY(a.hash("10086") != a.hash("10087"));
        for (const char* v : {"1", "90", "13800138000", "0123456789012345678901234567890123456789"}) {
            const std::string h = a.hash(v);
            QCOMPARE(h.size(), std::strlen(v));
            QVERIFY(std::all_of(h.begin(), h.end(), [](char ch) { return ch >= '0' && ch <= '9'; }));
            if (v[0] != '0')
                QVERIFY(h[0] != '0');
        }
        QCOMPARE(a.hash("13812345678").substr(0, 3), std::string("138")); // still a valid mobile number
        QVERIFY(a.hash("13812345678") != "13812345678");
    }

    void badRules_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("message");
        QTest::newRow("field") << "body:x=hash"
                               << "expected FIELD:NAME=ACTION";
        QTest::newRow("action") << "query:x=scramble"
                                << "the action is hash, drop or replace:TEXT";
        QTest::newRow("name") << "query:=hash"
                              << "no name before";
        QTest::newRow("preset") << "preset:passport"
                                << "no preset \"passport\" (cn-id, bank-card";
        QTest::newRow("regex") << "regex:([a-z=hash"
                               << "--mask \"regex:([a-z=hash\": ";
    }
    void badRules()
    {
        QFETCH(QString, text);
        QFETCH(QString, message);
        std::string error;
        QVERIFY(MaskRule::parse(text.toStdString(), error).empty());
        QVERIFY2(QString::fromStdString(error).contains(message), error.c_str());
    }
};

QTEST_APPLESS_MAIN(TestMasking)
#include "tst_masking.moc"
