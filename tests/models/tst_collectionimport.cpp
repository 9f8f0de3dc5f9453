// Collections from other tools made into a project's requests, with real
// files written to the published formats (tests/models/data): a Postman
// Collection v2.1 with folders, auth and variables; an OpenAPI 3 YAML file
// with $refs; a HAR 1.2 file; curl commands. Each import is checked for the
// requests it made, what it reported as not imported, and a broken file is
// refused with the project unchanged. A collection goes out as Postman v2.1
// and comes back the same.
#include "collectionimport.h"

#include "collection/collection.h"

#include "store/projectstore.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMap>
#include <QTemporaryDir>
#include <QTest>

using stampede::ItemKind;
using stampede::ProjectItem;

namespace {

QByteArray dataFile(const char* name)
{
    QFile f(qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/models/data/") +
            QString::fromLatin1(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The project's tree as "kind name" lines, indented by depth (for "unchanged").
QString treeText(const stampede::ProjectStore& s, std::int64_t parent = 0, int depth = 0)
{
    QString out;
    for (const ProjectItem& i : s.children(parent))
        out += QString(depth * 2, QLatin1Char(' ')) + QString::fromLatin1(stampede::itemKindName(i.kind)) +
               QLatin1Char(' ') + QString::fromStdString(i.name) + QLatin1Char('\n') + treeText(s, i.id, depth + 1);
    return out;
}

// The request called `name` anywhere under `parent`.
RequestItem requestNamed(const stampede::ProjectStore& s, std::int64_t parent, const QString& name)
{
    for (const ProjectItem& i : s.children(parent)) {
        if (i.kind == ItemKind::Request && QString::fromStdString(i.name) == name)
            return RequestItem::fromJson(QByteArray::fromStdString(i.payload));
        if (i.kind == ItemKind::Folder) {
            const RequestItem r = requestNamed(s, i.id, name);
            if (!r.url.isEmpty())
                return r;
        }
    }
    return {};
}

QString header(const RequestItem& r, const QString& name)
{
    for (const auto& [k, v] : r.headers)
        if (k.compare(name, Qt::CaseInsensitive) == 0)
            return v;
    return {};
}

} // namespace

class TestCollectionImport : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    std::unique_ptr<stampede::ProjectStore> m_store;

private slots:
    void init()
    {
        std::string error;
        QFile::remove(m_dir.filePath(QStringLiteral("p.stampede")));
        m_store.reset();
        m_store = stampede::ProjectStore::create(m_dir.filePath(QStringLiteral("p.stampede")).toStdString(), error);
        QVERIFY2(m_store, error.c_str());
    }

    void postmanCollection()
    {
        const CollectionImport c =
            importCollection(dataFile("shop.postman_collection.json"), QStringLiteral("shop.json"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.format, QStringLiteral("Postman Collection v2.1"));
        QCOMPARE(c.requestCount(), 6);
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY2(id, qPrintable(error));
        QCOMPARE(treeText(*m_store), QStringLiteral("collection Shop API\n"
                                                    "  folder Catalog\n"
                                                    "    request List products\n"
                                                    "    folder Search\n"
                                                    "      request GraphQL search\n"
                                                    "  folder Admin\n"
                                                    "    request Create product\n"
                                                    "    request Upload image\n"
                                                    "    request Public login\n"
                                                    "    request Signed call\n"
                                                    "environment Shop API\n"));
        // variables: an environment named after the collection ({{x}} is ${x}); a disabled one left out
        const ProjectItem env = m_store->children(0)[1];
        const QJsonObject values = QJsonDocument::fromJson(QByteArray::fromStdString(env.payload)).object();
        QCOMPARE(values.value(QStringLiteral("baseUrl")).toString(), QStringLiteral("http://127.0.0.1:8080"));
        QCOMPARE(values.value(QStringLiteral("token")).toString(), QStringLiteral("dev-token"));
        QVERIFY(!values.contains(QStringLiteral("old")));

        const RequestItem list = requestNamed(*m_store, id, QStringLiteral("List products"));
        QCOMPARE(list.url, QStringLiteral("${baseUrl}/products?page=1"));
        QCOMPARE(header(list, QStringLiteral("Accept")), QStringLiteral("application/json"));
        QCOMPARE(header(list, QStringLiteral("X-Debug")), QString()); // disabled
        QCOMPARE(int(list.auth), int(RequestItem::Auth::Bearer));     // the collection's
        QCOMPARE(list.token, QStringLiteral("${token}"));
        const RequestItem create = requestNamed(*m_store, id, QStringLiteral("Create product"));
        QCOMPARE(int(create.auth), int(RequestItem::Auth::Basic)); // the folder's
        QCOMPARE(create.user, QStringLiteral("admin"));
        QCOMPARE(create.password, QStringLiteral("${adminPassword}"));
        QCOMPARE(int(create.bodyMode), int(RequestItem::BodyMode::Json));
        QCOMPARE(create.body, QStringLiteral("{\"name\": \"${productName}\", \"price\": 9.5}"));
        const RequestItem login = requestNamed(*m_store, id, QStringLiteral("Public login"));
        QCOMPARE(int(login.auth), int(RequestItem::Auth::None)); // noauth
        QCOMPARE(int(login.bodyMode), int(RequestItem::BodyMode::UrlEncoded));
        QCOMPARE(login.form, (RequestItem::Pairs{{QStringLiteral("user"), QStringLiteral("${user}")},
                                                 {QStringLiteral("pass"), QStringLiteral("secret")}}));
        const RequestItem upload = requestNamed(*m_store, id, QStringLiteral("Upload image"));
        QCOMPARE(int(upload.bodyMode), int(RequestItem::BodyMode::Multipart));
        QCOMPARE(upload.form.size(), 1);
        const RequestItem graphql = requestNamed(*m_store, id, QStringLiteral("GraphQL search"));
        QCOMPARE(QJsonDocument::fromJson(graphql.body.toUtf8()).object().value(QStringLiteral("query")).toString(),
                 QStringLiteral("{ products(q: \"tea\") { id } }"));

        // what it could not take, each naming where
        const QString report = c.notImported.join(QLatin1Char('\n'));
        for (const char* line :
             {"Admin / Upload image: the file field \"image\"", "Admin / Signed call: its awsv4 authorization",
              "Admin / Create product: Postman's dynamic variables ({{$randomColor}}) are kept as text"})
            QVERIFY2(report.contains(QString::fromUtf8(line)), qPrintable(report));
        QCOMPARE(c.notImported.size(), 3);
        // the scripts are kept: the collection's pre-request script before each request's own, in a function of its own
        QCOMPARE(list.testScript,
                 QStringLiteral("pm.test('200', function () {\n  pm.response.to.have.status(200);\n});"));
        QCOMPARE(list.preRequestScript, QStringLiteral("// the collection's script\n(function () {\n"
                                                       "pm.variables.set('ts', Date.now());\n})();\n"));
        QCOMPARE(create.preRequestScript, list.preRequestScript);
        // a dynamic variable the engine draws is a variable; another stays as text
        QCOMPARE(header(create, QStringLiteral("X-Request-Id")), QStringLiteral("${$guid}-{{$randomColor}}"));
        QVERIFY(create.testScript.isEmpty());
    }

    // An item's one event written as an object, not a list (newman's inherited-entities fixture): Postman's SDK
    // takes it as a list of one, so its test script is kept, not dropped.
    void anEventWrittenAsAnObjectIsKept()
    {
        const QByteArray json =
            "{\"info\": {\"name\": \"One\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"Auth\", \"request\": \"http://127.0.0.1:9/digest-auth\","
            " \"event\": {\"listen\": \"test\", \"script\": {\"exec\": [\"pm.test('ok', function () {});\"]}}}]}";
        const CollectionImport c = importCollection(json, QStringLiteral("one.json"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY2(id, qPrintable(error));
        QCOMPARE(requestNamed(*m_store, id, QStringLiteral("Auth")).testScript,
                 QStringLiteral("pm.test('ok', function () {});"));
    }

    // A URL written as parts is the URL newman sends: its parts, not its `raw` (Postman's SDK reads no raw when
    // they are there): a disabled query parameter left out, a key without a value without "=", `#` and `&` in a
    // key or value encoded (a {{variable}} in it kept), a line break encoded; the URL's user and password are the
    // request's Basic authorization when it has no other.
    void aUrlOfPartsIsTheUrlNewmanSends()
    {
        const QByteArray json =
            "{\"info\": {\"name\": \"Parts\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"},"
            " \"item\": [{\"name\": \"q\", \"request\": {\"url\": {\"raw\": \"  \", \"protocol\": \"http\","
            " \"auth\": {\"user\": \"us@r\", \"password\": \"p@ss\"}, \"host\": [\"127\", \"0\", \"0\", \"1\"],"
            " \"port\": \"8080\", \"path\": [\"get\"], \"query\": [{\"key\": \"a\", \"value\": \"\\nb\"},"
            " {\"key\": \"off\", \"value\": \"1\", \"disabled\": true}, {\"key\": \"b#a&r\", \"value\": null},"
            " {\"key\": \"v\", \"value\": \"{{x&y}}&1\"}]}}}]}";
        const CollectionImport c = importCollection(json, QStringLiteral("parts.json"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY2(id, qPrintable(error));
        const RequestItem q = requestNamed(*m_store, id, QStringLiteral("q"));
        QCOMPARE(q.url, QStringLiteral("http://us@r:p@ss@127.0.0.1:8080/get?a=%0Ab&b%23a%26r&v=${x&y}%261"));
        QCOMPARE(int(q.auth), int(RequestItem::Auth::Basic));
        QCOMPARE(q.user, QStringLiteral("us@r"));
        QCOMPARE(q.password, QStringLiteral("p@ss"));
    }

    // Issue 48: a formdata file field keeps the path of each file it names, found in the collection's folder
    // (newman's working directory) or below it, never its bytes; one that is missing or outside that folder is
    // named and left out (a field left with none is not sent), as newman leaves out a file it cannot load. The
    // request keeps its files through the editor's JSON, and its step reads them when it is sent.
    void postmanFileFields()
    {
        QTemporaryDir dir;
        QDir(dir.path()).mkpath(QStringLiteral("files"));
        QFile csv(dir.filePath(QStringLiteral("files/data.csv")));
        QVERIFY(csv.open(QIODevice::WriteOnly));
        csv.write("k,v\n");
        csv.close();
        const QByteArray collection =
            "{\"info\": {\"name\": \"up\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"}, \"item\": [{\"name\": "
            "\"Upload\", "
            "\"request\": {\"method\": \"POST\", \"url\": \"http://127.0.0.1:9/up\", \"body\": {\"mode\": "
            "\"formdata\", \"formdata\": [ "
            "{\"key\": \"a\", \"value\": \"1\", \"type\": \"text\"}, "
            "{\"key\": \"f\", \"type\": \"file\", \"src\": [\"files/data.csv\", \"files/gone.csv\"]}, "
            "{\"key\": \"out\", \"type\": \"file\", \"src\": \"../../etc/passwd\"}, "
            "{\"key\": \"abs\", \"type\": \"file\", \"src\": \"/etc/hostname\"}, "
            "{\"key\": \"none\", \"type\": \"file\", \"src\": \"nothing.bin\"}]}}}]} ";
        const QString path = dir.filePath(QStringLiteral("up.postman_collection.json"));
        const CollectionImport c = importCollection(collection, path, path);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY2(id, qPrintable(error));
        const RequestItem r = requestNamed(*m_store, id, QStringLiteral("Upload"));
        QCOMPARE(r.form, (RequestItem::Pairs{{QStringLiteral("a"), QStringLiteral("1")}, {QStringLiteral("f"), {}}}));
        const QString found =
            QDir::cleanPath(QFileInfo(dir.filePath(QStringLiteral("files/data.csv"))).absoluteFilePath());
        QCOMPARE(r.formFiles, (QMap<int, QStringList>{{1, {found}}}));
        const QString report = c.notImported.join(QLatin1Char('\n'));
        for (const char* line :
             {"Upload: the file field \"f\" names \"files/gone.csv\" (not found in ",
              "Upload: the file field \"out\" names \"../../etc/passwd\" (outside the working folder ",
              "Upload: the file field \"abs\" names \"/etc/hostname\" (outside the working folder ",
              "Upload: the file field \"none\" names \"nothing.bin\" (not found in "})
            QVERIFY2(report.contains(QString::fromUtf8(line)), qPrintable(report));
        QCOMPARE(c.notImported.size(), 4);
        // through the editor's JSON and back, then as the step that is sent: the file a part of its own
        const RequestItem back = RequestItem::fromJson(r.toJson());
        QCOMPARE(back.formFiles, r.formFiles);
        QCOMPARE(back.form, r.form);
        const QJsonObject step = back.toStep(QStringLiteral("s"));
        const QJsonArray files = step.value(QStringLiteral("request"))
                                     .toObject()
                                     .value(QStringLiteral("form"))
                                     .toObject()
                                     .value(QStringLiteral("files"))
                                     .toArray();
        QCOMPARE(files.size(), 1);
        QCOMPARE(files[0].toObject().value(QStringLiteral("file")).toString(), found);
        QCOMPARE(files[0].toObject().value(QStringLiteral("field")).toInt(), 1);
        // a project in the same folder keeps the path relative to it (the project moves with its files)
        const CollectionImport mine = importCollection(collection, path, path, dir.path());
        QCOMPARE(mine.items.front().request.formFiles,
                 (QMap<int, QStringList>{{1, {QStringLiteral("files/data.csv")}}}));
    }

    void postmanRoundTrip()
    {
        const CollectionImport c = importCollection(dataFile("shop.postman_collection.json"), QString());
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY(id);
        m_store->addItem(id, ItemKind::Request, "gRPC call",
                         "{\"kind\": \"grpc\", \"target\": \"http://127.0.0.1:50051\", \"method\": \"a.B/C\"}");
        QStringList skipped;
        const QByteArray out = exportPostman(*m_store, id,
                                             {{QStringLiteral("baseUrl"), QStringLiteral("http://127.0.0.1:8080")},
                                              {QStringLiteral("token"), QStringLiteral("dev-token")}},
                                             skipped);
        QCOMPARE(skipped, QStringList{QStringLiteral("gRPC call: a gRPC request")});
        const QJsonObject root = QJsonDocument::fromJson(out).object();
        QVERIFY(root.value(QStringLiteral("info"))
                    .toObject()
                    .value(QStringLiteral("schema"))
                    .toString()
                    .contains(QStringLiteral("v2.1.0")));
        // the collection's variables go out too (an import made them an environment)
        const QJsonArray vars = root.value(QStringLiteral("variable")).toArray();
        QCOMPARE(vars.size(), 2);
        QCOMPARE(vars[1].toObject().value(QStringLiteral("key")).toString(), QStringLiteral("token"));
        QCOMPARE(vars[1].toObject().value(QStringLiteral("value")).toString(), QStringLiteral("dev-token"));
        // read back: the same requests, the same fields, the same variables
        const CollectionImport back = importCollection(out, QStringLiteral("shop.postman_collection.json"));
        QCOMPARE(back.variables.size(), 2);
        QVERIFY2(back.error.isEmpty(), qPrintable(back.error));
        QCOMPARE(back.requestCount(), 6);
        const qint64 again = writeCollection(*m_store, back, error);
        QVERIFY(again);
        for (const char* name : {"List products", "Create product", "Public login", "GraphQL search"}) {
            const RequestItem a = requestNamed(*m_store, id, QString::fromLatin1(name));
            const RequestItem b = requestNamed(*m_store, again, QString::fromLatin1(name));
            QCOMPARE(b.toJson(), a.toJson());
        }
        QCOMPARE(QString::fromStdString(m_store->children(0).back().name), QStringLiteral("Shop API (2)"));
    }

    // Issue 48: Postman's OAuth 1.0 helper comes in with its fields (variables made ${name}), is kept through
    // the request editor's model, goes back out to Postman as it came (its booleans booleans), and an RSA
    // signature, which is not made, is named.
    void oauth1HelperRoundTrips()
    {
        const QByteArray collection =
            "{\"info\": {\"name\": \"O\", \"schema\": "
            "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"}, \"item\": ["
            " {\"name\": \"signed\", \"request\": {\"method\": \"GET\", \"url\": \"http://127.0.0.1:9/a\", \"auth\":"
            "  {\"type\": \"oauth1\", \"oauth1\": [{\"key\": \"consumerKey\", \"value\": \"{{ck}}\"},"
            "   {\"key\": \"consumerSecret\", \"value\": \"s\"}, {\"key\": \"addParamsToHeader\", \"value\": true},"
            "   {\"key\": \"addEmptyParamsToSign\", \"value\": false}, {\"key\": \"unknown\", \"value\": \"x\"}]}}},"
            " {\"name\": \"rsa\", \"request\": {\"method\": \"GET\", \"url\": \"http://127.0.0.1:9/b\", \"auth\":"
            "  {\"type\": \"oauth1\", \"oauth1\": {\"consumerKey\": \"k\", \"signatureMethod\": \"RSA-SHA1\"}}}}]}";
        const CollectionImport c = importCollection(collection, QStringLiteral("o.json"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.notImported, QStringList{QStringLiteral("rsa: its oauth1 RSA-SHA1 authorization")});
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY2(id, qPrintable(error));
        const RequestItem signedRequest = requestNamed(*m_store, id, QStringLiteral("signed"));
        const QJsonObject auth =
            QJsonDocument::fromJson(signedRequest.toJson()).object().value(QStringLiteral("auth")).toObject();
        QCOMPARE(auth.value(QStringLiteral("type")).toString(), QStringLiteral("oauth1"));
        QCOMPARE(auth.value(QStringLiteral("consumerKey")).toString(), QStringLiteral("${ck}"));
        QCOMPARE(auth.value(QStringLiteral("addParamsToHeader")).toString(), QStringLiteral("true"));
        QVERIFY(!auth.contains(QStringLiteral("unknown"))); // what the helper does not have is not kept
        QStringList skipped;
        const QJsonObject out = QJsonDocument::fromJson(exportPostman(*m_store, id, {}, skipped)).object();
        const QJsonObject back = out.value(QStringLiteral("item"))
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(QStringLiteral("request"))
                                     .toObject()
                                     .value(QStringLiteral("auth"))
                                     .toObject();
        QCOMPARE(back.value(QStringLiteral("type")).toString(), QStringLiteral("oauth1"));
        QMap<QString, QJsonValue> fields;
        for (const QJsonValue f : back.value(QStringLiteral("oauth1")).toArray())
            fields[f[QStringLiteral("key")].toString()] = f[QStringLiteral("value")];
        QCOMPARE(fields.value(QStringLiteral("consumerKey")), QJsonValue(QStringLiteral("{{ck}}")));
        QCOMPARE(fields.value(QStringLiteral("addParamsToHeader")), QJsonValue(true));
        QCOMPARE(fields.value(QStringLiteral("addEmptyParamsToSign")), QJsonValue(false));
    }

    void openApiYamlWithRefs()
    {
        const CollectionImport c = importCollection(dataFile("petstore.yaml"), QStringLiteral("petstore.yaml"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.format, QStringLiteral("OpenAPI 3.0.3"));
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY2(id, qPrintable(error));
        QCOMPARE(treeText(*m_store), QStringLiteral("collection Petstore\n"
                                                    "  folder pets\n"
                                                    "    request listPets\n"
                                                    "    request createPet\n"
                                                    "    request showPetById\n"
                                                    "    request deletePet\n"
                                                    "    request uploadPhoto\n"
                                                    "  folder store\n"
                                                    "    request Place an order\n"
                                                    "  request GET /health\n"
                                                    "  request putTree\n"
                                                    "environment Petstore\n"));
        const QJsonObject env =
            QJsonDocument::fromJson(QByteArray::fromStdString(m_store->children(0)[1].payload)).object();
        QCOMPARE(env.value(QStringLiteral("baseUrl")).toString(), QStringLiteral("http://127.0.0.1:8080/v1"));
        QVERIFY(env.contains(QStringLiteral("bearerToken")));
        QVERIFY(env.contains(QStringLiteral("apiKey")));

        const RequestItem list = requestNamed(*m_store, id, QStringLiteral("listPets"));
        // required, its default; cursor (optional, no default) left out; sort's default kept, its + encoded
        QCOMPARE(list.url, QStringLiteral("${baseUrl}/pets?limit=20&sort=name%2Basc"));
        QCOMPARE(header(list, QStringLiteral("X-Trace-Id")), QStringLiteral("00000000-0000-4000-8000-000000000000"));
        QCOMPARE(int(list.auth), int(RequestItem::Auth::Bearer)); // the global security
        QCOMPARE(list.token, QStringLiteral("${bearerToken}"));
        // the request body through two $refs, an example made from the schema
        const RequestItem create = requestNamed(*m_store, id, QStringLiteral("createPet"));
        QCOMPARE(int(create.bodyMode), int(RequestItem::BodyMode::Json));
        const QJsonObject pet = QJsonDocument::fromJson(create.body.toUtf8()).object();
        QCOMPARE(pet.value(QStringLiteral("name")).toString(), QStringLiteral("Rex"));
        QCOMPARE(pet.value(QStringLiteral("tag")).toString(), QStringLiteral("dog"));
        QCOMPARE(pet.value(QStringLiteral("born")).toString(), QStringLiteral("2026-01-01"));
        QCOMPARE(pet.value(QStringLiteral("category")).toObject().value(QStringLiteral("name")).toString(),
                 QStringLiteral("Dogs"));
        QCOMPARE(pet.value(QStringLiteral("photoUrls")).toArray().first().toString(),
                 QStringLiteral("https://example.com/"));
        QCOMPARE(pet.value(QStringLiteral("weight")).toDouble(), 0.5);
        QCOMPARE(pet.value(QStringLiteral("vaccinated")).toBool(), true);
        QCOMPARE(pet.value(QStringLiteral("code")).toString(), QStringLiteral("007")); // quoted in YAML: a string
        QVERIFY(!pet.contains(QStringLiteral("id")));                                  // readOnly
        // a path parameter from a $ref at the path's level; another with no example stays a variable
        QCOMPARE(requestNamed(*m_store, id, QStringLiteral("showPetById")).url, QStringLiteral("${baseUrl}/pets/42"));
        const RequestItem del = requestNamed(*m_store, id, QStringLiteral("deletePet"));
        QCOMPARE(header(del, QStringLiteral("X-API-Key")), QStringLiteral("${apiKey}"));
        QCOMPARE(int(del.auth), int(RequestItem::Auth::None));
        const RequestItem photo = requestNamed(*m_store, id, QStringLiteral("uploadPhoto"));
        QCOMPARE(photo.url, QStringLiteral("${baseUrl}/pets/${petId}/photo"));
        QCOMPARE(photo.form, (RequestItem::Pairs{{QStringLiteral("caption"), QStringLiteral("on the sofa")}}));
        QCOMPARE(int(photo.auth), int(RequestItem::Auth::Digest)); // http digest: the server's challenge answered
        QCOMPARE(photo.otherAuth.value(QStringLiteral("username")).toString(), QStringLiteral("${username}"));
        QVERIFY(env.contains(QStringLiteral("password")));
        const RequestItem order = requestNamed(*m_store, id, QStringLiteral("Place an order"));
        QCOMPARE(QJsonDocument::fromJson(order.body.toUtf8()).object().value(QStringLiteral("quantity")).toInt(), 2);
        QCOMPARE(int(requestNamed(*m_store, id, QStringLiteral("GET /health")).auth), int(RequestItem::Auth::None));
        // a schema that contains itself ends
        const QJsonObject tree =
            QJsonDocument::fromJson(requestNamed(*m_store, id, QStringLiteral("putTree")).body.toUtf8()).object();
        QVERIFY(tree.value(QStringLiteral("children")).toArray().first().isNull());

        const QString report = c.notImported.join(QLatin1Char('\n'));
        QVERIFY2(report.contains(QStringLiteral("POST /store/order: its oauth2 security (oauth)")), qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("POST /pets/{petId}/photo: the file field \"file\"")),
                 qPrintable(report));
        QCOMPARE(c.notImported.size(), 2);
    }

    // Issue 48: a specification split over files (DigitalOcean's is): each $ref into a file beside it, or in a
    // folder below it, is read once and followed, its own references relative to it (a "#/" one within it); a
    // reference to a file above the specification's folder, to a URL, to a file that is not there or does not
    // parse, or to a place the file does not have, is named (a file that cannot be read is tried once), and
    // its body left empty; references that lead back into themselves end.
    void openApiRefsIntoFilesBeside()
    {
        const QString spec =
            qEnvironmentVariable("STAMPEDE_SOURCE_DIR") + QStringLiteral("/tests/models/data/split-spec/spec.yaml");
        QFile f(spec);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const CollectionImport c = importCollection(f.readAll(), QStringLiteral("spec.yaml"), spec);
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY2(id, qPrintable(error));
        // a path item in paths/pets.yaml, its body's schema in schemas/pet.yaml (by "../"), in it a "#/Tag" of
        // that file and an owner from common.json, whose pets lead back to the pet (ended there)
        const QJsonObject pet =
            QJsonDocument::fromJson(requestNamed(*m_store, id, QStringLiteral("POST /pets")).body.toUtf8()).object();
        QCOMPARE(pet.value(QStringLiteral("name")).toString(), QStringLiteral("Rex"));
        QCOMPARE(pet.value(QStringLiteral("tag")).toObject().value(QStringLiteral("label")).toString(),
                 QStringLiteral("good"));
        QCOMPARE(pet.value(QStringLiteral("owner")).toObject().value(QStringLiteral("id")).toInt(), 7);
        QVERIFY(pet.value(QStringLiteral("owner")).toObject().value(QStringLiteral("pets")).toArray().first().isNull());
        const QJsonObject owner =
            QJsonDocument::fromJson(requestNamed(*m_store, id, QStringLiteral("POST /owners")).body.toUtf8()).object();
        QCOMPARE(owner.value(QStringLiteral("pets")).toArray().first().toObject().value(QStringLiteral("name")),
                 QJsonValue(QStringLiteral("Rex")));
        for (const char* empty : {"POST /secret", "POST /missing", "POST /remote", "POST /broken", "POST /nowhere"})
            QVERIFY2(requestNamed(*m_store, id, QString::fromLatin1(empty)).body.isEmpty(), empty);
        const QString report = c.notImported.join(QLatin1Char('\n'));
        QVERIFY2(report.contains(QStringLiteral("POST /secret: the external reference ../../etc/passwd#/x (only a file "
                                                "beside the specification, or in a folder below it, is read)")),
                 qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("POST /missing: the external reference nothere.yaml#/X (")),
                 qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("POST /again: the external reference nothere.yaml#/Y (")),
                 qPrintable(report)); // read once, named at each reference
        QVERIFY2(report.contains(QStringLiteral("POST /remote: the external reference https://example.com/s.yaml#/X")),
                 qPrintable(report));
        QVERIFY2(report.contains(QStringLiteral("POST /broken: the external reference schemas/broken.yaml#/X (")),
                 qPrintable(report));
        QVERIFY2(
            report.contains(QStringLiteral("POST /nowhere: the reference schemas/pet.yaml#/Nothing leads nowhere")),
            qPrintable(report));
        QCOMPARE(c.notImported.size(), 6);
        // without a reader (an import from text), each is named and nothing is opened
        const CollectionImport alone = importCollection(dataFile("split-spec/spec.yaml"), QStringLiteral("spec.yaml"));
        QVERIFY(alone.notImported.join(QLatin1Char('\n'))
                    .contains(QStringLiteral("the external reference paths/pets.yaml")));
    }

    void openApiJsonToo()
    {
        std::string json, error;
        QVERIFY(stampede::yamlToJson(dataFile("petstore.yaml").toStdString(), json, error));
        const CollectionImport c = importCollection(QByteArray::fromStdString(json), QStringLiteral("petstore.json"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.requestCount(), 8);
    }

    void harEntries()
    {
        const CollectionImport c = importCollection(dataFile("session.har"), QStringLiteral("session.har"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.format, QStringLiteral("HAR 1.2"));
        QString error;
        const qint64 id = writeCollection(*m_store, c, error);
        QVERIFY(id);
        QCOMPARE(treeText(*m_store), QStringLiteral("collection Firefox capture\n"
                                                    "  request GET /api/products\n"
                                                    "  request POST /api/cart\n"
                                                    "  request POST /login\n"));
        const RequestItem get = requestNamed(*m_store, id, QStringLiteral("GET /api/products"));
        QCOMPARE(get.url, QStringLiteral("https://shop.example.com/api/products?page=2"));
        QCOMPARE(get.headers, (RequestItem::Pairs{{QStringLiteral("Accept"), QStringLiteral("application/json")},
                                                  {QStringLiteral("Cookie"), QStringLiteral("sid=abc")}}));
        const RequestItem cart = requestNamed(*m_store, id, QStringLiteral("POST /api/cart"));
        QCOMPARE(int(cart.bodyMode), int(RequestItem::BodyMode::Json));
        QCOMPARE(cart.body, QStringLiteral("{\"sku\": \"tea-1\", \"qty\": 2}"));
        const RequestItem login = requestNamed(*m_store, id, QStringLiteral("POST /login"));
        QCOMPARE(int(login.bodyMode), int(RequestItem::BodyMode::UrlEncoded));
        QCOMPARE(login.form.size(), 2);
        QCOMPARE(c.notImported, QStringList{QStringLiteral("entry 4: no method or absolute URL")});
    }

    void curlCommands()
    {
        const QByteArray text = "# two commands\ncurl -X POST http://127.0.0.1:8080/orders \\\n  -H 'Content-Type: "
                                "application/json' -d '{\"id\": 1}'\n\ncurl http://127.0.0.1:8080/health\ncurl\n";
        const CollectionImport c = importCollection(text, QStringLiteral("calls.sh"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.requestCount(), 2);
        QCOMPARE(c.items[0].request.method, QStringLiteral("POST"));
        QCOMPARE(c.items[0].request.body, QStringLiteral("{\"id\": 1}"));
        QCOMPARE(c.items[1].name, QStringLiteral("GET /health"));
        QCOMPARE(c.notImported.size(), 1); // the bare "curl"
        // -F name=@file: found beside the commands (kept as a path), or named and left out
        QTemporaryDir dir;
        QFile up(dir.filePath(QStringLiteral("up.txt")));
        QVERIFY(up.open(QIODevice::WriteOnly));
        up.close();
        const QString path = dir.filePath(QStringLiteral("calls.sh"));
        const CollectionImport f =
            importCollection("curl -F 'gone=@nope.bin' -F a=1 -F 'f=@up.txt' http://127.0.0.1:8080/up\n",
                             QStringLiteral("calls.sh"), path);
        QCOMPARE(f.items[0].request.form,
                 (RequestItem::Pairs{{QStringLiteral("a"), QStringLiteral("1")}, {QStringLiteral("f"), {}}}));
        QCOMPARE(f.items[0].request.formFiles,
                 (QMap<int, QStringList>{{1, {QDir::cleanPath(dir.filePath(QStringLiteral("up.txt")))}}}));
        QCOMPARE(f.notImported.size(), 1);
        QVERIFY2(f.notImported[0].startsWith(
                     QStringLiteral("command 1: the file field \"gone\" names \"nope.bin\" (not found in ")),
                 qPrintable(f.notImported[0]));
    }

    void brokenFilesLeaveTheProjectUnchanged_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("message");
        const QByteArray postman = dataFile("shop.postman_collection.json");
        QTest::addRow("truncated json") << postman.left(postman.size() / 2) << QStringLiteral("shop.json")
                                        << QStringLiteral("Not valid JSON at byte");
        QTest::addRow("a number past a double") // once an exception that ended the process
            << QByteArray("{\"info\": {\"name\": \"n\"}, \"item\": [], \"x\": 12.5e400}") << QStringLiteral("n.json")
            << QStringLiteral("Not valid JSON at byte 42: number overflow parsing '12.5e400'");
        QTest::addRow("bad yaml") << QByteArray("openapi: 3.0.3\npaths:\n  /a: [unclosed\n") << QStringLiteral("a.yaml")
                                  << QStringLiteral("Not valid YAML");
        QTest::addRow("postman without items")
            << QByteArray("{\"info\": {\"name\": \"x\", \"schema\": "
                          "\"https://schema.getpostman.com/json/collection/v2.1.0/collection.json\"}, \"item\": {}}")
            << QStringLiteral("x.json") << QStringLiteral("has no list of items");
        QTest::addRow("swagger 2") << QByteArray("{\"swagger\": \"2.0\", \"paths\": {}}") << QStringLiteral("s.json")
                                   << QStringLiteral("Swagger 2.0 is not read");
        QTest::addRow("openapi without operations") << QByteArray("openapi: 3.1.0\ninfo: {title: t}\npaths: {}\n")
                                                    << QStringLiteral("e.yaml") << QStringLiteral("no operation");
        QTest::addRow("something else") << QByteArray("{\"hello\": 1}") << QStringLiteral("x.json")
                                        << QStringLiteral("Not a Postman collection, an OpenAPI 3 file");
        QTest::addRow("alias bomb") << QByteArray("openapi: 3.0.0\na: &a [x, x, x, x, x, x, x, x, x, x]\n"
                                                  "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
                                                  "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
                                                  "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
                                                  "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
                                                  "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
                                                  "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n")
                                    << QStringLiteral("bomb.yaml") << QStringLiteral("aliases expanded");
    }
    void brokenFilesLeaveTheProjectUnchanged()
    {
        QFETCH(QByteArray, data);
        QFETCH(QString, file);
        QFETCH(QString, message);
        m_store->addItem(0, ItemKind::Collection, "mine", "{}");
        const QString before = treeText(*m_store);
        const CollectionImport c = importCollection(data, file);
        QVERIFY2(c.error.contains(message), qPrintable(c.error));
        QString error;
        QCOMPARE(writeCollection(*m_store, c, error), qint64(0));
        QCOMPARE(error, c.error);
        QCOMPARE(treeText(*m_store), before);
    }

    // A file that begins with a byte order mark (as Windows editors save) is read as any other.
    void aByteOrderMarkIsSkipped()
    {
        const CollectionImport c =
            importCollection("\xEF\xBB\xBF" + dataFile("shop.postman_collection.json"), QStringLiteral("shop.json"));
        QVERIFY2(c.error.isEmpty(), qPrintable(c.error));
        QCOMPARE(c.requestCount(), 6);
    }

    // A write the store refuses half-way leaves nothing: one transaction.
    void aRefusedWriteLeavesNothing()
    {
        std::vector<stampede::ProjectStore::NewItem> roots(1);
        roots[0].kind = ItemKind::Collection;
        roots[0].name = "c";
        roots[0].children.resize(2);
        roots[0].children[0].name = "fine";
        roots[0].children[1].name = ""; // refused: a name is needed
        QCOMPARE(m_store->addTree(0, roots), std::int64_t(0));
        QCOMPARE(QString::fromStdString(m_store->lastError()), QStringLiteral("a name is needed"));
        QCOMPARE(treeText(*m_store), QString());
    }
};

QTEST_GUILESS_MAIN(TestCollectionImport)
#include "tst_collectionimport.moc"
