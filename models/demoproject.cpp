#include "demoproject.h"

#include "projectmock.h"

#include "grpc/protoschema.h"
#include "store/projectstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>

using stampede::ItemKind;

namespace {

QByteArray resource(const char* name)
{
    QFile f(QStringLiteral(":/demo/") + QString::fromLatin1(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

// The shop's mock: its rules and the .proto they name, as the project keeps them.
void storeMock(stampede::ProjectStore& store)
{
    ProjectMock::Config c;
    c.rules = resource("mock-rules.json");
    c.files.insert(QStringLiteral("shop.proto"), resource("shop.proto"));
    c.variable = QStringLiteral("mock_url");
    ProjectMock::store(store, c);
}

// The demo's requests: one for each step of its scenario (the scenario's steps then run them: `ids`, in step
// order), and streams and calls of their own.
void addRequests(stampede::ProjectStore& store, const QJsonObject& scenario, QList<qint64>& ids)
{
    const auto coll = store.addItem(0, ItemKind::Collection, "Demo shop", "{}");
    for (const auto& stepValue : scenario.value(QStringLiteral("steps")).toArray()) {
        const QJsonObject step = stepValue.toObject();
        QJsonObject rq = step.value(QStringLiteral("request")).toObject();
        if (const QString t = rq.take(QStringLiteral("timeout")).toString(); t.endsWith(QLatin1Char('s')))
            rq[QStringLiteral("timeoutMs")] = qRound(t.chopped(1).toDouble() * 1000); // as the builder keeps it
        if (!rq.contains(QStringLiteral("headers")))
            rq[QStringLiteral("headers")] = QJsonArray();
        for (const QString& key : {QStringLiteral("checks"), QStringLiteral("extract")}) // the builder's Tests
            if (step.contains(key))
                rq[key] = step.value(key);
        ids << store.addItem(coll, ItemKind::Request, step.value(QStringLiteral("name")).toString().toStdString(),
                             QJsonDocument(rq).toJson(QJsonDocument::Compact).toStdString());
    }
    // a WebSocket conversation with the demo mock's chat endpoint (its echo), request/reply
    const QJsonObject chat{
        {QStringLiteral("kind"), QStringLiteral("websocket")},
        {QStringLiteral("url"), QStringLiteral("${mock_url}/ws/chat")},
        {QStringLiteral("headers"), QJsonArray()},
        {QStringLiteral("protocols"), QJsonArray{QStringLiteral("chat")}},
        {QStringLiteral("messages"),
         QJsonArray{QJsonObject{{QStringLiteral("text"), QStringLiteral("hello")}},
                    QJsonObject{{QStringLiteral("text"), QStringLiteral("{\"order\": 1}")}}}},
        {QStringLiteral("requestReply"), true},
        {QStringLiteral("checks"), QJsonArray{QJsonObject{{QStringLiteral("jsonPath"), QStringLiteral("$.order")},
                                                          {QStringLiteral("equals"), QStringLiteral("1")}}}},
        {QStringLiteral("testScript"),
         QStringLiteral("pm.test(\"the order came back\", () => pm.expect(pm.response.json().order).to.eql(1));")}};
    store.addItem(coll, ItemKind::Request, "chat (WebSocket)",
                  QJsonDocument(chat).toJson(QJsonDocument::Compact).toStdString());
    // the demo mock's price events, read until the third
    const QJsonObject prices{
        {QStringLiteral("kind"), QStringLiteral("sse")},
        {QStringLiteral("url"), QStringLiteral("${mock_url}/events/prices")},
        {QStringLiteral("headers"), QJsonArray()},
        {QStringLiteral("receive"), 3},
        {QStringLiteral("event"), QStringLiteral("price")},
        {QStringLiteral("checks"), QJsonArray{QJsonObject{{QStringLiteral("jsonPath"), QStringLiteral("$.price")},
                                                          {QStringLiteral("equals"), QStringLiteral("3")}}}}};
    store.addItem(coll, ItemKind::Request, "prices (SSE)",
                  QJsonDocument(prices).toJson(QJsonDocument::Compact).toStdString());
    // a gRPC request to the demo mock server, its .proto imported as descriptors
    QTemporaryDir protoDir;
    QFile proto(protoDir.filePath(QStringLiteral("shop.proto")));
    if (!protoDir.isValid() || !proto.open(QIODevice::WriteOnly) || proto.write(resource("shop.proto")) <= 0)
        return;
    proto.close();
    std::string why;
    if (const auto schema = stampede::ProtoSchema::import({proto.fileName().toStdString()}, {}, why)) {
        const QJsonObject grpc{
            {QStringLiteral("kind"), QStringLiteral("grpc")},
            {QStringLiteral("target"), QStringLiteral("${mock_url}")},
            {QStringLiteral("method"), QStringLiteral("demo.shop.Inventory/Stock")},
            {QStringLiteral("data"), QStringLiteral("{\n  \"sku\": \"tea-1\",\n  \"warehouse\": 3\n}")},
            {QStringLiteral("descriptors"),
             QString::fromLatin1(QByteArray::fromStdString(schema->descriptorSet()).toBase64())},
            {QStringLiteral("schemaSource"), QStringLiteral("shop.proto")}};
        QJsonObject stock = grpc; // with Postman's gRPC test script
        stock[QStringLiteral("testScript")] =
            QStringLiteral("pm.test(\"status OK\", () => pm.response.to.have.statusCode(0));\n"
                           "pm.test(\"in stock\", () => pm.expect(pm.response.messages.idx(0).data.available)"
                           ".to.be.above(0));");
        store.addItem(coll, ItemKind::Request, "stock (gRPC)",
                      QJsonDocument(stock).toJson(QJsonDocument::Compact).toStdString());
        // the same server's stream of stock levels, read until the third (the mock sends one each 100 ms)
        QJsonObject watch = grpc;
        watch[QStringLiteral("method")] = QStringLiteral("demo.shop.Inventory/Watch");
        watch[QStringLiteral("receive")] = 3;
        watch[QStringLiteral("checks")] =
            QJsonArray{QJsonObject{{QStringLiteral("jsonPath"), QStringLiteral("$.available")},
                                   {QStringLiteral("equals"), QStringLiteral("40")}}};
        store.addItem(coll, ItemKind::Request, "stock watch (gRPC stream)",
                      QJsonDocument(watch).toJson(QJsonDocument::Compact).toStdString());
    }
}

} // namespace

QString DemoProject::defaultPath()
{
    const QString dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    QDir().mkpath(dir);
    return dir + QStringLiteral("/demo.stampede");
}

bool DemoProject::ensure(const QString& path, QString& error)
{
    std::string err;
    if (QFile::exists(path)) {
        // the user's edits and added values stay; only the mock's rules are brought up to date
        auto store = stampede::ProjectStore::open(path.toStdString(), err);
        if (!store) {
            error = QString::fromStdString(err);
            return false;
        }
        storeMock(*store);
        return true;
    }
    auto store = stampede::ProjectStore::create(path.toStdString(), err);
    if (!store) {
        error = QString::fromStdString(err);
        return false;
    }
    const QJsonObject s = QJsonDocument::fromJson(resource("scenario.json")).object();
    QList<qint64> ids;
    addRequests(*store, s, ids);
    const QJsonObject data{{QStringLiteral("csv"), QString::fromUtf8(resource("users.csv"))},
                           {QStringLiteral("delimiter"), QStringLiteral(",")}};
    store->addItem(0, ItemKind::DataSet, "users", QJsonDocument(data).toJson(QJsonDocument::Compact).toStdString());
    // the scenario carries its CSV inline (a project has no files beside it); its
    // mock_url is the environment's, which points at the mock wherever it listens
    QJsonObject inlined = s;
    QJsonArray vars;
    for (const auto& value : inlined.value(QStringLiteral("variables")).toArray()) {
        QJsonObject v = value.toObject();
        if (v.value(QStringLiteral("name")).toString() == QLatin1String("mock_url"))
            continue;
        if (v.contains(QStringLiteral("csv"))) {
            QJsonObject csv = v.value(QStringLiteral("csv")).toObject();
            csv.remove(QStringLiteral("file"));
            csv[QStringLiteral("data")] = QString::fromUtf8(resource("users.csv"));
            v[QStringLiteral("csv")] = csv;
        }
        vars.append(v);
    }
    inlined[QStringLiteral("variables")] = vars;
    QJsonArray steps = inlined.value(QStringLiteral("steps")).toArray(); // each runs its request in the tree
    for (qsizetype i = 0; i < steps.size() && i < ids.size(); ++i) {
        QJsonObject step = steps[i].toObject();
        step[QStringLiteral("requestItem")] = QString::number(ids[i]);
        steps[i] = step;
    }
    inlined[QStringLiteral("steps")] = steps;
    store->addItem(0, ItemKind::Scenario, s.value(QStringLiteral("name")).toString().toStdString(),
                   QJsonDocument(inlined).toJson(QJsonDocument::Compact).toStdString());
    store->addItem(0, ItemKind::Environment, "local mock", "{\"mock_url\": \"http://127.0.0.1:8080\"}");
    store->setSetting("environment", "local mock");
    storeMock(*store);
    return true;
}
