#include "scriptspane.h"
#include "splitterstate.h"

#include "requestitem.h"
#include "requestsender.h"
#include "scriptedit.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QSplitter>
#include <QTextBlock>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace {

QPlainTextEdit* scriptEditor(const QString& placeholder, const QString& tip)
{
    auto* e = new ScriptEdit; // highlighted, pm. completed
    e->setPlaceholderText(placeholder);
    e->setToolTip(tip);
    return e;
}

// Postman's snippets for `editor`, each inserted at its cursor.
QToolButton* snippetsButton(ScriptEdit* editor)
{
    auto* b = new QToolButton;
    b->setText(ScriptsPane::tr("Snippets"));
    b->setToolTip(ScriptsPane::tr("Insert one of Postman's snippets at the cursor"));
    b->setPopupMode(QToolButton::InstantPopup);
    auto* menu = new QMenu(b);
    for (const auto& [title, code] : ScriptEdit::snippets())
        QObject::connect(menu->addAction(title), &QAction::triggered, editor,
                         [editor, code = code] { editor->insertSnippet(code); });
    b->setMenu(menu);
    return b;
}

QLabel* problemLabel()
{
    auto* l = new QLabel;
    l->setStyleSheet(QStringLiteral("color: #c0392b"));
    l->setWordWrap(true);
    l->hide();
    return l;
}

// The line `line` (1-based) of `e` marked as the one at fault.
void markLine(QPlainTextEdit* e, int line)
{
    QList<QTextEdit::ExtraSelection> marks;
    if (line > 0) {
        QTextEdit::ExtraSelection s;
        s.format.setBackground(QColor(0xfa, 0xdb, 0xd8));
        s.format.setProperty(QTextFormat::FullWidthSelection, true);
        s.cursor = QTextCursor(e->document()->findBlockByNumber(line - 1));
        marks << s;
    }
    e->setExtraSelections(marks);
}

} // namespace

ScriptsPane::ScriptsPane(QWidget* parent) : QWidget(parent), m_title(tr("Scripts"))
{
    m_pre = scriptEditor(tr("Pre-request script: pm.environment.set(\"ts\", Date.now());"),
                         tr("JavaScript run before the request is rendered, as Postman runs it: it may set "
                            "variables (pm.environment.set), change the headers (pm.request.headers.upsert), the "
                            "URL or the body, or skip the request (pm.execution.skipRequest())."));
    m_pre->setObjectName(QStringLiteral("preRequestScript"));
    m_test = scriptEditor({}, {}); // its words are the kind's (setKind)
    m_test->setObjectName(QStringLiteral("testScript"));
    m_preProblem = problemLabel();
    m_testProblem = problemLabel();
    m_results = new QListWidget;
    m_results->setObjectName(QStringLiteral("scriptResults"));
    m_results->setToolTip(tr("What the last Send's scripts said: each test passed or failed, with its message"));
    m_results->hide();

    // a script under its title and its snippets, with the line that names its problem
    const auto titled = [](const QString& title, QPlainTextEdit* editor, QWidget* problem) {
        auto* box = new QWidget;
        auto* l = new QVBoxLayout(box);
        l->setContentsMargins(0, 0, 0, 0);
        auto* head = new QHBoxLayout;
        head->addWidget(new QLabel(title));
        head->addStretch(1);
        QToolButton* snippets = snippetsButton(static_cast<ScriptEdit*>(editor));
        snippets->setObjectName(editor->objectName() + QStringLiteral("Snippets"));
        head->addWidget(snippets);
        l->addLayout(head);
        l->addWidget(editor, 1);
        l->addWidget(problem);
        return box;
    };
    auto* split = new QSplitter(Qt::Vertical);
    m_preBox = titled(tr("Pre-request script"), m_pre, m_preProblem);
    split->addWidget(m_preBox);
    split->addWidget(titled(tr("Test script"), m_test, m_testProblem));
    split->addWidget(m_results);
    splitterstate::remember(split, QStringLiteral("scripts"));
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(split);
    setKind(0);

    m_checkSoon = new QTimer(this);
    m_checkSoon->setSingleShot(true);
    m_checkSoon->setInterval(300);
    connect(m_checkSoon, &QTimer::timeout, this, &ScriptsPane::check);
    for (QPlainTextEdit* e : {m_pre, m_test})
        connect(e, &QPlainTextEdit::textChanged, this, [this] {
            if (m_loading)
                return;
            m_checkSoon->start();
            Q_EMIT changed();
        });
}

