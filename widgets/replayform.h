#pragma once
// A replay step's settings in the scenario designer: where the recorded
// requests go, how fast, how many times each, how copies are told apart, and
// whether the recording starts over. Reads and writes the step's "replay" JSON.
#include <QJsonObject>
#include <QWidget>

class QCheckBox;
class QDoubleSpinBox;
class QLabel;
class QLineEdit;
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
    QString m_offsetsProblem;
    bool m_loading = false;
};
