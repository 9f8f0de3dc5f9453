// The main window asked to close, or to close its project, while runs go on:
// it asks (stop and save, keep running detached, cancel) instead of cutting
// the runs short as "interrupted".
#include "mainwindow.h"

#include "runsession.h"

#include <QApplication>
#include <QCloseEvent>
#include <QElapsedTimer>
#include <QMessageBox>
#include <QPushButton>
#include <QTimer>

QList<RunSession*> MainWindow::runningSessions() const
{
    QList<RunSession*> out;
    for (RunSession* s : findChildren<RunSession*>())
        if (s->isRunning())
            out << s;
    return out;
}

// Stops every run and waits (the event loop turning: the runs write their
// last seconds through it) until each has ended, at most 15 s.
void MainWindow::stopRunsAndWait()
{
    const QList<RunSession*> runs = runningSessions();
    for (RunSession* s : runs)
        s->stop();
    QElapsedTimer waited;
    waited.start();
    while (!runningSessions().isEmpty() && waited.elapsed() < 15000)
        QApplication::processEvents(QEventLoop::AllEvents, 50);
}

void MainWindow::quitOnceRunsEnd()
{
    auto* poll = new QTimer(this);
    QElapsedTimer waited;
    waited.start();
    connect(poll, &QTimer::timeout, this, [this, waited] {
        const bool started = !findChildren<RunSession*>().isEmpty();
        if ((started && runningSessions().isEmpty()) || (!started && waited.elapsed() > 60000))
            QApplication::quit(); // (a run that ended has saved its summary: nothing is going on to ask about)
    });
    poll->start(200);
}

MainWindow::RunsAnswer MainWindow::askAboutRuns(bool quitting)
{
    const int n = int(runningSessions().size());
    if (n == 0)
        return RunsAnswer::NoRuns;
    QMessageBox box(QMessageBox::Question, tr("Stampede"), tr("%n run(s) are still going on.", nullptr, n),
                    QMessageBox::NoButton, this);
    box.setObjectName(QStringLiteral("runsGoingOn"));
    box.setInformativeText(quitting ? tr("Stop them and save what they measured, or keep them running without the "
                                         "window: they end as planned and are saved in the project.")
                                    : tr("Stop them and save what they measured before the project closes?"));
    QPushButton* stop = box.addButton(tr("Stop and save"), QMessageBox::AcceptRole);
    stop->setObjectName(QStringLiteral("stopAndSave"));
    QPushButton* detach = nullptr;
    if (quitting) {
        detach = box.addButton(tr("Keep running detached"), QMessageBox::ActionRole);
        detach->setObjectName(QStringLiteral("keepRunning"));
    }
    QPushButton* cancel = box.addButton(QMessageBox::Cancel);
    cancel->setObjectName(QStringLiteral("cancel"));
    box.setDefaultButton(cancel);
    box.exec();
    if (box.clickedButton() == stop)
        return RunsAnswer::Stop;
    if (detach && box.clickedButton() == detach)
        return RunsAnswer::Detach;
    return RunsAnswer::Cancel;
}

bool MainWindow::mayCloseProject()
{
    switch (askAboutRuns(false)) {
    case RunsAnswer::NoRuns:
        return true;
    case RunsAnswer::Stop:
        stopRunsAndWait();
        return true;
    default:
        return false;
    }
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    switch (askAboutRuns(true)) {
    case RunsAnswer::NoRuns:
        event->accept();
        return;
    case RunsAnswer::Stop:
        stopRunsAndWait();
        event->accept();
        return;
    case RunsAnswer::Detach: {
        // the window goes; the process stays until the last run has ended and is saved
        QApplication::setQuitOnLastWindowClosed(false);
        for (RunSession* s : runningSessions())
            connect(s, &RunSession::finished, this, [this] {
                if (runningSessions().isEmpty())
                    QApplication::quit();
            });
        event->accept();
        return;
    }
    default:
        event->ignore();
    }
}
