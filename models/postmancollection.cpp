// Postman Collection v2.1 (and v2.0, the same shape) in and out.
#include "collectionimport.h"

#include "store/projectstore.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

using namespace Qt::StringLiterals;

namespace {

// Postman's auth block: [{key, value}, ...] (v2.1) or {key: value} (v2.0).
QString authValue(const QJsonObject& auth, const QString& type, const QString& key)
{
    const QJsonValue block = auth.value(type);
    if (block.isObject())
        return block.toObject().value(key).toString();
    for (const auto& e : block.toArray())
        if (e.toObject().value(u"key"_s).toString() == key)
            return e.toObject().value(u"value"_s).toString();
    return {};
}

struct PostmanReader
{
    CollectionImport& out;

    // Scripts are not run here: each one is listed.
    void scripts(const QJsonObject& o, const QString& where)
    {
        for (const auto& e : o.value(u"event"_s).toArray()) {
            const QJsonObject ev = e.toObject();
            const QJsonArray lines = ev.value(u"script"_s).toObject().value(u"exec"_s).toArray();
            bool empty = true;
            for (const auto& l : lines)
                empty &= l.toString().trimmed().isEmpty();
            if (empty)
                continue;
            const QString listen = ev.value(u"listen"_s).toString();
            out.notImported
                << (listen == u"test"_s
                        ? QCoreApplication::translate("CollectionImport", "%1: its test script").arg(where)
                        : QCoreApplication::translate("CollectionImport", "%1: its pre-request script").arg(where));
        }
    }

    // Applies a Postman auth block; false when it is a kind the builder has not.
    void auth(const QJsonObject& a, RequestItem& r, const QString& where)
    {
        const QString type = a.value(u"type"_s).toString();
        if (type == u"basic"_s) {
            r.auth = RequestItem::Auth::Basic;
            r.user = fromPostmanVariables(authValue(a, type, u"username"_s));
            r.password = fromPostmanVariables(authValue(a, type, u"password"_s));
        } else if (type == u"bearer"_s) {
            r.auth = RequestItem::Auth::Bearer;
            r.token = fromPostmanVariables(authValue(a, type, u"token"_s));
        } else if (type == u"apikey"_s && authValue(a, type, u"in"_s) != u"query"_s) {
            r.headers.append({fromPostmanVariables(authValue(a, type, u"key"_s)),
                              fromPostmanVariables(authValue(a, type, u"value"_s))});
        } else if (!type.isEmpty() && type != u"noauth"_s) {
            out.notImported
                << QCoreApplication::translate("CollectionImport", "%1: its %2 authorization").arg(where, type);
        }
    }

    QString url(const QJsonValue& u)
    {
        if (u.isString())
            return fromPostmanVariables(u.toString());
        const QJsonObject o = u.toObject();
        if (o.contains(u"raw"_s))
            return fromPostmanVariables(o.value(u"raw"_s).toString());
        QString host;
        for (const auto& h : o.value(u"host"_s).toArray())
            host += (host.isEmpty() ? u""_s : u"."_s) + h.toString();
        QString path;
        for (const auto& p : o.value(u"path"_s).toArray())
            path += u'/' + p.toString();
        const QString protocol = o.value(u"protocol"_s).toString();
        return fromPostmanVariables((protocol.isEmpty() ? QString() : protocol + u"://"_s) + host + path);
    }

    void body(const QJsonObject& b, RequestItem& r, const QString& where)
    {
        const QString mode = b.value(u"mode"_s).toString();
        if (mode == u"raw"_s) {
            r.body = fromPostmanVariables(b.value(u"raw"_s).toString());
            const QString language =
                b.value(u"options"_s).toObject().value(u"raw"_s).toObject().value(u"language"_s).toString();
            r.bodyMode = language == u"json"_s ? RequestItem::BodyMode::Json : RequestItem::BodyMode::Raw;
        } else if (mode == u"urlencoded"_s || mode == u"formdata"_s) {
            r.bodyMode = mode == u"urlencoded"_s ? RequestItem::BodyMode::UrlEncoded : RequestItem::BodyMode::Multipart;
            for (const auto& f : b.value(mode).toArray()) {
                const QJsonObject field = f.toObject();
                if (field.value(u"disabled"_s).toBool())
                    continue;
                if (field.value(u"type"_s).toString() == u"file"_s) {
                    out.notImported << QCoreApplication::translate("CollectionImport", "%1: the file field \"%2\"")
                                           .arg(where, field.value(u"key"_s).toString());
                    continue;
                }
                r.form.append({fromPostmanVariables(field.value(u"key"_s).toString()),
                               fromPostmanVariables(field.value(u"value"_s).toString())});
            }
        } else if (mode == u"graphql"_s) {
            const QJsonObject g = b.value(u"graphql"_s).toObject();
            QJsonObject query{{u"query"_s, g.value(u"query"_s)}};
            const QJsonDocument vars = QJsonDocument::fromJson(g.value(u"variables"_s).toString().toUtf8());
            if (vars.isObject())
                query[u"variables"_s] = vars.object();
            r.body = QString::fromUtf8(QJsonDocument(query).toJson(QJsonDocument::Compact));
            r.bodyMode = RequestItem::BodyMode::Json;
        } else if (mode == u"file"_s) {
            out.notImported << QCoreApplication::translate("CollectionImport", "%1: its body from a file").arg(where);
        }
    }

