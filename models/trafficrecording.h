#pragma once
// "Record traffic…" in the workbench: the engine's recorder (a server for a
// gateway's mirror, on its own thread) appending to a traffic set of the
// open project every second, masked off the GUI thread first; its counts
// each second for the live view; stop() stores the last second and finishes
// the set (an empty one is not kept).
#include "jobrunner.h"

#include "traffic/masking.h"
#include "traffic/recorder.h"

#include <QObject>
#include <QStringList>
#include <QTimer>

#include <memory>

namespace stampede {
class ProjectStore;
}

class TrafficRecording : public QObject
{
    Q_OBJECT
public:
    struct Request
    {
        QString listen = QStringLiteral("127.0.0.1:9000");
        QString name;
        QStringList masks; // empty lines ignored; none: nothing masked
        QString host, include, exclude;
        double samplePercent = 100;
    };
    explicit TrafficRecording(QObject* parent = nullptr);
    ~TrafficRecording() override;

    // Why `rq` cannot start (empty when it can): a bad address, rule or expression, no name.
    static QString check(const Request& rq);
    // Listens and starts; false with `error` (the address is taken, the project refuses the set).
    bool start(const Request& rq, stampede::ProjectStore& store, QString& error);
    // Stops listening; the last requests are stored, then finished().
    void stop();
    bool running() const { return bool(m_recorder); }
    QString address() const;

Q_SIGNALS:
    // Each second: requests kept so far, kept in that second (a rate), and those not kept.
    void counted(quint64 kept, quint64 rate, quint64 filtered, quint64 dropped, quint64 bad);
    // The set is finished (`item` its id), or nothing was recorded, or the project refused it.
    void finished(bool ok, const QString& message, qint64 item);

private:
    void tick();
    void storeNext();
    void finish();

    std::unique_ptr<stampede::Recorder> m_recorder;
    std::shared_ptr<const stampede::Masker> m_masker;
    stampede::ProjectStore* m_store = nullptr;
    qint64 m_item = 0;
    std::int64_t m_seq = 0;
    stampede::RecordingSummary m_summary;
    std::vector<stampede::TrafficRecord> m_waiting; // taken, not yet masked
    bool m_masking = false;
    bool m_stopping = false;
    quint64 m_lastKept = 0;
    QString m_error;
    QTimer m_timer;
    JobRunner m_jobs{this};
};
