#pragma once
// "Import traffic…" in the workbench: an access log or HAR file read and
// masked on a worker thread (progress, cancel), then stored in the project on
// the GUI thread as a traffic set, exactly as `stampede-cli import` does; and a
// preview of the first requests before and after masking.
#include "jobrunner.h"

#include <QList>
#include <QObject>
#include <QPair>
#include <QPointF>
#include <QStringList>

#include <functional>

#include <atomic>
#include <memory>

namespace stampede {
class ProjectStore;
}

class TrafficImporter : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QString file;
        QString format;    // "combined", "har", or an nginx log_format (directive or format string)
        QStringList masks; // --mask rules, one each
        QString name;      // the traffic set's name; empty: the file's name
    };
    struct PreviewRow
    {
        QString before, after; // "GET /a?phone=138… (user-agent: …)"
        QString changes;       // what each rule changed: "preset:cn-mobile ×1, query:uid=hash ×2"; empty: nothing
    };
    // A stored set's shape, for its view.
    struct Shape
    {
        bool ok = false;                      // false: the stored requests are damaged
        QList<QPointF> perSecond;             // (second after the first request, requests)
        QList<QPair<QString, quint64>> paths; // busiest first
        QString methods;                      // "GET 40, POST 10"
        quint64 clients = 0, peak = 0;
    };

    explicit TrafficImporter(QObject* parent = nullptr);
    ~TrafficImporter() override;
    // Why the request cannot run (a format or mask that does not read); empty when it can.
    static QString check(const Request& rq);
    // The first `n` requests of the file, before and after masking with `key`;
    // false with `error`.
    static bool preview(const Request& rq, const QString& key, int n, QList<PreviewRow>& rows, QString& error);
    // Reads and masks on a worker thread, then stores into `store` (the GUI
    // thread's); finished() tells how it went. False when one is running or
    // the request does not check.
    bool start(const Request& rq, stampede::ProjectStore& store);
    // The masking presets' names, and the project's masking key (made on first use).
    static QStringList presets();
    // The rules a new import starts with: every preset.
    static QStringList defaultMasks();
    // What a masking rule is, for the fields that take them.
    static QString masksToolTip();
    static QString maskKey(stampede::ProjectStore& store);
    // The project's traffic set `name`, encoded as a replay carries it (empty when there is none).
    static QByteArray trafficSet(stampede::ProjectStore& store, const QString& name);
    // The same, of the project at `projectPath`, through a read-only connection of each call's own (SQLite's
    // WAL reads beside the window's writer): callable off the GUI thread, as the designer's checks call it.
    // Empty when the project or the set cannot be read.
    static std::function<QByteArray(const QString& name)> trafficSource(const QString& projectPath);
    // Reads set `item`'s compressed requests now (on the store's thread) and
    // returns the work that decodes and shapes them, for a worker thread; a
    // null function with `error` when they cannot be read.
    // The job stops early, its result unwanted, when its runner says so.
    static std::function<Shape(const JobRunner::Cancelled&)> shapeJob(stampede::ProjectStore& store, qint64 item,
                                                                      QString& error);
    void cancel() { m_cancel = true; }
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void progress(int percent);
    // ok: stored as item `id`; `message` says what was read (and why not, on failure)
    void finished(bool ok, const QString& message, qint64 id);

private:
    JobRunner m_jobs{this};
    std::shared_ptr<std::atomic<bool>> m_cancelFlag;
    std::atomic<bool> m_cancel{false};
    bool m_running = false;
};
