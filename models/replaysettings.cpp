#include "replaysettings.h"

#include "traffic/replayplan.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

bool ReplaySettings::offsetsFromText(const QString& text, QJsonArray& out, QString& error)
{
    out = {};
    for (QString part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        part = part.trimmed();
        if (part.isEmpty())
            continue;
        std::string why;
        const auto off = stampede::ReplayOffset::parse(part.toStdString(), why);
        if (!off) {
            error = QStringLiteral("\"%1\": %2").arg(part, QString::fromStdString(why));
            return false;
        }
        QJsonObject o;
        const char* field = off->field == stampede::ReplayOffset::Field::Query     ? "query"
                            : off->field == stampede::ReplayOffset::Field::JsonKey ? "jsonKey"
                                                                                   : "header";
        o[QLatin1String(field)] = QString::fromStdString(off->key);
        if (off->add)
            o[QStringLiteral("add")] = QString::number(off->add); // int64 in proto3 JSON: a string
        else
            o[QStringLiteral("suffix")] = QString::fromStdString(off->suffix);
        out.append(o);
    }
    return true;
}

QString ReplaySettings::offsetsToText(const QJsonArray& offsets)
{
    QStringList parts;
    for (const auto& v : offsets) {
        const QJsonObject o = v.toObject();
        QString text = o.contains(QStringLiteral("query"))
                           ? QStringLiteral("query:") + o[QStringLiteral("query")].toString()
                       : o.contains(QStringLiteral("jsonKey"))
                           ? QStringLiteral("json:") + o[QStringLiteral("jsonKey")].toString()
                           : QStringLiteral("header:") + o[QStringLiteral("header")].toString();
        const QJsonValue add = o.value(QStringLiteral("add"));
        const QString addText = add.isString()   ? add.toString()
                                : add.isDouble() ? QString::number(add.toInteger())
                                                 : QString();
        text += !addText.isEmpty() && addText != QLatin1String("0")
                    ? QStringLiteral("+") + addText
                    : QStringLiteral("~") + o[QStringLiteral("suffix")].toString();
        parts << text;
    }
    return parts.join(QStringLiteral(", "));
}

QByteArray ReplaySettings::newScenario(const QString& traffic, const QString& target)
{
    const QJsonObject replay{
        {QStringLiteral("traffic"), traffic}, {QStringLiteral("target"), target}, {QStringLiteral("speed"), 1}};
    const QJsonObject step{{QStringLiteral("name"), QCoreApplication::translate("ReplaySettings", "replay")},
                           {QStringLiteral("replay"), replay}};
    const QJsonObject scenario{
        {QStringLiteral("name"), QCoreApplication::translate("ReplaySettings", "Replay of %1").arg(traffic)},
        {QStringLiteral("steps"), QJsonArray{step}},
        {QStringLiteral("thresholds"),
         QJsonArray{QJsonObject{{QStringLiteral("expr"), QStringLiteral("error_rate < 1%")}}}}};
    return QJsonDocument(scenario).toJson(QJsonDocument::Compact);
}
