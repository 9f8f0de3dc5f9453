// OpenAPI 3 (JSON or YAML) into requests: one per operation, grouped by its
// first tag, with parameters and bodies from their examples or, lacking
// those, from their schemas.
#include "collectionimport.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSet>
#include <QUrl>

#include <yaml-cpp/yaml.h>

#include <functional>

using namespace Qt::StringLiterals;

namespace {

constexpr int kMaxYamlDepth = 200;
constexpr int kMaxYamlNodes = 2000000; // aliases can make a small file huge
constexpr int kMaxSchemaDepth = 10;

struct YamlConverter
{
    int nodes = 0;
    QString error;

    QJsonValue scalar(const YAML::Node& n)
    {
        const std::string& text = n.Scalar();
        if (n.Tag() == "!") // quoted: a string whatever it looks like
            return QString::fromStdString(text);
        static const QRegularExpression number(u"^[-+]?(\\d+\\.?\\d*|\\.\\d+)([eE][-+]?\\d+)?$"_s);
        const QString s = QString::fromStdString(text);
        if (s == u"true"_s || s == u"True"_s || s == u"TRUE"_s)
            return true;
        if (s == u"false"_s || s == u"False"_s || s == u"FALSE"_s)
            return false;
        if (s == u"null"_s || s == u"~"_s || s == u"Null"_s || s.isEmpty())
            return QJsonValue::Null;
        if (number.match(s).hasMatch())
            return s.toDouble();
        return s;
    }

    QJsonValue convert(const YAML::Node& n, int depth)
    {
        if (!error.isEmpty())
            return {};
        if (++nodes > kMaxYamlNodes || depth > kMaxYamlDepth) {
            error =
                depth > kMaxYamlDepth
                    ? QCoreApplication::translate("CollectionImport", "nested deeper than %1 levels").arg(kMaxYamlDepth)
                    : QCoreApplication::translate("CollectionImport", "more than %1 values (aliases expanded)")
                          .arg(kMaxYamlNodes);
            return {};
        }
        switch (n.Type()) {
        case YAML::NodeType::Scalar:
            return scalar(n);
        case YAML::NodeType::Sequence: {
            QJsonArray a;
            for (const auto& c : n)
                a.append(convert(c, depth + 1));
            return a;
        }
        case YAML::NodeType::Map: {
            QJsonObject o;
            for (const auto& kv : n)
                o.insert(QString::fromStdString(kv.first.as<std::string>()), convert(kv.second, depth + 1));
            return o;
        }
        default:
            return QJsonValue::Null;
        }
    }
};

struct OpenApiReader
{
    const QJsonObject& doc;
    CollectionImport& out;
    QSet<QString> variableNames;

    void variable(const QString& name, const QString& value = {})
    {
        if (!variableNames.contains(name)) {
            variableNames.insert(name);
            out.variables.append({name, value});
        }
    }

    // Follows a local $ref ("#/components/schemas/Pet"); external ones are reported.
    QJsonValue resolve(QJsonValue v, const QString& where)
    {
        for (int hops = 0; hops < 32 && v.toObject().contains(u"$ref"_s); ++hops) {
            const QString ref = v.toObject().value(u"$ref"_s).toString();
            if (!ref.startsWith(u"#/"_s)) {
                out.notImported
                    << QCoreApplication::translate("CollectionImport", "%1: the external reference %2").arg(where, ref);
                return {};
            }
            QJsonValue at = doc;
            for (QString part : ref.mid(2).split(u'/')) {
                part.replace(u"~1"_s, u"/"_s).replace(u"~0"_s, u"~"_s);
                at = at.toObject().value(part);
            }
            if (at.isUndefined()) {
                out.notImported << QCoreApplication::translate("CollectionImport", "%1: the reference %2 leads nowhere")
                                       .arg(where, ref);
                return {};
            }
            v = at;
        }
        return v;
    }

    QJsonValue stringExample(const QJsonObject& s)
    {
        const QString format = s.value(u"format"_s).toString();
        if (format == u"date-time"_s)
            return u"2026-01-01T00:00:00Z"_s;
        if (format == u"date"_s)
            return u"2026-01-01"_s;
        if (format == u"email"_s)
            return u"user@example.com"_s;
        if (format == u"uuid"_s)
            return u"00000000-0000-4000-8000-000000000000"_s;
        if (format == u"uri"_s || format == u"url"_s)
            return u"https://example.com/"_s;
        return u"string"_s;
    }

