#include "scriptedit.h"

#include <QAbstractItemView>
#include <QCompleter>
#include <QFontDatabase>
#include <QKeyEvent>
#include <QRegularExpression>
#include <QScrollBar>
#include <QStringListModel>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace {

// JavaScript as a person reads it: keywords, strings and template strings, numbers, comments (a /* */ across
// lines too), Postman's pm.* objects.
class JsHighlighter : public QSyntaxHighlighter
{
public:
    explicit JsHighlighter(QTextDocument* doc) : QSyntaxHighlighter(doc)
    {
        m_keyword.setForeground(QColor(0x8e, 0x44, 0xad));
        m_keyword.setFontWeight(QFont::Bold);
        m_string.setForeground(QColor(0x1e, 0x84, 0x49));
        m_number.setForeground(QColor(0xd3, 0x54, 0x00));
        m_comment.setForeground(QColor(0x7f, 0x8c, 0x8d));
        m_comment.setFontItalic(true);
        m_pm.setForeground(QColor(0x29, 0x80, 0xb9));
    }

protected:
    void highlightBlock(const QString& text) override
    {
        static const QRegularExpression keyword(QStringLiteral(
            "\\b(?:var|let|const|function|return|if|else|for|while|do|break|continue|new|typeof|instanceof|in|of|"
            "true|false|null|undefined|this|try|catch|finally|throw|switch|case|default|async|await)\\b"));
        static const QRegularExpression number(QStringLiteral("\\b\\d+(?:\\.\\d+)?\\b"));
        static const QRegularExpression pm(QStringLiteral("\\bpm(?:\\.[A-Za-z_$][\\w$]*)*"));
        for (const auto& [re, format] : {std::pair{&keyword, &m_keyword}, {&number, &m_number}, {&pm, &m_pm}})
            for (auto it = re->globalMatch(text); it.hasNext();) {
                const auto m = it.next();
                setFormat(int(m.capturedStart()), int(m.capturedLength()), *format);
            }
        // strings and comments last: what is inside them is theirs
        int i = 0;
        if (previousBlockState() == 1) { // inside a /* */ comment begun above
            const int end = int(text.indexOf(QLatin1String("*/")));
            const int len = end < 0 ? int(text.size()) : end + 2;
            setFormat(0, len, m_comment);
            if (end < 0) {
                setCurrentBlockState(1);
                return;
            }
            i = len;
        }
        setCurrentBlockState(0);
        while (i < text.size()) {
            const QChar c = text[i];
            if (c == u'/' && i + 1 < text.size() && text[i + 1] == u'/') {
                setFormat(i, int(text.size()) - i, m_comment);
                return;
            }
            if (c == u'/' && i + 1 < text.size() && text[i + 1] == u'*') {
                const int end = int(text.indexOf(QLatin1String("*/"), i + 2));
                const int len = end < 0 ? int(text.size()) - i : end + 2 - i;
                setFormat(i, len, m_comment);
                if (end < 0) {
                    setCurrentBlockState(1);
                    return;
                }
                i += len;
                continue;
            }
            if (c == u'"' || c == u'\'' || c == u'`') {
                int j = i + 1;
                while (j < text.size() && text[j] != c)
                    j += text[j] == u'\\' ? 2 : 1;
                const int len = std::min(int(text.size()), j + 1) - i;
                setFormat(i, len, m_string);
                i += len;
                continue;
            }
            ++i;
        }
    }

private:
    QTextCharFormat m_keyword, m_string, m_number, m_comment, m_pm;
};

} // namespace

