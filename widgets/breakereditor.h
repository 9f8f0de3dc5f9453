#pragma once
// A scenario's live breaker in the designer: one row per rule (name, the
// condition that is a violation, its window, violations in a row, the action,
// an optional step), the cooldown and whether a degraded load recovers. It
// reads and writes the scenario's "breaker" object; the scenario's check
// (the engine's compiler) judges the rules and names the faulty field.
#include <QJsonObject>
#include <QWidget>

class QCheckBox;
class QSpinBox;
class QTableWidget;

class BreakerEditor : public QWidget
{
    Q_OBJECT
public:
    explicit BreakerEditor(QWidget* parent = nullptr);
    void fromJson(const QJsonObject& breaker);
    // The "breaker" object; empty when there is no rule and nothing set.
    QJsonObject toJson() const;
    QTableWidget* table() const { return m_rules; }
    void addRule(const QString& name, const QString& when, const QString& window, int consecutive,
                 const QString& action, const QString& step = {});

Q_SIGNALS:
    void changed();

private:
    QTableWidget* m_rules;
    QSpinBox* m_cooldown;
    QCheckBox* m_recover;
    QCheckBox* m_escalate;
    QJsonObject m_rest; // what the editor does not show, kept as it came
    bool m_loading = false;
};
