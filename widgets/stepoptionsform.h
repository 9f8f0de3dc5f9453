#pragma once
// The options of one step of a scenario, as the designer edits them: its
// group (transaction), how often it is sent, what an error does, its retry
// and its rendezvous. Reads and writes the step's JSON (the scenario file's
// fields: group, repeat, onError, retry, rendezvous); fields it leaves at
// their defaults are left out of the step.
#include <QJsonObject>
#include <QWidget>

class QComboBox;
class QLineEdit;
class QSpinBox;

class StepOptionsForm : public QWidget
{
    Q_OBJECT
public:
    explicit StepOptionsForm(QWidget* parent = nullptr);
    // Shows `step`'s options (an empty object: no step chosen, the form disabled).
    void setStep(const QJsonObject& step);
    // `step` with the form's options.
    QJsonObject applyTo(QJsonObject step) const;
    // A step's options as a line of the step list ("" when it has none).
    static QString summary(const QJsonObject& step);

signals:
    void changed();

private:
    QLineEdit* m_group;
    QSpinBox* m_repeat;
    QComboBox* m_onError;
    QSpinBox* m_retries;
    QSpinBox* m_backoffMs;
    QSpinBox* m_rendezvousUsers;
    QSpinBox* m_rendezvousTimeoutMs;
    bool m_loading = false;
};