QList<QPair<QString, QString>> ScriptEdit::snippets()
{
    return {
        {tr("Status code: Code is 200"),
         QStringLiteral("pm.test(\"Status code is 200\", function () {\n    pm.response.to.have.status(200);\n});\n")},
        {tr("Response body: Contains string"),
         QStringLiteral("pm.test(\"Body matches string\", function () {\n    "
                        "pm.expect(pm.response.text()).to.include(\"string_you_want_to_search\");\n});\n")},
        {tr("Response body: JSON value check"),
         QStringLiteral("pm.test(\"Your test name\", function () {\n    var jsonData = pm.response.json();\n    "
                        "pm.expect(jsonData.value).to.eql(100);\n});\n")},
        {tr("Response body: Is equal to a string"),
         QStringLiteral("pm.test(\"Body is correct\", function () {\n    "
                        "pm.response.to.have.body(\"response_body_string\");\n});\n")},
        {tr("Response headers: Content-Type header check"),
         QStringLiteral("pm.test(\"Content-Type is present\", function () {\n    "
                        "pm.response.to.have.header(\"Content-Type\");\n});\n")},
        {tr("Response time is less than 200ms"),
         QStringLiteral("pm.test(\"Response time is less than 200ms\", function () {\n    "
                        "pm.expect(pm.response.responseTime).to.be.below(200);\n});\n")},
        {tr("Status code: Successful POST request"),
         QStringLiteral("pm.test(\"Successful POST request\", function () {\n    "
                        "pm.expect(pm.response.code).to.be.oneOf([201, 202]);\n});\n")},
        {tr("Set an environment variable"),
         QStringLiteral("pm.environment.set(\"variable_key\", \"variable_value\");\n")},
        {tr("Get an environment variable"), QStringLiteral("pm.environment.get(\"variable_key\");\n")},
        {tr("Set a global variable"), QStringLiteral("pm.globals.set(\"variable_key\", \"variable_value\");\n")},
        {tr("Set a collection variable"),
         QStringLiteral("pm.collectionVariables.set(\"variable_key\", \"variable_value\");\n")},
        {tr("Get a variable"), QStringLiteral("pm.variables.get(\"variable_key\");\n")},
        {tr("Skip the request (pre-request)"), QStringLiteral("pm.execution.skipRequest();\n")},
        {tr("Shared data: hand a value to one other user (runs)"),
         QStringLiteral("pm.shared.push(\"queue_key\", pm.response.json().id);\n")},
        {tr("Shared data: take a value another user handed on (runs)"),
         QStringLiteral("const value = pm.shared.pop(\"queue_key\"); // undefined when none is left\n"
                        "if (value === undefined) pm.execution.skipRequest();\n"
                        "else pm.variables.set(\"variable_key\", value);\n")},
        {tr("Shared data: count across every engine (runs)"),
         QStringLiteral("const n = pm.shared.increment(\"counter_key\");\n")},
    };
}

QStringList ScriptEdit::completions()
{
    return {
        QStringLiteral("pm.test()"),
        QStringLiteral("pm.expect()"),
        QStringLiteral("pm.shared.get()"),
        QStringLiteral("pm.shared.set()"),
        QStringLiteral("pm.shared.increment()"),
        QStringLiteral("pm.shared.push()"),
        QStringLiteral("pm.shared.pop()"),
        QStringLiteral("pm.shared.length()"),
        QStringLiteral("pm.response.code"),
        QStringLiteral("pm.response.status"),
        QStringLiteral("pm.response.statusCode"),
        QStringLiteral("pm.response.headers.get()"),
        QStringLiteral("pm.response.responseTime"),
        QStringLiteral("pm.response.json()"),
        QStringLiteral("pm.response.text()"),
        QStringLiteral("pm.response.to.have.status()"),
        QStringLiteral("pm.response.to.have.header()"),
        QStringLiteral("pm.response.to.have.body()"),
        QStringLiteral("pm.response.to.have.jsonBody()"),
        QStringLiteral("pm.response.to.be.ok"),
        QStringLiteral("pm.response.messages"),
        QStringLiteral("pm.request.url"),
        QStringLiteral("pm.request.method"),
        QStringLiteral("pm.request.headers.upsert()"),
        QStringLiteral("pm.request.headers.add()"),
        QStringLiteral("pm.request.body"),
        QStringLiteral("pm.environment.get()"),
        QStringLiteral("pm.environment.set()"),
        QStringLiteral("pm.environment.unset()"),
        QStringLiteral("pm.environment.has()"),
        QStringLiteral("pm.globals.get()"),
        QStringLiteral("pm.globals.set()"),
        QStringLiteral("pm.collectionVariables.get()"),
        QStringLiteral("pm.collectionVariables.set()"),
        QStringLiteral("pm.variables.get()"),
        QStringLiteral("pm.variables.set()"),
        QStringLiteral("pm.variables.replaceIn()"),
        QStringLiteral("pm.iterationData.get()"),
        QStringLiteral("pm.info.requestName"),
        QStringLiteral("pm.info.iteration"),
        QStringLiteral("pm.execution.skipRequest()"),
        QStringLiteral("pm.execution.setNextRequest()"),
        QStringLiteral("pm.sendRequest()"),
        QStringLiteral("pm.cookies.get()"),
    };
}

