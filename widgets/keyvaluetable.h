#pragma once
// A two-column table of name/value pairs (headers, query parameters) with an
// always-present empty row at the bottom for adding the next pair.
#include <QHash>
#include <QTableWidget>

class QCompleter;

class KeyValueTable : public QTableWidget
{
    Q_OBJECT
public:
    explicit KeyValueTable(const QString& nameLabel, const QString& valueLabel, QWidget* parent = nullptr);
    QList<QPair<QString, QString>> pairs() const;
    void setPairs(const QList<QPair<QString, QString>>& pairs);
    // Names offered as completions while typing in the name column.
    void setNameCompletions(const QStringList& names);
    // Cells holding a ${name} that `variables` lacks are drawn red, the names in their tooltip.
    void markUnknown(const QHash<QString, QString>& variables);

Q_SIGNALS:
    void pairsChanged();

private:
    void ensureEmptyLastRow();
    bool m_updating = false;
    QStringList m_completions;
};
