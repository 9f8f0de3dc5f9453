#pragma once
// A traffic set: what was imported (source, span, lines that could not be
// read, masks), its requests per second as a chart, and its busiest paths.
// The requests are decoded off the GUI thread.
#include "jobrunner.h"
#include "trafficimporter.h"

#include <QWidget>

class QLabel;
class QTableWidget;
class QPushButton;
class QVBoxLayout;

namespace stampede {
class ProjectStore;
}

class TrafficView : public QWidget
{
    Q_OBJECT
public:
    TrafficView(stampede::ProjectStore& store, qint64 item, const QByteArray& payload, QWidget* parent = nullptr);
    QTableWidget* paths() const { return m_paths; }
    QPushButton* replayButton() const { return m_replay; }
    bool loaded() const { return m_loaded; }

Q_SIGNALS:
    void shapeShown();
    // The user asked for a scenario that replays this set.
    void replayRequested();

private:
    void showShape(const TrafficImporter::Shape& shape);
    QLabel* m_summary;
    QPushButton* m_replay;
    QLabel* m_state;
    QTableWidget* m_paths;
    QVBoxLayout* m_chartBox;
    JobRunner m_jobs{this};
    bool m_loaded = false;
};
