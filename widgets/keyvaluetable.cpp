#include "keyvaluetable.h"

#include "requestitem.h"

#include <QCompleter>
#include <QContextMenuEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLineEdit>
#include <QMenu>
#include <QStyledItemDelegate>

#include <algorithm>
#include <functional>

namespace {
class CompletingDelegate : public QStyledItemDelegate
{
public:
    CompletingDelegate(const QStringList* names, const bool* secrets, QObject* parent)
        : QStyledItemDelegate(parent), m_names(names), m_secrets(secrets)
    {
    }
    // a secret value is drawn as dots; its editor shows it
    void initStyleOption(QStyleOptionViewItem* option, const QModelIndex& index) const override
    {
        QStyledItemDelegate::initStyleOption(option, index);
        if (*m_secrets && index.column() == 1 &&
            index.siblingAtColumn(2).data(Qt::CheckStateRole).toInt() == Qt::Checked && !option->text.isEmpty())
            option->text = QString(option->text.size(), QChar(0x25CF));
    }
    QWidget* createEditor(QWidget* parent, const QStyleOptionViewItem& option, const QModelIndex& index) const override
    {
        QWidget* w = QStyledItemDelegate::createEditor(parent, option, index);
        if (auto* edit = qobject_cast<QLineEdit*>(w); edit && index.column() == 0 && !m_names->isEmpty()) {
            auto* c = new QCompleter(*m_names, edit);
            c->setCaseSensitivity(Qt::CaseInsensitive);
            edit->setCompleter(c);
        }
        return w;
    }

private:
    const QStringList* m_names;
    const bool* m_secrets;
};
} // namespace

KeyValueTable::KeyValueTable(const QString& nameLabel, const QString& valueLabel, QWidget* parent)
    : QTableWidget(0, 2, parent)
{
    setHorizontalHeaderLabels({nameLabel, valueLabel});
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->resizeSection(0, 200);
    verticalHeader()->hide();
    setItemDelegate(new CompletingDelegate(&m_completions, &m_secrets, this));
    ensureEmptyLastRow();
    // dataChanged, not itemChanged: typing into an empty cell creates its item
    // through setItem(), which itemChanged does not report.
    connect(model(), &QAbstractItemModel::dataChanged, this, [this] {
        if (m_updating)
            return;
        ensureEmptyLastRow();
        Q_EMIT pairsChanged();
    });
}

void KeyValueTable::keyPressEvent(QKeyEvent* event)
{
    if ((event->key() == Qt::Key_Delete || event->key() == Qt::Key_Backspace) && state() != EditingState &&
        removeSelectedRows())
        return;
    QTableWidget::keyPressEvent(event);
}

void KeyValueTable::contextMenuEvent(QContextMenuEvent* event)
{
    QMenu menu(this);
    QAction* remove = menu.addAction(tr("Remove row"));
    remove->setShortcut(QKeySequence::Delete);
    const QModelIndex at = indexAt(event->pos());
    if (at.isValid() && !selectionModel()->isSelected(at))
        setCurrentIndex(at);
    remove->setEnabled(at.isValid() && at.row() < rowCount() - 1);
    QAction* files = nullptr;
    if (m_files && !isColumnHidden(2)) {
        files = menu.addAction(tr("Choose files…"));
        files->setEnabled(at.isValid());
    }
    QAction* chosen = menu.exec(event->globalPos());
    if (chosen == remove)
        removeSelectedRows();
    else if (chosen && chosen == files)
        chooseFiles(at.row());
}

bool KeyValueTable::removeSelectedRows()
{
    QList<int> rows;
    for (const QModelIndex& i : selectionModel()->selectedIndexes())
        if (!rows.contains(i.row()) && i.row() < rowCount() - 1)
            rows << i.row();
    if (rows.isEmpty() && currentIndex().isValid() && currentRow() < rowCount() - 1)
        rows << currentRow();
    if (rows.isEmpty())
        return false;
    std::sort(rows.begin(), rows.end(), std::greater<int>());
    m_updating = true;
    for (int r : rows)
        removeRow(r);
    ensureEmptyLastRow();
    m_updating = false;
    Q_EMIT pairsChanged();
    return true;
}

void KeyValueTable::enableSecrets()
{
    m_secrets = true;
    setColumnCount(3);
    setHorizontalHeaderItem(2, new QTableWidgetItem(tr("Secret")));
    horizontalHeaderItem(2)->setToolTip(tr("A secret value is drawn as dots and is not written into bundles or "
                                           "exported collections: give it to a run with --var or --env on the "
                                           "machine that runs it"));
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    for (int r = 0; r < rowCount(); ++r)
        markCell(r);
}

QSet<QString> KeyValueTable::secrets() const
{
    QSet<QString> out;
    if (!m_secrets)
        return out;
    for (int r = 0; r < rowCount(); ++r)
        if (item(r, 0) && item(r, 2) && item(r, 2)->checkState() == Qt::Checked &&
            !item(r, 0)->text().trimmed().isEmpty())
            out.insert(item(r, 0)->text().trimmed());
    return out;
}

void KeyValueTable::setSecrets(const QSet<QString>& names)
{
    if (!m_secrets)
        return;
    m_updating = true;
    for (int r = 0; r < rowCount(); ++r) {
        markCell(r);
        const bool secret = item(r, 0) && names.contains(item(r, 0)->text().trimmed());
        item(r, 2)->setCheckState(secret ? Qt::Checked : Qt::Unchecked);
    }
    m_updating = false;
    viewport()->update();
}

