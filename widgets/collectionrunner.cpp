#include "collectionrunner.h"

#include "collectionresults.h"
#include "runsession.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSortFilterProxyModel>
#include <QSpinBox>
#include <QTreeView>
#include <QVBoxLayout>

CollectionRunDialog::CollectionRunDialog(const QString& title, const QStringList& environments, const QString& current,
                                         QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Run %1").arg(title));
    auto* form = new QFormLayout;
    auto* what = new QLabel(title);
    what->setWordWrap(true);
    form->addRow(tr("Collection or folder:"), what);
    m_environment = new QComboBox;
    m_environment->setObjectName(QStringLiteral("runEnvironment"));
    m_environment->addItem(tr("(none: the collection's variables)"), QString());
    for (const QString& e : environments)
        m_environment->addItem(e, e);
    m_environment->setCurrentIndex(std::max(0, m_environment->findData(current)));
    m_environment->setToolTip(tr("Its values are used above the collection's variables, as in Postman"));
    form->addRow(tr("Environment:"), m_environment);
    m_iterations = new QSpinBox;
    m_iterations->setObjectName(QStringLiteral("runIterations"));
    m_iterations->setRange(1, 1000000);
    m_iterations->setValue(1);
    m_iterations->setToolTip(tr("How many times the requests run, in order; with a data file, a row each time"));
    form->addRow(tr("Iterations:"), m_iterations);
    m_dataFile = new QLineEdit;
    m_dataFile->setObjectName(QStringLiteral("runDataFile"));
    m_dataFile->setPlaceholderText(tr("none"));
    m_dataFile->setToolTip(tr("A CSV file with a header row, or a JSON array of objects: {{column}} in the "
                              "requests and pm.iterationData in scripts take a row each iteration"));
    auto* choose = new QPushButton(tr("Choose…"));
    auto* dataRow = new QHBoxLayout;
    dataRow->addWidget(m_dataFile, 1);
    dataRow->addWidget(choose);
    form->addRow(tr("Data file:"), dataRow);
    m_dataStatus = new QLabel;
    m_dataStatus->setWordWrap(true);
    form->addRow(QString(), m_dataStatus);
    m_delay = new QSpinBox;
    m_delay->setObjectName(QStringLiteral("runDelay"));
    m_delay->setRange(0, 3600000);
    m_delay->setSuffix(tr(" ms"));
    m_delay->setToolTip(tr("A pause between two requests (newman's --delay-request)"));
    form->addRow(tr("Delay:"), m_delay);
    m_bail = new QCheckBox(tr("Stop the run at the first failure"));
    m_bail->setObjectName(QStringLiteral("runBail"));
    m_bail->setToolTip(tr("Unchecked, every request is sent whatever failed before it, as newman runs a "
                          "collection (its --bail when checked)"));
    form->addRow(QString(), m_bail);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Cancel);
    m_run = buttons->addButton(tr("Run"), QDialogButtonBox::AcceptRole);
    m_run->setDefault(true);
    connect(buttons, &QDialogButtonBox::accepted, this, &QDialog::accept);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(choose, &QPushButton::clicked, this, [this] {
        const QString path = QFileDialog::getOpenFileName(this, tr("Iteration data"), m_dataFile->text(),
                                                          tr("Data files (*.csv *.json);;All files (*)"));
        if (!path.isEmpty())
            setDataFile(path);
    });
    connect(m_dataFile, &QLineEdit::editingFinished, this, [this] { setDataFile(m_dataFile->text().trimmed()); });
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(form);
    layout->addWidget(buttons);
    resize(520, sizeHint().height());
}

bool CollectionRunDialog::setDataFile(const QString& path)
{
    m_dataFile->setText(path);
    if (path.isEmpty()) {
        m_dataStatus->clear();
        m_run->setEnabled(true);
        return true;
    }
    int rows = 0;
    QStringList columns;
    QString error;
    const bool ok = describeIterationDataFile(path, rows, columns, error);
    if (ok) {
        m_dataStatus->setText(tr("Rows: %1 · columns: %2").arg(rows).arg(columns.join(QStringLiteral(", "))));
        m_dataStatus->setStyleSheet(QString());
        if (rows > 0)
            m_iterations->setValue(std::min(rows, 1000000));
    } else {
        m_dataStatus->setText(error);
        m_dataStatus->setStyleSheet(QStringLiteral("color: #c0392b"));
    }
    m_run->setEnabled(ok); // a file that cannot be read never runs as if there were none
    return ok;
}

QString CollectionRunDialog::dataStatus() const
{
    return m_dataStatus->text();
}

