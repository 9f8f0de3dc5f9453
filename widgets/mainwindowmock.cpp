// The main window and the project's own mock server (models/projectmock.h):
// started when a project that keeps mock rules opens, its URL put into the
// environments' value that names it, stopped with the project.
#include "mainwindow.h"

#include "enginesettings.h"
#include "environmenteditor.h"
#include "projectmock.h"
#include "projecttreemodel.h"

#include <QStatusBar>
#include <QTabWidget>

void MainWindow::startProjectMock()
{
    delete m_mock;
    m_mock = nullptr;
    const auto config = m_store ? ProjectMock::load(*m_store) : std::nullopt;
    if (!config)
        return;
    m_mock = new ProjectMock(this);
    connect(m_mock, &ProjectMock::listening, this, [this](const QString& url) {
        pointEnvironmentsAt(m_mock->config().variable, url);
        statusBar()->showMessage(tr("The project's mock server listens on %1").arg(url), 8000);
    });
    connect(m_mock, &ProjectMock::failed, this, [this](const QString& why) {
        statusBar()->showMessage(tr("The project's mock server did not start: %1").arg(why));
    });
    QString error;
    if (!m_mock->start(*config, findStampedeCli(), error))
        statusBar()->showMessage(tr("The project's mock server did not start: %1").arg(error));
}

void MainWindow::useMockAt(const QString& url)
{
    const QString variable = m_mock ? m_mock->config().variable : QStringLiteral("mock_url");
    delete m_mock;
    m_mock = nullptr;
    pointEnvironmentsAt(variable, url);
}

void MainWindow::whenMockReady(const std::function<void()>& then)
{
    if (!m_mock || !m_mock->running() || !m_mock->url().isEmpty()) {
        then();
        return;
    }
    auto* once = new QObject(this); // the first of the two signals calls it, then both go
    const auto fire = [once, then] {
        if (once->parent()) {
            once->setParent(nullptr);
            once->deleteLater();
            then();
        }
    };
    connect(m_mock, &ProjectMock::listening, once, fire);
    connect(m_mock, &ProjectMock::failed, once, fire);
}

// Only `variable` changes, in each environment that has it.
void MainWindow::pointEnvironmentsAt(const QString& variable, const QString& url)
{
    for (int r = 0; r < m_model->rowCount(); ++r) {
        const QModelIndex i = m_model->index(r, 0);
        if (i.data(ProjectTreeModel::KindRole).toInt() != int(stampede::ItemKind::Environment))
            continue;
        const QByteArray payload =
            ProjectMock::pointedAt(i.data(ProjectTreeModel::PayloadRole).toByteArray(), variable, url);
        if (payload.isEmpty())
            continue;
        m_model->setPayload(i, payload);
        const qint64 id = i.data(ProjectTreeModel::IdRole).toLongLong();
        for (int t = 0; t < m_tabs->count(); ++t) // an open editor of that environment shows it
            if (auto* e = qobject_cast<EnvironmentEditor*>(m_tabs->widget(t));
                e && m_tabs->widget(t)->property("itemId").toLongLong() == id)
                e->setJson(payload);
    }
    applyEnvironment();
}