    // An example value for a schema: its own example, default or first enum
    // value, else one made from its type (objects with every property).
    QJsonValue example(const QJsonValue& schemaIn, int depth, QStringList& refs, const QString& where)
    {
        const QString ref = schemaIn.toObject().value(u"$ref"_s).toString();
        if (!ref.isEmpty() && (refs.contains(ref) || depth > kMaxSchemaDepth))
            return QJsonValue::Null; // a schema that contains itself
        if (!ref.isEmpty())
            refs.append(ref);
        const QJsonObject s = resolve(schemaIn, where).toObject();
        QJsonValue v = exampleOf(s, depth, refs, where);
        if (!ref.isEmpty())
            refs.removeLast();
        return v;
    }

    QJsonValue exampleOf(const QJsonObject& s, int depth, QStringList& refs, const QString& where)
    {
        for (const auto& key : {u"example"_s, u"default"_s})
            if (s.contains(key))
                return s.value(key);
        if (!s.value(u"enum"_s).toArray().isEmpty())
            return s.value(u"enum"_s).toArray().first();
        if (!s.value(u"examples"_s).toArray().isEmpty())
            return s.value(u"examples"_s).toArray().first();
        if (s.contains(u"allOf"_s)) {
            QJsonObject merged;
            for (const auto& part : s.value(u"allOf"_s).toArray()) {
                const QJsonObject o = example(part, depth + 1, refs, where).toObject();
                for (auto it = o.begin(); it != o.end(); ++it)
                    merged[it.key()] = it.value();
            }
            return merged;
        }
        for (const auto& key : {u"oneOf"_s, u"anyOf"_s})
            if (!s.value(key).toArray().isEmpty())
                return example(s.value(key).toArray().first(), depth + 1, refs, where);
        QString type = s.value(u"type"_s).toString();
        if (s.value(u"type"_s).isArray()) // 3.1: ["string", "null"]
            type = s.value(u"type"_s).toArray().first().toString();
        if (type.isEmpty() && s.contains(u"properties"_s))
            type = u"object"_s;
        if (type == u"object"_s) {
            QJsonObject o;
            const QJsonObject props = s.value(u"properties"_s).toObject();
            for (auto it = props.begin(); it != props.end() && o.size() < 50; ++it)
                if (!resolve(it.value(), where).toObject().value(u"readOnly"_s).toBool())
                    o[it.key()] = example(it.value(), depth + 1, refs, where);
            return o;
        }
        if (type == u"array"_s)
            return QJsonArray{example(s.value(u"items"_s), depth + 1, refs, where)};
        if (type == u"integer"_s || type == u"number"_s)
            return s.contains(u"minimum"_s) ? s.value(u"minimum"_s) : QJsonValue(0);
        if (type == u"boolean"_s)
            return true;
        if (type == u"string"_s)
            return stringExample(s);
        return QJsonValue::Null;
    }

    static QString text(const QJsonValue& v)
    {
        if (v.isString())
            return v.toString();
        if (v.isDouble())
            return QString::number(v.toDouble(), 'g', 15);
        if (v.isBool())
            return v.toBool() ? u"true"_s : u"false"_s;
        if (v.isArray() || v.isObject())
            return QString::fromUtf8(v.isArray() ? QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact)
                                                 : QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
        return {};
    }

    // A parameter's or a media type's own example (example, or the first of examples).
    QJsonValue ownExample(const QJsonObject& o, const QString& where)
    {
        if (o.contains(u"example"_s))
            return o.value(u"example"_s);
        const QJsonObject examples = o.value(u"examples"_s).toObject();
        if (!examples.isEmpty())
            return resolve(examples.begin().value(), where).toObject().value(u"value"_s);
        return QJsonValue::Undefined;
    }

    void parameters(const QJsonArray& params, RequestItem& r, QString& path, QStringList& query, const QString& where)
    {
        for (const auto& pv : params) {
            const QJsonObject p = resolve(pv, where).toObject();
            const QString name = p.value(u"name"_s).toString();
            const QString in = p.value(u"in"_s).toString();
            QJsonValue value = ownExample(p, where);
            QStringList refs;
            const QJsonObject schema = resolve(p.value(u"schema"_s), where).toObject();
            const bool given =
                schema.contains(u"example"_s) || schema.contains(u"default"_s) || schema.contains(u"enum"_s);
            if (value.isUndefined() && in == u"path"_s && !given) { // which one is the user's to say
                value = u"${%1}"_s.arg(name);
                variable(name);
            } else if (value.isUndefined() && (in == u"path"_s || p.value(u"required"_s).toBool())) {
                value = example(schema, 0, refs, where);
            }
            if (value.isUndefined())
                continue; // optional, without an example: left out
            const QString v = text(value);
            if (in == u"path"_s)
                path.replace(u'{' + name + u'}', v);
            else if (in == u"query"_s)
                query << QString::fromUtf8(QUrl::toPercentEncoding(name)) + u'=' + v;
            else if (in == u"header"_s &&
                     !QStringList{u"accept"_s, u"content-type"_s, u"authorization"_s}.contains(name.toLower()))
                r.headers.append({name, v});
            else if (in == u"cookie"_s)
                r.headers.append({u"Cookie"_s, name + u'=' + v});
        }
    }