void ScriptsPane::setScripts(const QString& preRequest, const QString& test)
{
    m_loading = true;
    m_pre->setPlainText(preRequest);
    m_test->setPlainText(test);
    m_loading = false;
    clearResults();
    check();
}

void ScriptsPane::setKind(int kind)
{
    m_kind = kind;
    m_preBox->setVisible(kind == 0);
    if (kind == 1) {
        m_test->setPlaceholderText(tr("Test script: pm.test(\"OK\", () => pm.response.to.have.statusCode(0));"));
        m_test->setToolTip(tr("JavaScript run on the call's answer, as Postman's gRPC scripts: pm.response.statusCode, "
                              "metadata, trailers and messages (a streaming call's: the last awaited message); each "
                              "pm.test is a check, and what it sets the next requests use."));
    } else if (kind == 2 || kind == 3) {
        m_test->setPlaceholderText(
            tr("Test script: pm.test(\"reply\", () => pm.expect(pm.response.json().ok).to.eql(true));"));
        m_test->setToolTip(tr("JavaScript run on the answer: the last message received (WebSocket) or the last awaited "
                              "event (event stream) as pm.response.text() and json(); each pm.test is a check, and "
                              "what it sets the next requests use."));
    } else {
        m_test->setPlaceholderText(tr("Test script: pm.test(\"status 200\", () => pm.response.to.have.status(200));"));
        m_test->setToolTip(tr("JavaScript run on the answer: each pm.test is a check (counted in runs, judged by "
                              "thresholds), and what it sets (pm.environment.set) the next requests use."));
    }
}

QString ScriptsPane::preRequestScript() const
{
    return m_kind == 0 ? m_pre->toPlainText() : QString();
}

QString ScriptsPane::testScript() const
{
    return m_test->toPlainText();
}

void ScriptsPane::check()
{
    for (auto [editor, label] : {std::pair{m_pre, m_preProblem}, {m_test, m_testProblem}}) {
        int line = 0;
        const QString problem = RequestItem::scriptProblem(editor->toPlainText(), &line);
        label->setText(problem);
        label->setVisible(!problem.isEmpty());
        markLine(editor, problem.isEmpty() ? 0 : line);
    }
}

QStringList ScriptsPane::problems() const
{
    return {m_preProblem->text(), m_testProblem->text()};
}

void ScriptsPane::clearResults()
{
    m_results->clear();
    m_results->hide();
    m_title = tr("Scripts");
    Q_EMIT titleChanged(m_title);
}

void ScriptsPane::showResults(const SendAnswer& a)
{
    m_results->clear();
    int passed = 0;
    for (const auto& t : a.tests) {
        passed += t.passed;
        auto* item = new QListWidgetItem(t.passed ? tr("✔ %1").arg(t.name) : tr("✘ %1: %2").arg(t.name, t.error));
        item->setForeground(t.passed ? QColor(0x1e, 0x84, 0x49) : QColor(0xc0, 0x39, 0x2b));
        m_results->addItem(item);
    }
    if (!a.scriptError.isEmpty()) {
        auto* item = new QListWidgetItem(tr("The script failed: %1").arg(a.scriptError));
        item->setForeground(QColor(0xc0, 0x39, 0x2b));
        m_results->addItem(item);
    }
    for (const QString& line : a.scriptLogs)
        m_results->addItem(tr("console: %1").arg(line));
    m_results->setVisible(m_results->count() > 0);
    m_title = a.tests.isEmpty() ? tr("Scripts") : tr("Scripts (%1/%2)").arg(passed).arg(a.tests.size());
    Q_EMIT titleChanged(m_title);
}
