#pragma once
// A two-column table of name/value pairs (headers, query parameters) with an
// always-present empty row at the bottom for adding the next pair. Rows go
// with the Delete key, the context menu's Remove, or removeSelectedRows().
// With secrets on (environments), a third column marks a value secret: it
// is drawn as dots (shown while edited) and never written into exports.
// With files on (a multipart form), the third column marks a field that sends
// files: its value is their paths, separated by ";" (the context menu's
// "Choose files…" fills it).
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
    // The File column (a multipart form's fields); paths chosen under the file base (the project's folder) are
    // kept relative to it.
    void enableFiles();
    void setFileBase(const QString& baseDir) { m_fileBase = baseDir; }
    // A chosen file's path as a request keeps it: relative to `base` when it is in it, else absolute.
    static QString pathFrom(const QString& base, const QString& chosen);
    // The pairs (as pairs() lists them) whose row sends files, and marking them.
    QList<int> fileRows() const;
    void setFileRows(const QList<int>& rows);
    // Opens a file dialog for `row` and puts the chosen paths there, marked a file field.
    void chooseFiles(int row);
    // The paths as the value cell lists them ("a.csv;b.png" -> {"a.csv", "b.png"}).
    static QStringList splitPaths(const QString& value);
    // What a value cell shows: its text, or dots when its row is secret.
    QString shownValue(int row) const;

protected:
    void keyPressEvent(QKeyEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;

Q_SIGNALS:
    void pairsChanged();

private:
    void ensureEmptyLastRow();
    void markCell(int row);      // the third column's checkable cell (Secret or File) of `row`, made when missing
    int pairRow(int pair) const; // the table row of pairs()[pair], -1 when none
    bool m_updating = false;
    bool m_secrets = false;
    bool m_files = false;
    QString m_fileBase;
    QStringList m_completions;
};