    void body(const QJsonValue& bodyRef, RequestItem& r, const QString& where)
    {
        const QJsonObject content = resolve(bodyRef, where).toObject().value(u"content"_s).toObject();
        if (content.isEmpty())
            return;
        QString type = content.keys().first();
        for (const QString& k : content.keys())
            if (k.contains(u"json"_s))
                type = k;
        if (!type.contains(u"json"_s))
            for (const QString& k : content.keys())
                if (k == u"application/x-www-form-urlencoded"_s)
                    type = k;
        const QJsonObject media = content.value(type).toObject();
        QJsonValue value = ownExample(media, where);
        QStringList refs;
        if (value.isUndefined())
            value = example(media.value(u"schema"_s), 0, refs, where);
        if (type.contains(u"json"_s)) {
            r.bodyMode = RequestItem::BodyMode::Json;
            r.body = value.isObject() || value.isArray()
                         ? QString::fromUtf8(value.isObject() ? QJsonDocument(value.toObject()).toJson()
                                                              : QJsonDocument(value.toArray()).toJson())
                         : text(value);
            if (type != u"application/json"_s)
                r.headers.append({u"Content-Type"_s, type});
        } else if (type == u"application/x-www-form-urlencoded"_s || type == u"multipart/form-data"_s) {
            r.bodyMode =
                type.startsWith(u"multipart"_s) ? RequestItem::BodyMode::Multipart : RequestItem::BodyMode::UrlEncoded;
            const QJsonObject fields = value.toObject();
            for (auto it = fields.begin(); it != fields.end(); ++it) {
                if (it.value().toString() == u"string"_s && type.startsWith(u"multipart"_s) &&
                    resolve(media.value(u"schema"_s), where)
                            .toObject()
                            .value(u"properties"_s)
                            .toObject()
                            .value(it.key())
                            .toObject()
                            .value(u"format"_s)
                            .toString() == u"binary"_s) {
                    out.notImported << QCoreApplication::translate("CollectionImport", "%1: the file field \"%2\"")
                                           .arg(where, it.key());
                    continue;
                }
                r.form.append({it.key(), text(it.value())});
            }
        } else {
            r.body = text(value);
            r.headers.append({u"Content-Type"_s, type});
        }
    }

    void security(const QJsonArray& requirements, RequestItem& r, QStringList& query, const QString& where)
    {
        const QJsonObject schemes = doc.value(u"components"_s).toObject().value(u"securitySchemes"_s).toObject();
        for (const auto& req : requirements) {
            const QJsonObject names = req.toObject();
            if (names.isEmpty())
                return; // {}: this alternative needs no credentials
            for (auto it = names.begin(); it != names.end(); ++it) {
                const QJsonObject s = resolve(schemes.value(it.key()), where).toObject();
                const QString type = s.value(u"type"_s).toString();
                const QString scheme = s.value(u"scheme"_s).toString().toLower();
                if (type == u"http"_s && scheme == u"bearer"_s) {
                    r.auth = RequestItem::Auth::Bearer;
                    r.token = u"${bearerToken}"_s;
                    variable(u"bearerToken"_s);
                } else if (type == u"http"_s && scheme == u"basic"_s) {
                    r.auth = RequestItem::Auth::Basic;
                    r.user = u"${username}"_s;
                    r.password = u"${password}"_s;
                    variable(u"username"_s);
                    variable(u"password"_s);
                } else if (type == u"apiKey"_s) {
                    const QString name = s.value(u"name"_s).toString();
                    const QString value = u"${%1}"_s.arg(it.key());
                    variable(it.key());
                    const QString in = s.value(u"in"_s).toString();
                    if (in == u"query"_s)
                        query << name + u'=' + value;
                    else
                        r.headers.append(in == u"cookie"_s ? qMakePair(u"Cookie"_s, name + u'=' + value)
                                                           : qMakePair(name, value));
                } else {
                    out.notImported << QCoreApplication::translate("CollectionImport", "%1: its %2 security (%3)")
                                           .arg(where, type, it.key());
                }
            }
            return; // the first alternative is enough
        }
    }
};

} // namespace

