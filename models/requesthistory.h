#pragma once
// Every Send the builder makes, kept in the project (newest first): the
// request as written, where it went, the answer's status line and headers
// and the first KiB of its body, how long it took. Capped (a setting of the
// project, default 200, at most kMaxHistory): the oldest go first.
#include <QByteArray>
#include <QList>
#include <QMetaType>
#include <QString>

namespace stampede {
class ProjectStore;
}

struct HistoryEntry
{
    QString at;          // ISO 8601 UTC
    QString name;        // the request item's name when sent
    QByteArray request;  // its payload, ${names} as written
    QString method, url; // as sent (names expanded)
    int status = 0;      // 0: no answer
    QString error;       // why there was no answer
    QString head;        // status line and headers
    QString body;        // the first KiB
    double ms = 0;
    // The text a search matches: name, method, URL, status, error.
    QString searchText() const;
};

Q_DECLARE_METATYPE(HistoryEntry)

namespace RequestHistory {
constexpr int kDefaultLimit = 200;
constexpr int kMaxHistory = 5000;
constexpr int kBodyBytes = 1024;
QList<HistoryEntry> load(const stampede::ProjectStore& store);
// Adds `entry` first and drops what passes the limit; false with `error`.
bool append(stampede::ProjectStore& store, HistoryEntry entry, QString& error);
int limit(const stampede::ProjectStore& store);
// 1 to kMaxHistory; the history is cut to it at once.
bool setLimit(stampede::ProjectStore& store, int limit, QString& error);
// The entries whose searchText() contains every word of `query` (case-insensitive).
QList<int> search(const QList<HistoryEntry>& entries, const QString& query);
} // namespace RequestHistory
