#pragma once
// What the workbench shows first: a new project, an existing one, the demo,
// or one of the projects opened lately (with its newest run).
#include <QWidget>

class QListWidget;
class QPushButton;

class WelcomePage : public QWidget
{
    Q_OBJECT
public:
    explicit WelcomePage(QWidget* parent = nullptr);
    // Reads the recent projects again (after one was opened or run).
    void refresh();
    // Whether "Open the demo" is offered (the program knows how to start its mock server).
    void setDemoAvailable(bool available);
    QListWidget* recent() const { return m_recent; }
    QPushButton* demoButton() const { return m_demo; }

Q_SIGNALS:
    void newProjectRequested();
    void openRequested();
    void demoRequested();
    void projectChosen(const QString& path);

protected:
    void showEvent(QShowEvent* event) override;

private:
    QListWidget* m_recent;
    QPushButton* m_demo;
};
