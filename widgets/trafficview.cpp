#include "trafficview.h"

#include "timechart.h"

#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>
#include <QValueAxis>

TrafficView::TrafficView(stampede::ProjectStore& store, qint64 item, const QByteArray& payload, QWidget* parent)
    : QWidget(parent)
{
    const QJsonObject t = QJsonDocument::fromJson(payload).object();
    QStringList lines{tr("Recorded traffic from %1").arg(t.value(QStringLiteral("source")).toString()),
                      tr("%1 requests, from %2 to %3")
                          .arg(t.value(QStringLiteral("records")).toInteger())
                          .arg(t.value(QStringLiteral("first")).toString(), t.value(QStringLiteral("last")).toString()),
                      tr("%1 lines read, %2 could not be read")
                          .arg(t.value(QStringLiteral("lines")).toInteger())
                          .arg(t.value(QStringLiteral("bad")).toInteger())};
    for (const auto& p : t.value(QStringLiteral("problems")).toArray())
        lines << tr("  line %1: %2")
                     .arg(p.toObject().value(QStringLiteral("line")).toInteger())
                     .arg(p.toObject().value(QStringLiteral("why")).toString());
    QStringList masks;
    for (const auto& m : t.value(QStringLiteral("masks")).toArray())
        masks << m.toString();
    lines << tr("Masked before storage: %1").arg(masks.isEmpty() ? tr("nothing") : masks.join(QStringLiteral(", ")));
    m_summary = new QLabel(lines.join(QLatin1Char('\n')));
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_state = new QLabel(tr("Reading the requests…"));
    m_state->setObjectName(QStringLiteral("state"));
    m_paths = new QTableWidget(0, 2);
    m_paths->setObjectName(QStringLiteral("paths"));
    m_paths->setHorizontalHeaderLabels({tr("Path"), tr("Requests")});
    m_paths->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_paths->verticalHeader()->hide();
    m_paths->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_chartBox = new QVBoxLayout;
    auto* row = new QHBoxLayout;
    row->addLayout(m_chartBox, 3);
    row->addWidget(m_paths, 2);
    m_replay = new QPushButton(tr("New replay scenario"));
    m_replay->setObjectName(QStringLiteral("replayButton"));
    m_replay->setToolTip(tr("A scenario that sends these requests at their recorded times to a server you choose, "
                            "sped up or amplified if you like"));
    connect(m_replay, &QPushButton::clicked, this, &TrafficView::replayRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(m_summary, 1);
    top->addWidget(m_replay, 0, Qt::AlignTop);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_state);
    layout->addLayout(row, 1);

    // the chunks are read here, on the store's thread; decoded on the pool's
    QString error;
    auto job = TrafficImporter::shapeJob(store, item, error);
    if (!job) {
        m_state->setText(error);
        return;
    }
    m_jobs.start(std::move(job), [this](TrafficImporter::Shape shape) { showShape(shape); });
}

void TrafficView::showShape(const TrafficImporter::Shape& shape)
{
    if (!shape.ok) {
        m_state->setText(tr("The traffic set's requests are damaged."));
        return;
    }
    m_state->setText(tr("%1 s long, at most %2 requests in a second; %3 clients; %4")
                         .arg(shape.perSecond.size())
                         .arg(shape.peak)
                         .arg(shape.clients)
                         .arg(shape.methods));
    QChartView* chart = timechart::makeView(tr("Requests per second, as recorded"), tr("requests/s"));
    timechart::addLine(chart, tr("recorded"), timechart::seriesColour(0), shape.perSecond);
    if (auto* x = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Horizontal).value(0)))
        timechart::setNiceRange(x, 0, std::max<double>(1, double(shape.perSecond.size())));
    if (auto* y = qobject_cast<QValueAxis*>(chart->chart()->axes(Qt::Vertical).value(0)))
        timechart::setCountRange(y, double(shape.peak) * 1.1);
    m_chartBox->addWidget(chart);
    chart->show(); // added to a visible view: shown now, not on the next turn of the loop
    m_paths->setRowCount(int(shape.paths.size()));
    for (int i = 0; i < m_paths->rowCount(); ++i) {
        m_paths->setItem(i, 0, new QTableWidgetItem(shape.paths[i].first));
        auto* count = new QTableWidgetItem(QString::number(shape.paths[i].second));
        count->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
        m_paths->setItem(i, 1, count);
    }
    m_loaded = true;
    Q_EMIT shapeShown();
}