ScriptEdit::ScriptEdit(QWidget* parent) : QPlainTextEdit(parent)
{
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(4 * fontMetrics().horizontalAdvance(QLatin1Char(' ')));
    new JsHighlighter(document());
    m_completer = new QCompleter(new QStringListModel(completions(), this), this);
    m_completer->setWidget(this);
    m_completer->setCompletionMode(QCompleter::PopupCompletion);
    m_completer->setCaseSensitivity(Qt::CaseSensitive);
    connect(m_completer, qOverload<const QString&>(&QCompleter::activated), this, &ScriptEdit::complete);
}

void ScriptEdit::insertSnippet(const QString& code)
{
    QTextCursor c = textCursor();
    if (c.positionInBlock() > 0 && !c.block().text().trimmed().isEmpty())
        c.insertText(QStringLiteral("\n"));
    c.insertText(code);
    setTextCursor(c);
    setFocus();
}

QString ScriptEdit::wordBeforeCursor() const
{
    const QTextCursor c = textCursor();
    const QString line = c.block().text().left(c.positionInBlock());
    int start = int(line.size());
    while (start > 0 && (line[start - 1].isLetterOrNumber() || line[start - 1] == u'.' || line[start - 1] == u'_' ||
                         line[start - 1] == u'$'))
        --start;
    return line.mid(start);
}

// The chosen name in place of what was typed of it (a call's parentheses, the cursor between them).
void ScriptEdit::complete(const QString& chosen)
{
    QTextCursor c = textCursor();
    c.movePosition(QTextCursor::Left, QTextCursor::KeepAnchor, int(wordBeforeCursor().size()));
    c.insertText(chosen);
    if (chosen.endsWith(QLatin1String("()")))
        c.movePosition(QTextCursor::Left);
    setTextCursor(c);
}

void ScriptEdit::keyPressEvent(QKeyEvent* e)
{
    if (m_completer->popup()->isVisible()) {
        switch (e->key()) {
        case Qt::Key_Enter:
        case Qt::Key_Return:
        case Qt::Key_Tab:
        case Qt::Key_Escape:
        case Qt::Key_Backtab:
            e->ignore(); // the popup's
            return;
        default:
            break;
        }
    }
    QPlainTextEdit::keyPressEvent(e);
    const QString word = wordBeforeCursor();
    if (!word.startsWith(QLatin1String("pm.")) || e->text().isEmpty()) {
        m_completer->popup()->hide();
        return;
    }
    if (word != m_completer->completionPrefix()) {
        m_completer->setCompletionPrefix(word);
        m_completer->popup()->setCurrentIndex(m_completer->completionModel()->index(0, 0));
    }
    if (m_completer->completionCount() == 0) {
        m_completer->popup()->hide();
        return;
    }
    QRect r = cursorRect();
    r.setWidth(m_completer->popup()->sizeHintForColumn(0) +
               m_completer->popup()->verticalScrollBar()->sizeHint().width());
    m_completer->complete(r);
}