    ImportedItem request(const QJsonObject& item, const QJsonObject& inheritedAuth, const QString& where)
    {
        ImportedItem i;
        i.name = item.value(u"name"_s).toString();
        const QJsonValue rqv = item.value(u"request"_s);
        const QJsonObject rq = rqv.toObject();
        RequestItem& r = i.request;
        r.method = rq.value(u"method"_s).toString(u"GET"_s).toUpper();
        r.url = url(rqv.isString() ? rqv : rq.value(u"url"_s));
        for (const auto& h : rq.value(u"header"_s).toArray()) {
            const QJsonObject o = h.toObject();
            if (!o.value(u"disabled"_s).toBool())
                r.headers.append({o.value(u"key"_s).toString(), fromPostmanVariables(o.value(u"value"_s).toString())});
        }
        body(rq.value(u"body"_s).toObject(), r, where);
        auth(rq.contains(u"auth"_s) ? rq.value(u"auth"_s).toObject() : inheritedAuth, r, where);
        scripts(item, where);
        return i;
    }

    QList<ImportedItem> items(const QJsonArray& list, const QJsonObject& inheritedAuth, const QString& path)
    {
        QList<ImportedItem> made;
        for (const auto& v : list) {
            const QJsonObject item = v.toObject();
            const QString where = path + item.value(u"name"_s).toString();
            if (out.requestCount() + countIn(made) >= kMaxImportedRequests) {
                out.notImported << QCoreApplication::translate("CollectionImport", "the requests past the first %1")
                                       .arg(kMaxImportedRequests);
                break;
            }
            if (item.contains(u"item"_s)) { // a folder: its auth is its requests'
                ImportedItem folder;
                folder.folder = true;
                folder.name = item.value(u"name"_s).toString();
                const QJsonObject auth = item.contains(u"auth"_s) ? item.value(u"auth"_s).toObject() : inheritedAuth;
                folder.children = items(item.value(u"item"_s).toArray(), auth, where + u" / "_s);
                scripts(item, where);
                made.append(folder);
            } else {
                made.append(request(item, inheritedAuth, where));
            }
        }
        return made;
    }

    static int countIn(const QList<ImportedItem>& l)
    {
        int n = 0;
        for (const auto& i : l)
            n += i.folder ? countIn(i.children) : 1;
        return n;
    }
};

QJsonArray pairsOut(const RequestItem::Pairs& pairs, const char* valueKey = "value")
{
    QJsonArray a;
    for (const auto& [k, v] : pairs)
        a.append(QJsonObject{{u"key"_s, toPostmanVariables(k)},
                             {QString::fromLatin1(valueKey), toPostmanVariables(v)},
                             {u"type"_s, u"text"_s}});
    return a;
}

QJsonObject requestOut(const RequestItem& r)
{
    QJsonObject rq{{u"method"_s, r.method.toUpper()}, {u"url"_s, QJsonObject{{u"raw"_s, toPostmanVariables(r.url)}}}};
    QJsonArray headers;
    for (const auto& [k, v] : r.headers)
        headers.append(QJsonObject{{u"key"_s, k}, {u"value"_s, toPostmanVariables(v)}});
    rq[u"header"_s] = headers;
    if (r.bodyMode == RequestItem::BodyMode::UrlEncoded)
        rq[u"body"_s] = QJsonObject{{u"mode"_s, u"urlencoded"_s}, {u"urlencoded"_s, pairsOut(r.form)}};
    else if (r.bodyMode == RequestItem::BodyMode::Multipart)
        rq[u"body"_s] = QJsonObject{{u"mode"_s, u"formdata"_s}, {u"formdata"_s, pairsOut(r.form)}};
    else if (!r.body.isEmpty()) {
        QJsonObject b{{u"mode"_s, u"raw"_s}, {u"raw"_s, toPostmanVariables(r.body)}};
        if (r.bodyMode == RequestItem::BodyMode::Json)
            b[u"options"_s] = QJsonObject{{u"raw"_s, QJsonObject{{u"language"_s, u"json"_s}}}};
        rq[u"body"_s] = b;
    }
    auto kv = [](const QString& k, const QString& v) {
        return QJsonObject{{u"key"_s, k}, {u"value"_s, toPostmanVariables(v)}, {u"type"_s, u"string"_s}};
    };
    if (r.auth == RequestItem::Auth::Basic)
        rq[u"auth"_s] = QJsonObject{{u"type"_s, u"basic"_s},
                                    {u"basic"_s, QJsonArray{kv(u"username"_s, r.user), kv(u"password"_s, r.password)}}};
    else if (r.auth == RequestItem::Auth::Bearer)
        rq[u"auth"_s] = QJsonObject{{u"type"_s, u"bearer"_s}, {u"bearer"_s, QJsonArray{kv(u"token"_s, r.token)}}};
    return rq;
}

QJsonArray itemsOut(const stampede::ProjectStore& store, qint64 parent, const QString& path, QStringList& skipped)
{
    QJsonArray out;
    for (const auto& c : store.children(parent)) {
        const QString name = QString::fromStdString(c.name);
        if (c.kind == stampede::ItemKind::Folder) {
            out.append(
                QJsonObject{{u"name"_s, name}, {u"item"_s, itemsOut(store, c.id, path + name + u" / "_s, skipped)}});
            continue;
        }
        const RequestItem r = RequestItem::fromJson(QByteArray::fromStdString(c.payload));
        if (r.kind == RequestItem::Kind::Grpc) {
            skipped << QCoreApplication::translate("CollectionImport", "%1: a gRPC request").arg(path + name);
            continue;
        }
        out.append(QJsonObject{{u"name"_s, name}, {u"request"_s, requestOut(r)}});
    }
    return out;
}

} // namespace

