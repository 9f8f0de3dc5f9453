#pragma once
// A replay step's settings in the scenario designer: where the recorded
// requests go, how fast, how many times each, how copies are told apart, and
// whether the recording starts over; which requests are sent (paths,
// methods, recorded statuses, a sample) and what is changed in them
// (headers, the host). Reads and writes the step's "replay" JSON.
#include <QJsonObject>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QSpinBox;

class ReplayForm : public QWidget
{
    Q_OBJECT
public:
    explicit ReplayForm(QWidget* parent = nullptr);
    void setReplay(const QJsonObject& replay);
    // The step's replay as edited (what the form does not show is kept).
    QJsonObject replay() const;
    // Why the offsets text does not read ("" when it does).
    QString offsetsProblem() const { return m_offsetsProblem; }
    // Why the headers to set do not read ("" when they do).
    QString headersProblem() const { return m_headersProblem; }
    QLineEdit* target() const { return m_target; }
    QDoubleSpinBox* speed() const { return m_speed; }
    QSpinBox* amplify() const { return m_amplify; }
    QLineEdit* offsets() const { return m_offsets; }

Q_SIGNALS:
    void changed();

private:
    void edited();

    QJsonObject m_replay;
    QLabel* m_traffic;
    QLineEdit* m_target;
    QDoubleSpinBox* m_speed;
    QSpinBox* m_amplify;
    QLineEdit* m_offsets;
    QCheckBox* m_loop;
    QLineEdit* m_include;
    QLineEdit* m_exclude;
    QLineEdit* m_methods;
    QLineEdit* m_statuses;
    QDoubleSpinBox* m_sample;
    QPlainTextEdit* m_setHeaders;
    QLineEdit* m_removeHeaders;
    QLineEdit* m_host;
    QCheckBox* m_newTraceIds;
    QString m_offsetsProblem;
    QString m_headersProblem;
    bool m_loading = false;
};
