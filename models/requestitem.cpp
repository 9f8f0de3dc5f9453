#include "requestitem.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include "core/curlcommand.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QUrl>
#include <algorithm>

namespace {

QString seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 9) + QLatin1Char('s');
}

RequestItem::Pairs readPairs(const QJsonValue& v)
{
    RequestItem::Pairs out;
    for (const auto& p : v.toArray())
        out.append({p.toObject().value(QStringLiteral("name")).toString(),
                    p.toObject().value(QStringLiteral("value")).toString()});
    return out;
}

QJsonArray writePairs(const RequestItem::Pairs& pairs)
{
    QJsonArray out;
    for (const auto& [n, v] : pairs)
        out.append(QJsonObject{{QStringLiteral("name"), n}, {QStringLiteral("value"), v}});
    return out;
}

const char* const kBodyModes[] = {"raw", "json", "urlencoded", "multipart"};

// The headers the body mode and the auth add (Content-Type, Authorization),
// each unless the user set one of that name, and only when there is a value.
RequestItem::Pairs addedHeaders(const RequestItem::Pairs& userHeaders, const QString& contentType,
                                const QString& authorization)
{
    RequestItem::Pairs out;
    const RequestItem::Pairs candidates = {{QStringLiteral("Content-Type"), contentType},
                                           {QStringLiteral("Authorization"), authorization}};
    for (const auto& candidate : candidates) {
        const QString& name = candidate.first;
        const bool userSet = std::any_of(userHeaders.begin(), userHeaders.end(), [&name](const auto& h) {
            return h.first.compare(name, Qt::CaseInsensitive) == 0;
        });
        if (!candidate.second.isEmpty() && !userSet)
            out.append(candidate);
    }
    return out;
}

} // namespace

RequestItem RequestItem::fromJson(const QByteArray& payload)
{
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    RequestItem r;
    r.insecure = o.value(QStringLiteral("insecure")).toBool();
    r.checks = o.value(QStringLiteral("checks")).toArray();
    r.extract = o.value(QStringLiteral("extract")).toArray();
    if (o.value(QStringLiteral("kind")).toString() == QLatin1String("grpc")) {
        r.kind = Kind::Grpc;
        r.target = o.value(QStringLiteral("target")).toString();
        r.grpcMethod = o.value(QStringLiteral("method")).toString();
        r.data = o.value(QStringLiteral("data")).toString();
        r.metadata = readPairs(o.value(QStringLiteral("metadata")));
        r.deadlineMs = o.value(QStringLiteral("deadlineMs")).toInt(kDefaultDeadlineMs);
        r.descriptors = QByteArray::fromBase64(o.value(QStringLiteral("descriptors")).toString().toLatin1());
        r.schemaSource = o.value(QStringLiteral("schemaSource")).toString();
        return r;
    }
    r.method = o.value(QStringLiteral("method")).toString(QStringLiteral("GET"));
    r.url = o.value(QStringLiteral("url")).toString();
    r.headers = readPairs(o.value(QStringLiteral("headers")));
    r.body = o.value(QStringLiteral("body")).toString();
    const QString mode = o.value(QStringLiteral("bodyMode")).toString();
    for (int i = 0; i < 4; ++i)
        if (mode == QLatin1String(kBodyModes[i]))
            r.bodyMode = BodyMode(i);
    r.form = readPairs(o.value(QStringLiteral("form")));
    const QJsonObject auth = o.value(QStringLiteral("auth")).toObject();
    const QString type = auth.value(QStringLiteral("type")).toString();
    r.auth = type == QLatin1String("basic") ? Auth::Basic : type == QLatin1String("bearer") ? Auth::Bearer : Auth::None;
    r.user = auth.value(QStringLiteral("user")).toString();
    r.password = auth.value(QStringLiteral("password")).toString();
    r.token = auth.value(QStringLiteral("token")).toString();
    r.timeoutMs = o.value(QStringLiteral("timeoutMs")).toInt(kDefaultTimeoutMs);
    const QString version = o.value(QStringLiteral("http")).toString();
    r.version = version == QLatin1String("1.1") ? Version::Http1
                : version == QLatin1String("2") ? Version::Http2
                                                : Version::Auto;
    return r;
}

