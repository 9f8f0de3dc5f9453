#pragma once
// The builder's Checks and Extract tabs (Postman's Tests): one row per check
// (name, what it reads, the expression, the test, the expected value, "not")
// or per extraction (name, from where, the expression, the regex group),
// read and written as the scenario contract's JSON (a step's "checks" and
// "extract"), and after a Send each row's result: passed or failed with
// what was seen, or the value extracted.
#include "checkrun.h"

#include <QJsonArray>
#include <QWidget>

class QLabel;
class QTableWidget;

class ChecksTable : public QWidget
{
    Q_OBJECT
public:
    enum class Mode
    {
        Checks,
        Extract
    };
    explicit ChecksTable(Mode mode, QWidget* parent = nullptr);
    void setRules(const QJsonArray& rules);
    QJsonArray rules() const;
    // The results of the last Send, by row; null clears them.
    void showResults(const CheckRun* run);
    int rowCount() const;
    // For tests: the result cell's text of row `row`.
    QString resultText(int row) const;

Q_SIGNALS:
    void changed();

private:
    void addRow(const QJsonObject& rule);
    void updateRow(int row);
    QJsonObject ruleAt(int row) const;
    QString text(int row, int column) const;
    int resultColumn() const;

    Mode m_mode;
    QTableWidget* m_table;
    QLabel* m_errors;
    bool m_loading = false;
};
