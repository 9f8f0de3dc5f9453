#include "welcomepage.h"

#include "recentprojects.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QVBoxLayout>

WelcomePage::WelcomePage(QWidget* parent) : QWidget(parent)
{
    auto* title = new QLabel(tr("<h2>Stampede</h2><p>Build requests, shape the load, run it on engines and watch "
                                "it live. Everything you edit is saved in the project at once.</p>"));
    title->setWordWrap(true);
    auto* newProject = new QPushButton(tr("New project…"));
    newProject->setObjectName(QStringLiteral("newProjectButton"));
    newProject->setToolTip(tr("A new project file (.stampede) for requests, scenarios, data and runs"));
    auto* open = new QPushButton(tr("Open…"));
    open->setObjectName(QStringLiteral("openButton"));
    m_demo = new QPushButton(tr("Open the demo"));
    m_demo->setObjectName(QStringLiteral("demoButton"));
    m_demo->setToolTip(tr("A sample shop with requests, a data set and scenarios, against a mock server this "
                          "program starts for it"));
    m_recent = new QListWidget;
    m_recent->setObjectName(QStringLiteral("recentProjects"));
    m_recent->setToolTip(tr("Double-click (or Enter) to open"));
    m_recent->setWordWrap(true);
    m_recent->setSpacing(4);
    m_recent->setAlternatingRowColors(true);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(newProject);
    buttons->addWidget(open);
    buttons->addWidget(m_demo);
    buttons->addStretch(1);
    auto* column = new QVBoxLayout;
    column->addWidget(title);
    column->addLayout(buttons);
    column->addSpacing(12);
    column->addWidget(new QLabel(tr("<b>Recent projects</b>")));
    column->addWidget(m_recent, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addStretch(1);
    layout->addLayout(column, 6);
    layout->addStretch(1);

    connect(newProject, &QPushButton::clicked, this, &WelcomePage::newProjectRequested);
    connect(open, &QPushButton::clicked, this, &WelcomePage::openRequested);
    connect(m_demo, &QPushButton::clicked, this, &WelcomePage::demoRequested);
    connect(m_recent, &QListWidget::itemActivated, this, [this](QListWidgetItem* item) {
        if (item->flags() & Qt::ItemIsEnabled)
            Q_EMIT projectChosen(item->data(Qt::UserRole).toString());
    });
    refresh();
}

void WelcomePage::setDemoAvailable(bool available)
{
    m_demo->setVisible(available);
}

void WelcomePage::showEvent(QShowEvent* event)
{
    refresh();
    QWidget::showEvent(event);
}

void WelcomePage::refresh()
{
    m_recent->clear();
    for (const RecentProject& p : RecentProjects::list()) {
        auto* item = new QListWidgetItem(QStringLiteral("%1\n%2\n%3").arg(p.name, p.path, p.lastRun), m_recent);
        item->setData(Qt::UserRole, p.path);
        item->setToolTip(p.path);
        if (!p.exists)
            item->setFlags(item->flags() & ~Qt::ItemIsEnabled);
    }
    if (m_recent->count() == 0) {
        auto* none = new QListWidgetItem(tr("None yet: create a project, open one, or start with the demo."), m_recent);
        none->setFlags(Qt::NoItemFlags);
    }
}