QByteArray RequestItem::toJson() const
{
    QJsonObject o;
    if (!checks.isEmpty())
        o[QStringLiteral("checks")] = checks;
    if (!extract.isEmpty())
        o[QStringLiteral("extract")] = extract;
    if (kind == Kind::Grpc) {
        o[QStringLiteral("kind")] = QStringLiteral("grpc");
        o[QStringLiteral("target")] = target.trimmed();
        o[QStringLiteral("method")] = grpcMethod.trimmed();
        o[QStringLiteral("data")] = data;
        if (!metadata.isEmpty())
            o[QStringLiteral("metadata")] = writePairs(metadata);
        if (deadlineMs != kDefaultDeadlineMs)
            o[QStringLiteral("deadlineMs")] = deadlineMs;
        if (insecure)
            o[QStringLiteral("insecure")] = true;
        if (!descriptors.isEmpty()) {
            o[QStringLiteral("descriptors")] = QString::fromLatin1(descriptors.toBase64());
            o[QStringLiteral("schemaSource")] = schemaSource;
        }
        return QJsonDocument(o).toJson(QJsonDocument::Compact);
    }
    o[QStringLiteral("method")] = method.trimmed().toUpper();
    o[QStringLiteral("url")] = url.trimmed();
    o[QStringLiteral("headers")] = writePairs(headers);
    o[QStringLiteral("body")] = body;
    o[QStringLiteral("bodyMode")] = QString::fromLatin1(kBodyModes[int(bodyMode)]);
    if (!form.isEmpty())
        o[QStringLiteral("form")] = writePairs(form);
    if (auth == Auth::Basic)
        o[QStringLiteral("auth")] = QJsonObject{{QStringLiteral("type"), QStringLiteral("basic")},
                                                {QStringLiteral("user"), user},
                                                {QStringLiteral("password"), password}};
    else if (auth == Auth::Bearer)
        o[QStringLiteral("auth")] =
            QJsonObject{{QStringLiteral("type"), QStringLiteral("bearer")}, {QStringLiteral("token"), token}};
    if (timeoutMs != kDefaultTimeoutMs)
        o[QStringLiteral("timeoutMs")] = timeoutMs;
    if (insecure)
        o[QStringLiteral("insecure")] = true;
    if (version != Version::Auto)
        o[QStringLiteral("http")] = version == Version::Http1 ? QStringLiteral("1.1") : QStringLiteral("2");
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

QString RequestItem::expand(const QString& text, const QHash<QString, QString>& variables)
{
    QString out = text;
    for (auto it = variables.cbegin(); it != variables.cend(); ++it)
        out.replace(QStringLiteral("${%1}").arg(it.key()), it.value());
    return out;
}

QString RequestItem::authorization(const QHash<QString, QString>& variables) const
{
    if (auth == Auth::Basic)
        return QStringLiteral("Basic ") +
               QString::fromLatin1(
                   (expand(user, variables) + QLatin1Char(':') + expand(password, variables)).toUtf8().toBase64());
    if (auth == Auth::Bearer)
        return QStringLiteral("Bearer ") + expand(token, variables);
    return {};
}

QByteArray RequestItem::encodedBody(const QHash<QString, QString>& variables, QString& contentType) const
{
    contentType.clear();
    if (bodyMode == BodyMode::UrlEncoded) {
        contentType = QStringLiteral("application/x-www-form-urlencoded");
        QStringList parts;
        for (const auto& [n, v] : form)
            parts << QString::fromUtf8(QUrl::toPercentEncoding(expand(n, variables))) + QLatin1Char('=') +
                         QString::fromUtf8(QUrl::toPercentEncoding(expand(v, variables)));
        return parts.join(QLatin1Char('&')).toUtf8();
    }
    if (bodyMode == BodyMode::Multipart) {
        // a fixed boundary: the same item always encodes to the same bytes
        const QByteArray boundary = "stampede-form-boundary-7d1f3a";
        contentType = QStringLiteral("multipart/form-data; boundary=") + QString::fromLatin1(boundary);
        QByteArray out;
        for (const auto& [n, v] : form)
            out += "--" + boundary + "\r\nContent-Disposition: form-data; name=\"" + expand(n, variables).toUtf8() +
                   "\"\r\n\r\n" + expand(v, variables).toUtf8() + "\r\n";
        return out + "--" + boundary + "--\r\n";
    }
    if (bodyMode == BodyMode::Json && !body.isEmpty())
        contentType = QStringLiteral("application/json");
    return expand(body, variables).toUtf8();
}

stampede::HttpExchangeRequest RequestItem::toExchange(const QHash<QString, QString>& variables) const
{
    stampede::HttpExchangeRequest rq;
    rq.method = method.trimmed().toUpper().toStdString();
    rq.url = expand(url.trimmed(), variables).toStdString();
    for (const auto& [n, v] : headers)
        rq.headers.emplace_back(n.toStdString(), expand(v, variables).toStdString());
    QString contentType;
    rq.body = encodedBody(variables, contentType).toStdString();
    for (const auto& [n, v] : addedHeaders(headers, contentType, authorization(variables)))
        rq.headers.emplace_back(n.toStdString(), v.toStdString());
    rq.timeout = stampede::Nanos(timeoutMs) * stampede::kNanosPerMilli;
    rq.verify = !insecure;
    return rq;
}

QString RequestItem::toCurl(const QHash<QString, QString>& variables) const
{
    const stampede::HttpExchangeRequest rq = toExchange(variables);
    stampede::CurlRequest c;
    c.method = rq.method;
    c.url = rq.url;
    c.headers = rq.headers;
    c.body = rq.body;
    QString out = QString::fromStdString(stampede::toCurl(c));
    if (insecure && url.trimmed().startsWith(QLatin1String("https://")))
        out += QStringLiteral(" -k");
    return out;
}

bool RequestItem::overHttp2() const
{
    return version == Version::Http2 ||
           (version == Version::Auto && url.trimmed().startsWith(QLatin1String("https://")));
}

QJsonObject RequestItem::toStep(const QString& name) const
{
    QJsonObject step{{QStringLiteral("name"), name}};
    if (!checks.isEmpty())
        step[QStringLiteral("checks")] = checks;
    if (!extract.isEmpty())
        step[QStringLiteral("extract")] = extract;
    if (kind == Kind::Grpc) {
        QJsonObject g = QJsonDocument::fromJson(toJson()).object();
        for (const char* key : {"kind", "schemaSource", "deadlineMs", "checks", "extract"})
            g.remove(QString::fromLatin1(key));
        if (deadlineMs != kDefaultDeadlineMs)
            g[QStringLiteral("deadline")] = seconds(deadlineMs);
        step[QStringLiteral("grpc")] = g;
        return step;
    }
    QJsonObject rq;
    rq[QStringLiteral("method")] = method.trimmed().toUpper();
    rq[QStringLiteral("url")] = url.trimmed();
    QString contentType;
    // ${name} stays for the scenario's own variables
    const QByteArray encoded = encodedBody({}, contentType);
    const QJsonArray hs = writePairs(headers + addedHeaders(headers, contentType, authorization()));
    if (!hs.isEmpty())
        rq[QStringLiteral("headers")] = hs;
    if (!encoded.isEmpty())
        rq[QStringLiteral("body")] = QString::fromUtf8(encoded);
    if (timeoutMs != kDefaultTimeoutMs)
        rq[QStringLiteral("timeout")] = seconds(timeoutMs);
    if (insecure)
        rq[QStringLiteral("insecure")] = true;
    step[QStringLiteral("request")] = rq;
    return step;
}

QStringList RequestItem::unknownNames(const QString& text, const QHash<QString, QString>& variables)
{
    static const QRegularExpression name(QStringLiteral("\\$\\{([^}]+)\\}"));
    QStringList out;
    for (auto it = name.globalMatch(text); it.hasNext();) {
        const QString n = it.next().captured(1);
        if (!variables.contains(n) && !out.contains(n))
            out << n;
    }
    return out;
}

bool RequestItem::Unknown::isEmpty() const
{
    return all().isEmpty();
}

QStringList RequestItem::Unknown::all() const
{
    QStringList out;
    for (const QStringList* l : {&url, &headers, &body, &auth, &message, &metadata})
        for (const QString& n : *l)
            if (!out.contains(n))
                out << n;
    return out;
}

QString RequestItem::Unknown::describe() const
{
    QStringList parts;
    const auto add = [&](const QStringList& names, const char* where) {
        if (names.isEmpty())
            return;
        QStringList shown;
        for (const QString& n : names)
            shown << QStringLiteral("${%1}").arg(n);
        parts << QCoreApplication::translate("RequestItem", where).arg(shown.join(QStringLiteral(", ")));
    };
    add(url, QT_TRANSLATE_NOOP("RequestItem", "%1 in the URL"));
    add(headers, QT_TRANSLATE_NOOP("RequestItem", "%1 in the headers"));
    add(body, QT_TRANSLATE_NOOP("RequestItem", "%1 in the body"));
    add(auth, QT_TRANSLATE_NOOP("RequestItem", "%1 in the authorization"));
    add(message, QT_TRANSLATE_NOOP("RequestItem", "%1 in the message"));
    add(metadata, QT_TRANSLATE_NOOP("RequestItem", "%1 in the metadata"));
    return parts.join(QStringLiteral("; "));
}

RequestItem::Unknown RequestItem::unknown(const QHash<QString, QString>& variables) const
{
    Unknown u;
    const auto pairsText = [](const Pairs& pairs) {
        QString all;
        for (const auto& [k, v] : pairs)
            all += k + QLatin1Char('\n') + v + QLatin1Char('\n');
        return all;
    };
    if (kind == Kind::Grpc) {
        u.url = unknownNames(target, variables);
        u.message = unknownNames(data, variables);
        u.metadata = unknownNames(pairsText(metadata), variables);
        return u;
    }
    u.url = unknownNames(url, variables);
    u.headers = unknownNames(pairsText(headers), variables);
    u.body = unknownNames(bodyMode == BodyMode::UrlEncoded || bodyMode == BodyMode::Multipart ? pairsText(form) : body,
                          variables);
    if (auth == Auth::Basic)
        u.auth = unknownNames(user + QLatin1Char('\n') + password, variables);
    else if (auth == Auth::Bearer)
        u.auth = unknownNames(token, variables);
    return u;
}
