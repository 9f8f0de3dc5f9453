#include "builderrequest.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {
QString seconds(int ms)
{
    return QString::number(ms / 1000.0, 'g', 9) + QLatin1Char('s');
}
} // namespace

QString BuilderRequest::authorization(const QString& type, const QString& user, const QString& password,
                                      const QString& token)
{
    if (type == QLatin1String("basic"))
        return QStringLiteral("Basic ") + QString::fromLatin1((user + QLatin1Char(':') + password).toUtf8().toBase64());
    if (type == QLatin1String("bearer"))
        return QStringLiteral("Bearer ") + token;
    return {};
}

QJsonObject BuilderRequest::toStep(const QString& name, const QByteArray& payload)
{
    QJsonObject rq = QJsonDocument::fromJson(payload).object();
    if (rq.value(QStringLiteral("kind")).toString() == QLatin1String("grpc")) {
        QJsonObject g;
        for (const char* key : {"target", "method", "data", "metadata", "descriptors", "insecure"}) {
            const QString k = QString::fromLatin1(key);
            if (rq.contains(k))
                g[k] = rq.value(k);
        }
        if (rq.contains(QStringLiteral("deadlineMs")))
            g[QStringLiteral("deadline")] = seconds(rq.value(QStringLiteral("deadlineMs")).toInt());
        return {{QStringLiteral("name"), name}, {QStringLiteral("grpc"), g}};
    }
    const QJsonObject auth = rq.take(QStringLiteral("auth")).toObject();
    QJsonArray headers = rq.value(QStringLiteral("headers")).toArray();
    const QString value = authorization(
        auth.value(QStringLiteral("type")).toString(), auth.value(QStringLiteral("user")).toString(),
        auth.value(QStringLiteral("password")).toString(), auth.value(QStringLiteral("token")).toString());
    if (!value.isEmpty())
        headers.append(
            QJsonObject{{QStringLiteral("name"), QStringLiteral("Authorization")}, {QStringLiteral("value"), value}});
    rq[QStringLiteral("headers")] = headers;
    if (rq.contains(QStringLiteral("timeoutMs")))
        rq[QStringLiteral("timeout")] = seconds(rq.take(QStringLiteral("timeoutMs")).toInt());
    for (const char* key : {"bodyMode", "form", "http"})
        rq.remove(QString::fromLatin1(key));
    if (rq.value(QStringLiteral("body")).toString().isEmpty())
        rq.remove(QStringLiteral("body"));
    if (rq.value(QStringLiteral("headers")).toArray().isEmpty())
        rq.remove(QStringLiteral("headers"));
    return {{QStringLiteral("name"), name}, {QStringLiteral("request"), rq}};
}

QString BuilderRequest::expand(const QString& text, const QHash<QString, QString>& variables)
{
    QString out = text;
    for (auto it = variables.cbegin(); it != variables.cend(); ++it)
        out.replace(QStringLiteral("${%1}").arg(it.key()), it.value());
    return out;
}
