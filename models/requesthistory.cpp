#include "requesthistory.h"

#include "store/projectstore.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

using namespace Qt::StringLiterals;

namespace {

QJsonObject toJson(const HistoryEntry& e)
{
    return {{u"at"_s, e.at},         {u"name"_s, e.name}, {u"request"_s, QString::fromUtf8(e.request)},
            {u"method"_s, e.method}, {u"url"_s, e.url},   {u"status"_s, e.status},
            {u"error"_s, e.error},   {u"head"_s, e.head}, {u"body"_s, e.body},
            {u"ms"_s, e.ms}};
}

HistoryEntry fromJson(const QJsonObject& o)
{
    HistoryEntry e;
    e.at = o.value(u"at"_s).toString();
    e.name = o.value(u"name"_s).toString();
    e.request = o.value(u"request"_s).toString().toUtf8();
    e.method = o.value(u"method"_s).toString();
    e.url = o.value(u"url"_s).toString();
    e.status = o.value(u"status"_s).toInt();
    e.error = o.value(u"error"_s).toString();
    e.head = o.value(u"head"_s).toString();
    e.body = o.value(u"body"_s).toString();
    e.ms = o.value(u"ms"_s).toDouble();
    return e;
}

bool save(stampede::ProjectStore& store, const QList<HistoryEntry>& entries, QString& error)
{
    QJsonArray a;
    for (const auto& e : entries)
        a.append(toJson(e));
    if (store.setSetting("history", QJsonDocument(a).toJson(QJsonDocument::Compact).toStdString()))
        return true;
    error = QString::fromStdString(store.lastError());
    return false;
}

} // namespace

QString HistoryEntry::searchText() const
{
    return name + u' ' + method + u' ' + url + u' ' + QString::number(status) + u' ' + error;
}

QList<HistoryEntry> RequestHistory::load(const stampede::ProjectStore& store)
{
    QList<HistoryEntry> out;
    for (const auto& v : QJsonDocument::fromJson(QByteArray::fromStdString(store.setting("history"))).array())
        out.append(fromJson(v.toObject()));
    return out;
}

int RequestHistory::limit(const stampede::ProjectStore& store)
{
    bool ok = false;
    const int n = QString::fromStdString(store.setting("historyLimit")).toInt(&ok);
    return ok && n >= 1 && n <= kMaxHistory ? n : kDefaultLimit;
}

bool RequestHistory::setLimit(stampede::ProjectStore& store, int n, QString& error)
{
    if (n < 1 || n > kMaxHistory) {
        error = QStringLiteral("the history keeps 1 to %1 sends (got %2)").arg(kMaxHistory).arg(n);
        return false;
    }
    if (!store.setSetting("historyLimit", std::to_string(n))) {
        error = QString::fromStdString(store.lastError());
        return false;
    }
    QList<HistoryEntry> entries = load(store);
    if (entries.size() <= n)
        return true;
    entries.resize(n);
    return save(store, entries, error);
}

bool RequestHistory::append(stampede::ProjectStore& store, HistoryEntry entry, QString& error)
{
    const QByteArray body = entry.body.toUtf8();
    if (body.size() > kBodyBytes)
        entry.body = QString::fromUtf8(body.left(kBodyBytes)) + u'…';
    QList<HistoryEntry> entries = load(store);
    entries.prepend(std::move(entry));
    const int n = limit(store);
    if (entries.size() > n)
        entries.resize(n);
    return save(store, entries, error);
}

QList<int> RequestHistory::search(const QList<HistoryEntry>& entries, const QString& query)
{
    const QStringList words = query.split(u' ', Qt::SkipEmptyParts);
    QList<int> out;
    for (int i = 0; i < entries.size(); ++i) {
        const QString text = entries[i].searchText();
        bool all = true;
        for (const QString& w : words)
            all &= text.contains(w, Qt::CaseInsensitive);
        if (all)
            out << i;
    }
    return out;
}
