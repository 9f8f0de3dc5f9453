#pragma once
// A two-column table of name/value pairs (headers, query parameters) with an
// always-present empty row at the bottom for adding the next pair. Rows go
// with the Delete key, the context menu's Remove, or removeSelectedRows().
// With secrets on (environments), a third column marks a value secret: it
// is drawn as dots (shown while edited) and never written into exports.
#include <QHash>
#include <QSet>
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
    // Removes the rows with a selected cell (the empty last row stays); true when one went.
    bool removeSelectedRows();
    // The Secret column (environments).
    void enableSecrets();
    QSet<QString> secrets() const;
    void setSecrets(const QSet<QString>& names);
    // What a value cell shows: its text, or dots when its row is secret.
    QString shownValue(int row) const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

Q_SIGNALS:
    void pairsChanged();

private:
    void ensureEmptyLastRow();
    void secretCell(int row);
    bool m_updating = false;
    bool m_secrets = false;
    QStringList m_completions;
};
