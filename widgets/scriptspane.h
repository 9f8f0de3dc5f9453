#pragma once
// The request builder's Scripts tab: Postman's pre-request and test scripts
// (JavaScript with the pm API, run by the engine on Send and in runs), each
// checked as it is typed (a syntax error, or a call the engine does not run,
// shown at its line before anything is sent), and what the last Send's test
// script said: each pm.test passed or failed with its message, a script's
// error, its console.log lines.
#include <QWidget>

class QLabel;
class QListWidget;
class QPlainTextEdit;
class QTimer;
struct SendAnswer;

class ScriptsPane : public QWidget
{
    Q_OBJECT
public:
    explicit ScriptsPane(QWidget* parent = nullptr);
    void setScripts(const QString& preRequest, const QString& test);
    // What the scripts run on: 0 an HTTP request (both scripts), 1 a gRPC call, 2 a WebSocket conversation, 3 an
    // event stream (a test script only, on the answer: the pre-request script is hidden and not taken).
    void setKind(int kind);
    QString preRequestScript() const;
    QString testScript() const;
    // What a Send's scripts said (nothing when the request has no script).
    void showResults(const SendAnswer& answer);
    void clearResults();
    // "Scripts", or "Scripts (passed/tests)" after a Send.
    QString title() const { return m_title; }
    // The problems shown now, one per script ("" when it reads), for tests.
    QStringList problems() const;

Q_SIGNALS:
    void changed();
    void titleChanged(const QString& title);

private:
    void check();

    QPlainTextEdit* m_pre;
    QWidget* m_preBox = nullptr;
    int m_kind = 0;
    QPlainTextEdit* m_test;
    QLabel* m_preProblem;
    QLabel* m_testProblem;
    QListWidget* m_results;
    QTimer* m_checkSoon;
    QString m_title;
    bool m_loading = false;
};
