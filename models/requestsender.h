#pragma once
// Send, for the request builder: a request item sent once through the engine
// (send/sendonce.h: the run's compiler and renderer, so Send sends what a run
// sends) on the job runner, its answer delivered on the GUI thread as values
// a view shows, what the checks judge, and the history's entry. A newer Send
// makes an older answer stale.
#include "checkrun.h"
#include "jobrunner.h"
#include "requesthistory.h"
#include "requestitem.h"

#include <QHash>
#include <QObject>

struct SendAnswer
{
    bool grpc = false;
    bool websocket = false; // a WebSocket conversation: its messages both ways in `messages`
    QString error;          // no answer: why (not sent: the request's fault; or the connection's)
    int status = 0;         // the HTTP status, or the gRPC status code (-1: the answer had none)
    int httpStatus = 0;
    QString line;      // "200 OK · 3.2 ms · 12 bytes", "OK (0) · 1.0 ms"
    bool good = false; // 2xx-3xx, or gRPC OK with its message read
    QList<QPair<QString, QString>> headers, trailers;
    QString body;       // for reading: JSON indented in its own key order, else as it came
    CheckAnswer answer; // what the request's checks and extractions judge
    HistoryEntry entry; // for the project's history
    // The request's scripts (run by the engine): each pm.test of its test
    // script, a script's error, console.log's lines, what they set.
    struct ScriptTest
    {
        QString name;
        bool passed = false;
        QString error;
    };
    QList<ScriptTest> tests;
    QString scriptError;
    QStringList scriptLogs;
    QHash<QString, QString> scriptSet;
    // A WebSocket conversation's messages, in order, each with its time from the connect.
    struct WsMessage
    {
        double ms = 0;
        bool out = false;
        bool binary = false;
        QString text; // text as it came; binary as hex
        qulonglong size = 0;
    };
    QList<WsMessage> messages;
    // An event stream's events, in order, each with its time from the send.
    bool eventStream = false;
    struct Event
    {
        double ms = 0;
        QString id, type, data;
    };
    QList<Event> events;
};

class RequestSender : public QObject
{
    Q_OBJECT
public:
    explicit RequestSender(QObject* parent = nullptr);
    ~RequestSender() override;

    // Sends `item` (named `name` in the history) with `variables` as its
    // values; the answer comes as answered().
    void send(const RequestItem& item, const QHash<QString, QString>& variables, const QString& name = {});
    void cancel() { m_jobs.cancel(); }
    // The project's folder: a form's file fields are read from there.
    void setBaseDir(const QString& dir) { m_baseDir = dir; }

Q_SIGNALS:
    void answered(const SendAnswer& answer);

private:
    JobRunner m_jobs{this};
    QString m_baseDir;
};