CollectionRunChoice CollectionRunDialog::choice() const
{
    CollectionRunChoice c;
    c.environment = m_environment->currentData().toString();
    c.iterations = m_iterations->value();
    c.dataFile = m_dataFile->text().trimmed();
    c.delayMs = m_delay->value();
    c.bail = m_bail->isChecked();
    return c;
}

namespace {

// Failed rows only: a request that failed, and under it the tests that failed.
class FailedOnly final : public QSortFilterProxyModel
{
public:
    using QSortFilterProxyModel::QSortFilterProxyModel;
    bool on = false;
    void setOn(bool v)
    {
        on = v;
        invalidateFilter();
    }

protected:
    bool filterAcceptsRow(int row, const QModelIndex& parent) const override
    {
        if (!on)
            return true;
        return sourceModel()->index(row, 0, parent).data(CollectionResultsModel::FailedRole).toBool();
    }
};

} // namespace

CollectionRunView::CollectionRunView(QWidget* parent) : QWidget(parent)
{
    m_results = new CollectionResultsModel(this);
    auto* filter = new FailedOnly(this);
    filter->setSourceModel(m_results);
    m_filter = filter;
    m_tree = new QTreeView;
    m_tree->setObjectName(QStringLiteral("collectionResults"));
    m_tree->setModel(m_filter);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->header()->setStretchLastSection(true);
    m_tree->header()->setSectionResizeMode(CollectionResultsModel::Name, QHeaderView::Interactive);
    m_tree->setColumnWidth(CollectionResultsModel::Name, 360);
    for (int c : {int(CollectionResultsModel::Sent), int(CollectionResultsModel::Result),
                  int(CollectionResultsModel::Passed), int(CollectionResultsModel::Failed)})
        m_tree->header()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    m_status = new QLabel;
    m_status->setObjectName(QStringLiteral("collectionStatus"));
    m_verdict = new QLabel;
    m_verdict->setObjectName(QStringLiteral("collectionVerdict"));
    m_failedOnly = new QCheckBox(tr("Failures only"));
    m_failedOnly->setToolTip(tr("Show only the requests and tests that failed"));
    connect(m_failedOnly, &QCheckBox::toggled, this, [this, filter](bool on) {
        filter->setOn(on);
        m_tree->expandAll();
    });
    m_stop = new QPushButton(tr("Stop"));
    m_stop->setVisible(false);
    auto* top = new QHBoxLayout;
    top->addWidget(m_status, 1);
    top->addWidget(m_failedOnly);
    top->addWidget(m_stop);
    top->addWidget(m_verdict);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_tree, 1);
    connect(m_results, &QAbstractItemModel::rowsInserted, m_tree, [this](const QModelIndex& parent) {
        m_tree->expand(m_filter->mapFromSource(parent)); // a request's tests in sight as they come
    });
    updateStatus();
}

void CollectionRunView::follow(RunSession* session)
{
    m_results->setRequests(session->stepNames(), session->stepFolders(), session->checkNames());
    m_tree->expandAll();
    m_stop->setVisible(true);
    m_verdict->setText(tr("running"));
    connect(m_stop, &QPushButton::clicked, session, &RunSession::stop);
    connect(session, &RunSession::secondAvailable, this, [this](const RunSecond& s) {
        m_results->addSecond(s);
        updateStatus();
    });
    connect(session, &RunSession::finished, this, [this, session](const QString& status) {
        m_stop->setVisible(false);
        if (const stampede::RunSummary* summary = session->summary()) {
            showSummary(*summary);
            return;
        }
        m_verdict->setText(tr("FAILED"));
        m_verdict->setStyleSheet(QStringLiteral("color: #c0392b; font-weight: bold"));
        m_verdict->setToolTip(session->lastError().isEmpty() ? status : session->lastError());
        updateStatus();
    });
}

void CollectionRunView::showSummary(const stampede::RunSummary& summary)
{
    m_results->setSummary(summary);
    m_tree->expandAll();
    // the verdict is the run's own, as its exit code, report and exports say it
    const bool passed = m_results->passed();
    m_verdict->setText(passed ? tr("PASSED") : tr("FAILED"));
    m_verdict->setStyleSheet(passed ? QStringLiteral("color: #1e8449; font-weight: bold")
                                    : QStringLiteral("color: #c0392b; font-weight: bold"));
    m_verdict->setToolTip(m_results->reason());
    updateStatus();
}

QString CollectionRunView::statusText() const
{
    return m_status->text();
}

void CollectionRunView::updateStatus()
{
    const int tests = m_results->testCount(), failed = m_results->testsFailed();
    m_status->setText(tr("Requests sent: %1 of %2 · tests: %3, failed: %4")
                          .arg(m_results->requestsSent())
                          .arg(m_results->requestCount())
                          .arg(tests)
                          .arg(failed));
}