bool yamlToJson(const QByteArray& yaml, QJsonValue& out, QString& error)
{
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        YamlConverter c;
        out = c.convert(root, 0);
        error = c.error;
        return error.isEmpty();
    } catch (const YAML::Exception& e) {
        error = QString::fromStdString(e.what());
        return false;
    }
}

static int countAll(const QList<ImportedItem>& folders)
{
    int n = 0;
    for (const auto& f : folders)
        n += int(f.children.size());
    return n;
}

CollectionImport importOpenApi(const QJsonObject& root)
{
    CollectionImport out;
    const QString version = root.value(u"openapi"_s).toString();
    if (!version.startsWith(u"3."_s)) {
        out.error =
            QCoreApplication::translate("CollectionImport", "Only OpenAPI 3 is read (this file says openapi: %1).")
                .arg(version);
        return out;
    }
    out.format = u"OpenAPI "_s + version;
    const QJsonObject info = root.value(u"info"_s).toObject();
    out.name = info.value(u"title"_s).toString(u"OpenAPI"_s);
    OpenApiReader reader{root, out, {}};
    // the first server, its variables at their defaults
    const QJsonObject server = root.value(u"servers"_s).toArray().first().toObject();
    QString base = server.value(u"url"_s).toString(u"http://127.0.0.1"_s);
    const QJsonObject serverVars = server.value(u"variables"_s).toObject();
    for (auto it = serverVars.begin(); it != serverVars.end(); ++it)
        base.replace(u'{' + it.key() + u'}', it.value().toObject().value(u"default"_s).toVariant().toString());
    if (base.endsWith(u'/'))
        base.chop(1);
    reader.variable(u"baseUrl"_s, base);
    if (!base.contains(u"://"_s))
        out.notImported << QCoreApplication::translate(
                               "CollectionImport", "the server URL \"%1\" is relative: set baseUrl in the environment")
                               .arg(base);

    // folders in the order of the specification's tags, then the requests without one
    QList<ImportedItem> folders, untagged;
    auto folderOf = [&](const QString& tag) -> ImportedItem& {
        for (auto& f : folders)
            if (f.name == tag)
                return f;
        folders.append(ImportedItem{tag, true, {}, {}});
        return folders.last();
    };
    for (const auto& t : root.value(u"tags"_s).toArray())
        folderOf(t.toObject().value(u"name"_s).toString());
    const QJsonObject paths = root.value(u"paths"_s).toObject();
    static const QStringList methods = {u"get"_s,     u"put"_s,  u"post"_s,  u"delete"_s,
                                        u"options"_s, u"head"_s, u"patch"_s, u"trace"_s};
    const QJsonArray globalSecurity = root.value(u"security"_s).toArray();
    bool full = false;
    for (auto p = paths.begin(); p != paths.end() && !full; ++p) {
        const QJsonObject pathItem = reader.resolve(p.value(), p.key()).toObject();
        for (const QString& m : methods) {
            if (!pathItem.contains(m))
                continue;
            if (countAll(folders) + int(untagged.size()) >= kMaxImportedRequests) {
                out.notImported << QCoreApplication::translate("CollectionImport", "the operations past the first %1")
                                       .arg(kMaxImportedRequests);
                full = true;
                break;
            }
            const QJsonObject op = pathItem.value(m).toObject();
            ImportedItem item;
            item.name = op.value(u"operationId"_s).toString();
            if (item.name.isEmpty())
                item.name = op.value(u"summary"_s).toString();
            if (item.name.isEmpty())
                item.name = m.toUpper() + u' ' + p.key();
            const QString where = m.toUpper() + u' ' + p.key();
            RequestItem& r = item.request;
            r.method = m.toUpper();
            QString path = p.key();
            QStringList query;
            QJsonArray params = pathItem.value(u"parameters"_s).toArray();
            for (const auto& q : op.value(u"parameters"_s).toArray())
                params.append(q);
            reader.parameters(params, r, path, query, where);
            reader.body(op.value(u"requestBody"_s), r, where);
            reader.security(op.contains(u"security"_s) ? op.value(u"security"_s).toArray() : globalSecurity, r, query,
                            where);
            r.url = u"${baseUrl}"_s + path + (query.isEmpty() ? QString() : u'?' + query.join(u'&'));
            const QString tag = op.value(u"tags"_s).toArray().first().toString();
            (tag.isEmpty() ? untagged : folderOf(tag).children).append(item);
        }
    }
    for (const auto& f : folders)
        if (!f.children.isEmpty())
            out.items.append(f);
    out.items += untagged;
    if (out.requestCount() == 0)
        out.error = QCoreApplication::translate("CollectionImport", "The specification has no operation under paths.");
    return out;
}