void KeyValueTable::enableFiles()
{
    m_files = true;
    setColumnCount(3);
    setHorizontalHeaderItem(2, new QTableWidgetItem(tr("File")));
    horizontalHeaderItem(2)->setToolTip(
        tr("The field sends files: its value is their paths, separated by \";\" (relative to the project's folder, "
           "or absolute). Each is read when the request is sent or the run starts, and sent as it is, with its name "
           "and a Content-Type from its extension. Right-click a row to choose them."));
    horizontalHeader()->setStretchLastSection(false);
    horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    horizontalHeader()->setSectionResizeMode(2, QHeaderView::ResizeToContents);
    for (int r = 0; r < rowCount(); ++r)
        markCell(r);
}

int KeyValueTable::pairRow(int pair) const
{
    for (int r = 0, n = 0; r < rowCount(); ++r)
        if (item(r, 0) && !item(r, 0)->text().trimmed().isEmpty() && n++ == pair)
            return r;
    return -1;
}

QList<int> KeyValueTable::fileRows() const
{
    QList<int> out;
    if (!m_files)
        return out;
    for (int r = 0, n = 0; r < rowCount(); ++r) {
        if (!item(r, 0) || item(r, 0)->text().trimmed().isEmpty())
            continue;
        if (item(r, 2) && item(r, 2)->checkState() == Qt::Checked)
            out << n;
        ++n;
    }
    return out;
}

void KeyValueTable::setFileRows(const QList<int>& rows)
{
    if (!m_files)
        return;
    m_updating = true;
    for (int r = 0; r < rowCount(); ++r) {
        markCell(r);
        item(r, 2)->setCheckState(Qt::Unchecked);
    }
    for (int pair : rows)
        if (const int r = pairRow(pair); r >= 0)
            item(r, 2)->setCheckState(Qt::Checked);
    m_updating = false;
    viewport()->update();
}

QString KeyValueTable::pathFrom(const QString& base, const QString& chosen)
{
    const QString relative = base.isEmpty() ? chosen : QDir(base).relativeFilePath(chosen);
    return relative.startsWith(QLatin1String("..")) ? QFileInfo(chosen).absoluteFilePath() : relative;
}

QStringList KeyValueTable::splitPaths(const QString& value)
{
    QStringList out;
    for (const QString& p : value.split(QLatin1Char(';')))
        if (!p.trimmed().isEmpty())
            out << p.trimmed();
    return out;
}

void KeyValueTable::chooseFiles(int row)
{
    const QStringList chosen = QFileDialog::getOpenFileNames(this, tr("Files to send"), m_fileBase);
    if (chosen.isEmpty() || row < 0 || row >= rowCount())
        return;
    QStringList paths;
    for (const QString& c : chosen)
        paths << pathFrom(m_fileBase, c);
    m_updating = true;
    markCell(row);
    if (!item(row, 0) || item(row, 0)->text().trimmed().isEmpty())
        setItem(row, 0, new QTableWidgetItem(QStringLiteral("file")));
    setItem(row, 1, new QTableWidgetItem(paths.join(QLatin1Char(';'))));
    item(row, 2)->setCheckState(Qt::Checked);
    ensureEmptyLastRow();
    m_updating = false;
    Q_EMIT pairsChanged();
}

QString KeyValueTable::shownValue(int row) const
{
    QStyleOptionViewItem option;
    const QModelIndex index = model()->index(row, 1);
    static_cast<CompletingDelegate*>(itemDelegate())->initStyleOption(&option, index);
    return option.text;
}

void KeyValueTable::markCell(int row)
{
    if ((!m_secrets && !m_files) || item(row, 2))
        return;
    auto* cell = new QTableWidgetItem;
    cell->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    cell->setCheckState(Qt::Unchecked);
    setItem(row, 2, cell);
}

void KeyValueTable::markUnknown(const QHash<QString, QString>& variables)
{
    m_updating = true; // a colour is not an edit
    for (int r = 0; r < rowCount(); ++r)
        for (int c = 0; c < 2; ++c) {
            QTableWidgetItem* cell = item(r, c);
            if (!cell)
                continue;
            const QStringList unknown = RequestItem::unknownNames(cell->text(), variables);
            cell->setForeground(unknown.isEmpty() ? QBrush() : QBrush(QColor(0xc0, 0x39, 0x2b)));
            cell->setToolTip(unknown.isEmpty() ? QString()
                                               : tr("Not defined: ${%1}").arg(unknown.join(QStringLiteral("}, ${"))));
        }
    m_updating = false;
}

void KeyValueTable::setNameCompletions(const QStringList& names)
{
    m_completions = names;
}

QList<QPair<QString, QString>> KeyValueTable::pairs() const
{
    QList<QPair<QString, QString>> out;
    for (int r = 0; r < rowCount(); ++r) {
        const QString name = item(r, 0) ? item(r, 0)->text().trimmed() : QString();
        const QString value = item(r, 1) ? item(r, 1)->text() : QString();
        if (!name.isEmpty())
            out.append({name, value});
    }
    return out;
}

void KeyValueTable::setPairs(const QList<QPair<QString, QString>>& pairs)
{
    m_updating = true;
    setRowCount(0);
    for (const auto& [n, v] : pairs) {
        const int r = rowCount();
        insertRow(r);
        setItem(r, 0, new QTableWidgetItem(n));
        setItem(r, 1, new QTableWidgetItem(v));
        markCell(r);
    }
    ensureEmptyLastRow();
    m_updating = false;
}

void KeyValueTable::ensureEmptyLastRow()
{
    const bool wasUpdating = m_updating;
    m_updating = true;
    const int last = rowCount() - 1;
    const bool lastEmpty = last >= 0 && (!item(last, 0) || item(last, 0)->text().isEmpty()) &&
                           (!item(last, 1) || item(last, 1)->text().isEmpty());
    if (!lastEmpty) {
        insertRow(rowCount());
        markCell(rowCount() - 1);
    }
    m_updating = wasUpdating;
}
