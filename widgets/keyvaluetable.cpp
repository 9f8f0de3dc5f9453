#include "keyvaluetable.h"

#include "requestitem.h"

#include <QCompleter>
#include <QHeaderView>
#include <QLineEdit>
#include <QStyledItemDelegate>

namespace {
class CompletingDelegate : public QStyledItemDelegate
{
public:
    CompletingDelegate(const QStringList* names, QObject* parent) : QStyledItemDelegate(parent), m_names(names) {}
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
};
} // namespace

KeyValueTable::KeyValueTable(const QString& nameLabel, const QString& valueLabel, QWidget* parent)
    : QTableWidget(0, 2, parent)
{
    setHorizontalHeaderLabels({nameLabel, valueLabel});
    horizontalHeader()->setStretchLastSection(true);
    horizontalHeader()->resizeSection(0, 200);
    verticalHeader()->hide();
    setItemDelegate(new CompletingDelegate(&m_completions, this));
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
    if (!lastEmpty)
        insertRow(rowCount());
    m_updating = wasUpdating;
}