QString fromPostmanVariables(const QString& text)
{
    static const QRegularExpression var(u"\\{\\{\\s*([A-Za-z_][A-Za-z0-9_.\\-]*)\\s*\\}\\}"_s);
    QString out = text;
    out.replace(var, u"${\\1}"_s);
    return out;
}

QString toPostmanVariables(const QString& text)
{
    static const QRegularExpression var(u"\\$\\{([A-Za-z_][A-Za-z0-9_.\\-]*)\\}"_s);
    QString out = text;
    out.replace(var, u"{{\\1}}"_s);
    return out;
}

CollectionImport importPostman(const QJsonObject& root)
{
    CollectionImport out;
    const QJsonObject info = root.value(u"info"_s).toObject();
    const QString schema = info.value(u"schema"_s).toString();
    if (schema.contains(u"v1."_s) || !root.value(u"item"_s).isArray()) {
        out.error = QCoreApplication::translate(
            "CollectionImport",
            "Only Postman Collection v2.0 and v2.1 are read (export it again from Postman as v2.1).");
        return out;
    }
    out.format = schema.contains(u"v2.0"_s) ? u"Postman Collection v2.0"_s : u"Postman Collection v2.1"_s;
    out.name = info.value(u"name"_s).toString(u"Postman collection"_s);
    for (const auto& v : root.value(u"variable"_s).toArray()) {
        const QJsonObject o = v.toObject();
        if (!o.value(u"disabled"_s).toBool() && !o.value(u"key"_s).toString().isEmpty())
            out.variables.append({o.value(u"key"_s).toString(), o.value(u"value"_s).toVariant().toString()});
    }
    PostmanReader reader{out};
    reader.scripts(root, QCoreApplication::translate("CollectionImport", "the collection"));
    out.items = reader.items(root.value(u"item"_s).toArray(), root.value(u"auth"_s).toObject(), QString());
    static const QRegularExpression dynamic(u"\\{\\{\\s*\\$[A-Za-z]+\\s*\\}\\}"_s);
    std::function<void(const QList<ImportedItem>&, const QString&)> lookForDynamic =
        [&](const QList<ImportedItem>& items, const QString& path) {
            for (const auto& i : items) {
                lookForDynamic(i.children, path + i.name + u" / "_s);
                QString all = i.request.url + i.request.body;
                for (const auto& [k, v] : i.request.headers + i.request.form)
                    all += k + v;
                if (!i.folder && all.contains(dynamic))
                    out.notImported << QCoreApplication::translate(
                                           "CollectionImport", "%1: Postman's dynamic variables (%2) are kept as text")
                                           .arg(path + i.name, dynamic.match(all).captured(0));
            }
        };
    lookForDynamic(out.items, QString());
    return out;
}

QByteArray exportPostman(const stampede::ProjectStore& store, qint64 collectionId, QStringList& skipped)
{
    const auto collection = store.item(collectionId);
    QJsonObject root{
        {u"info"_s,
         QJsonObject{{u"name"_s, collection ? QString::fromStdString(collection->name) : u"Stampede"_s},
                     {u"schema"_s, u"https://schema.getpostman.com/json/collection/v2.1.0/collection.json"_s}}},
        {u"item"_s, itemsOut(store, collectionId, QString(), skipped)}};
    return QJsonDocument(root).toJson(QJsonDocument::Indented);
}
