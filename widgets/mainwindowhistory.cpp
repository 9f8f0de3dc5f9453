// The main window's request history: each Send kept in the project, a
// searchable list, and an entry re-opened as a new request.
#include "mainwindow.h"

#include "projecttreemodel.h"
#include "requesthistory.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QStatusBar>
#include <QUrl>
#include <QVBoxLayout>

using stampede::ItemKind;

void MainWindow::recordSend(HistoryEntry entry)
{
    if (!m_store)
        return;
    QString error;
    if (!RequestHistory::append(*m_store, std::move(entry), error))
        statusBar()->showMessage(tr("The send was not kept in the history: %1").arg(error), 6000);
}

qint64 MainWindow::reopenFromHistory(int index)
{
    if (!m_store)
        return 0;
    const QList<HistoryEntry> entries = RequestHistory::load(*m_store);
    if (index < 0 || index >= entries.size())
        return 0;
    const HistoryEntry& e = entries[index];
    QModelIndex collection;
    for (int r = 0; r < m_model->rowCount() && !collection.isValid(); ++r)
        if (m_model->index(r, 0).data(ProjectTreeModel::KindRole).toInt() == int(ItemKind::Collection))
            collection = m_model->index(r, 0);
    if (!collection.isValid())
        collection = m_model->addItem({}, ItemKind::Collection, tr("From the history"));
    const QString name =
        tr("%1 (sent %2)")
            .arg(e.name.isEmpty() ? e.method + u' ' + QUrl(e.url).path() : e.name, e.at.left(16).replace(u'T', u' '));
    const QModelIndex made = m_model->addItem(collection, ItemKind::Request, name, e.request);
    if (!made.isValid()) {
        showError(m_model->lastError());
        return 0;
    }
    const qint64 id = made.data(ProjectTreeModel::IdRole).toLongLong();
    openItem(id);
    return id;
}

void MainWindow::showHistory()
{
    if (!m_store)
        return showError(tr("No project is open."));
    QDialog dialog(this);
    dialog.setWindowTitle(tr("History"));
    auto* search = new QLineEdit;
    search->setPlaceholderText(tr("Search: name, method, URL, status…"));
    search->setClearButtonEnabled(true);
    auto* list = new QListWidget;
    auto* preview = new QPlainTextEdit;
    preview->setReadOnly(true);
    auto* keep = new QSpinBox;
    keep->setRange(1, RequestHistory::kMaxHistory);
    keep->setValue(RequestHistory::limit(*m_store));
    keep->setToolTip(tr("How many sends the project keeps; the oldest go first"));
    const QList<HistoryEntry> entries = RequestHistory::load(*m_store);
    auto fill = [&, list, search] {
        list->clear();
        for (int i : RequestHistory::search(entries, search->text())) {
            const HistoryEntry& e = entries[i];
            auto* item = new QListWidgetItem(
                QStringLiteral("%1  %2  %3 %4  %5")
                    .arg(e.at.left(19).replace(u'T', u' '), e.status ? QString::number(e.status) : tr("failed"),
                         e.method, e.url, e.ms > 0 ? QStringLiteral("%1 ms").arg(e.ms, 0, 'f', 1) : QString()));
            item->setData(Qt::UserRole, i);
            list->addItem(item);
        }
    };
    fill();
    connect(search, &QLineEdit::textChanged, &dialog, fill);
    connect(list, &QListWidget::currentItemChanged, &dialog, [&, preview](QListWidgetItem* item) {
        if (!item)
            return preview->clear();
        const HistoryEntry& e = entries[item->data(Qt::UserRole).toInt()];
        preview->setPlainText(e.error.isEmpty() ? e.head + QStringLiteral("\n\n") + e.body
                                                : tr("No answer: %1").arg(e.error));
    });
    auto* reopen = new QPushButton(tr("Open as a new request"));
    connect(reopen, &QPushButton::clicked, &dialog, [&, list] {
        if (list->currentItem() && reopenFromHistory(list->currentItem()->data(Qt::UserRole).toInt()))
            dialog.accept();
    });
    auto* bottom = new QHBoxLayout;
    bottom->addWidget(new QLabel(tr("Keep the last")));
    bottom->addWidget(keep);
    bottom->addWidget(new QLabel(tr("sends")));
    bottom->addStretch(1);
    bottom->addWidget(reopen);
    auto* close = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(close, &QDialogButtonBox::rejected, &dialog, &QDialog::reject);
    auto* layout = new QVBoxLayout(&dialog);
    layout->addWidget(search);
    layout->addWidget(list, 2);
    layout->addWidget(preview, 1);
    layout->addLayout(bottom);
    layout->addWidget(close);
    dialog.resize(860, 560);
    dialog.exec();
    if (keep->value() != RequestHistory::limit(*m_store)) {
        QString error;
        if (!RequestHistory::setLimit(*m_store, keep->value(), error))
            showError(error);
    }
}
