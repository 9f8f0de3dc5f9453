#pragma once
// The script editor of a request's Scripts tab: JavaScript highlighted (keywords, strings, numbers, comments,
// Postman's pm.* objects), `pm.` completed as it is typed (the names the sandbox gives), and Postman's snippets to
// insert at the cursor.
#include <QPlainTextEdit>

class QCompleter;

class ScriptEdit : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit ScriptEdit(QWidget* parent = nullptr);
    // Postman's snippets (its Scripts tab's list): a title, and the code inserted.
    static QList<QPair<QString, QString>> snippets();
    // The pm.* names offered as `pm.` is typed.
    static QStringList completions();
    void insertSnippet(const QString& code);
    QCompleter* completer() const { return m_completer; }

protected:
    void keyPressEvent(QKeyEvent* e) override;

private:
    QString wordBeforeCursor() const;
    void complete(const QString& chosen);
    QCompleter* m_completer;
};
