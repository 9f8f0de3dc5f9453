#pragma once
// "Record traffic…": where the recorder listens, the traffic set's name, the
// masking rules (every preset by default) and what is kept (host, paths,
// sample); the nginx lines that send a mirror to it; Start, then the live
// count and rate, and Stop, which stores the last second and finishes the set.
#include "trafficrecording.h"

#include <QDialog>

class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;

namespace stampede {
class ProjectStore;
}

class TrafficRecordDialog : public QDialog
{
    Q_OBJECT
public:
    TrafficRecordDialog(stampede::ProjectStore& store, QWidget* parent = nullptr);
    TrafficRecording::Request request() const;
    TrafficRecording& recording() { return m_recording; }
    QString state() const;
    void setListen(const QString& address);
    // The set made, once finished (0 before, or when nothing was kept).
    qint64 item() const { return m_item; }

private:
    void refresh();
    void startOrStop();
    void reject() override;

    stampede::ProjectStore& m_store;
    TrafficRecording m_recording;
    QLineEdit* m_listen;
    QLineEdit* m_name;
    QPlainTextEdit* m_masks;
    QLineEdit* m_host;
    QLineEdit* m_include;
    QLineEdit* m_exclude;
    QDoubleSpinBox* m_sample;
    QPlainTextEdit* m_nginx;
    QLabel* m_state;
    QPushButton* m_start;
    QPushButton* m_close;
    qint64 m_item = 0;
};
