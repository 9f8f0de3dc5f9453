#include "checkstable.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

// Checks: what a check reads (the contract's field names) and its test.
const char* const kKinds[] = {"status", "jsonPath", "header", "bodyContains", "maxTimeMs"};
const char* const kTests[] = {QT_TRANSLATE_NOOP("ChecksTable", "equals"), QT_TRANSLATE_NOOP("ChecksTable", "matches"),
                              QT_TRANSLATE_NOOP("ChecksTable", "exists"), QT_TRANSLATE_NOOP("ChecksTable", "absent")};
// Extract: where a value is read from.
const char* const kSources[] = {"jsonPath", "header", "regex"};
// What the kinds and sources are called in the table (their field names stay the data).
QString kindLabel(const QString& kind)
{
    static const QList<QPair<const char*, const char*>> labels{
        {"status", QT_TRANSLATE_NOOP("ChecksTable", "status")},
        {"jsonPath", QT_TRANSLATE_NOOP("ChecksTable", "JSON path")},
        {"header", QT_TRANSLATE_NOOP("ChecksTable", "header")},
        {"bodyContains", QT_TRANSLATE_NOOP("ChecksTable", "body contains")},
        {"maxTimeMs", QT_TRANSLATE_NOOP("ChecksTable", "time at most (ms)")},
        {"regex", QT_TRANSLATE_NOOP("ChecksTable", "regular expression")},
    };
    for (const auto& [k, label] : labels)
        if (kind == QLatin1String(k))
            return QCoreApplication::translate("ChecksTable", label);
    return kind;
}

enum CheckColumn
{
    CName,
    CKind,
    CExpression,
    CTest,
    CExpected,
    CNot,
    CResult
};
enum ExtractColumn
{
    XName,
    XFrom,
    XExpression,
    XGroup,
    XValue
};

QJsonValue statusList(const QString& text)
{
    QJsonArray out;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
        bool number = false;
        const int code = part.trimmed().toInt(&number);
        out.append(number ? QJsonValue(code) : QJsonValue(part.trimmed()));
    }
    return out;
}

QString statusText(const QJsonArray& list)
{
    QStringList parts;
    for (const auto& v : list)
        parts << (v.isDouble() ? QString::number(v.toInt()) : v.toString());
    return parts.join(QStringLiteral(", "));
}

} // namespace

ChecksTable::ChecksTable(Mode mode, QWidget* parent) : QWidget(parent), m_mode(mode)
{
    const bool checks = mode == Mode::Checks;
    m_table = new QTableWidget(0, checks ? 7 : 5);
    m_table->setHorizontalHeaderLabels(
        checks ? QStringList{tr("Name"), tr("Reads"), tr("Expression"), tr("Test"), tr("Expected"), tr("Not"),
                             tr("Result")}
               : QStringList{tr("Name"), tr("From"), tr("Expression"), tr("Group"), tr("Value")});
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->verticalHeader()->hide();
    m_table->setToolTip(
        checks ? tr("Each check is judged on every answer: a status list (200, 201; gRPC: OK, NOT_FOUND), a JSON "
                    "path such as $.data.token, a header's name, text the body contains, or a time in ms. A failed "
                    "check counts as an error of class \"check\" in runs.")
               : tr("Each value read from the answer becomes ${name}: in the environment after Send, and for this "
                    "virtual user's later steps in a run. A regex takes its first group unless told another."));
    auto* add = new QPushButton(checks ? tr("Add check") : tr("Add extraction"));
    auto* remove = new QPushButton(tr("Remove"));
    m_errors = new QLabel;
    m_errors->setStyleSheet(QStringLiteral("color: #c0392b"));
    m_errors->setWordWrap(true);
    m_errors->hide();
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table, 1);
    layout->addWidget(m_errors);
    layout->addLayout(buttons);

    connect(add, &QPushButton::clicked, this, [this] {
        addRow(m_mode == Mode::Checks ? QJsonObject{{QStringLiteral("status"), QJsonArray{200}}}
                                      : QJsonObject{{QStringLiteral("name"), QStringLiteral("value")},
                                                    {QStringLiteral("jsonPath"), QStringLiteral("$.")}});
        Q_EMIT changed();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        const int row = m_table->currentRow();
        if (row < 0)
            return;
        m_table->removeRow(row);
        Q_EMIT changed();
    });
    connect(m_table, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (m_loading || item->column() == resultColumn())
            return;
        Q_EMIT changed();
    });
}

int ChecksTable::resultColumn() const
{
    return m_mode == Mode::Checks ? int(CResult) : int(XValue);
}

int ChecksTable::rowCount() const
{
    return m_table->rowCount();
}

QString ChecksTable::text(int row, int column) const
{
    if (auto* combo = qobject_cast<QComboBox*>(m_table->cellWidget(row, column)))
        return combo->currentData().toString();
    const QTableWidgetItem* item = m_table->item(row, column);
    return item ? item->text() : QString();
}

QString ChecksTable::resultText(int row) const
{
    return text(row, resultColumn());
}

void ChecksTable::addRow(const QJsonObject& rule)
{
    const bool checks = m_mode == Mode::Checks;
    m_loading = true;
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    for (int c = 0; c < m_table->columnCount(); ++c)
        m_table->setItem(row, c, new QTableWidgetItem);
    m_table->item(row, 0)->setText(rule.value(QStringLiteral("name")).toString());
    auto* kind = new QComboBox;
    QStringList kinds;
    if (checks)
        for (const char* k : kKinds)
            kinds << QString::fromLatin1(k);
    else
        for (const char* k : kSources)
            kinds << QString::fromLatin1(k);
    for (const QString& k : kinds)
        kind->addItem(kindLabel(k), k);
    QString which = QString::fromLatin1(checks ? kKinds[0] : kSources[0]);
    for (int i = 0; i < kind->count(); ++i)
        if (rule.contains(kind->itemData(i).toString()))
            which = kind->itemData(i).toString();
    kind->setCurrentIndex(kind->findData(which));
    m_table->setCellWidget(row, 1, kind);
    const QJsonValue expression = rule.value(which);
    m_table->item(row, CExpression)
        ->setText(which == QLatin1String("status")      ? statusText(expression.toArray())
                  : which == QLatin1String("maxTimeMs") ? QString::number(expression.toInt())
                                                        : expression.toString());
    if (checks) {
        auto* test = new QComboBox;
        for (const char* t : kTests)
            test->addItem(tr(t), QString::fromLatin1(t));
        const QString t =
            rule.contains(QStringLiteral("matches")) ? QStringLiteral("matches")
            : rule.contains(QStringLiteral("exists"))
                ? (rule.value(QStringLiteral("exists")).toBool() ? QStringLiteral("exists") : QStringLiteral("absent"))
                : QStringLiteral("equals");
        test->setCurrentIndex(test->findData(t));
        m_table->setCellWidget(row, CTest, test);
        m_table->item(row, CExpected)
            ->setText(rule.value(rule.contains(QStringLiteral("matches")) ? QStringLiteral("matches")
                                                                          : QStringLiteral("equals"))
                          .toString());
        QTableWidgetItem* negate = m_table->item(row, CNot);
        negate->setFlags(Qt::ItemIsUserCheckable | Qt::ItemIsEnabled | Qt::ItemIsSelectable);
        negate->setCheckState(rule.value(QStringLiteral("negate")).toBool() ? Qt::Checked : Qt::Unchecked);
        negate->setToolTip(tr("Turn the result over: the check passes when the condition does not hold"));
        connect(test, &QComboBox::currentIndexChanged, this, [this, row] {
            updateRow(row);
            Q_EMIT changed();
        });
    } else if (rule.contains(QStringLiteral("group"))) {
        m_table->item(row, XGroup)->setText(QString::number(rule.value(QStringLiteral("group")).toInt()));
    }
    m_table->item(row, resultColumn())->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    connect(kind, &QComboBox::currentIndexChanged, this, [this, row] {
        updateRow(row);
        Q_EMIT changed();
    });
    updateRow(row);
    m_loading = false;
}

// Cells that mean nothing for the row's kind are greyed out.
void ChecksTable::updateRow(int row)
{
    const QString kind = text(row, 1);
    auto enable = [&](int column, bool on) {
        if (QWidget* w = m_table->cellWidget(row, column))
            w->setEnabled(on);
        else if (QTableWidgetItem* item = m_table->item(row, column))
            item->setFlags(on ? (item->flags() | Qt::ItemIsEditable | Qt::ItemIsEnabled) : Qt::NoItemFlags);
    };
    if (m_mode == Mode::Checks) {
        const bool valueTest = kind == QLatin1String("jsonPath") || kind == QLatin1String("header");
        const QString test = text(row, CTest);
        enable(CTest, valueTest);
        enable(CExpected, valueTest && (test == QLatin1String("equals") || test == QLatin1String("matches")));
    } else {
        enable(XGroup, kind == QLatin1String("regex"));
    }
}

QJsonObject ChecksTable::ruleAt(int row) const
{
    QJsonObject o;
    const QString name = text(row, 0).trimmed();
    if (!name.isEmpty())
        o[QStringLiteral("name")] = name;
    const QString kind = text(row, 1);
    const QString expression = text(row, CExpression).trimmed();
    if (m_mode == Mode::Extract) {
        o[kind] = expression;
        const QString group = text(row, XGroup).trimmed();
        if (kind == QLatin1String("regex") && !group.isEmpty())
            o[QStringLiteral("group")] = group.toInt();
        return o;
    }
    if (kind == QLatin1String("status"))
        o[kind] = statusList(expression);
    else if (kind == QLatin1String("maxTimeMs"))
        o[kind] = expression.toInt();
    else
        o[kind] = expression;
    if (kind == QLatin1String("jsonPath") || kind == QLatin1String("header")) {
        const QString test = text(row, CTest);
        if (test == QLatin1String("exists") || test == QLatin1String("absent"))
            o[QStringLiteral("exists")] = test == QLatin1String("exists");
        else
            o[test] = text(row, CExpected);
    }
    if (m_table->item(row, CNot)->checkState() == Qt::Checked)
        o[QStringLiteral("negate")] = true;
    return o;
}

void ChecksTable::setRules(const QJsonArray& rules)
{
    m_table->setRowCount(0);
    for (const auto& r : rules)
        addRow(r.toObject());
    m_errors->hide();
}

QJsonArray ChecksTable::rules() const
{
    QJsonArray out;
    for (int row = 0; row < m_table->rowCount(); ++row)
        out.append(ruleAt(row));
    return out;
}

void ChecksTable::showResults(const CheckRun* run)
{
    m_loading = true;
    m_errors->setVisible(run && !run->errors.isEmpty());
    if (run)
        m_errors->setText(run->errors.join(QLatin1Char('\n')));
    for (int row = 0; row < m_table->rowCount(); ++row) {
        QTableWidgetItem* cell = m_table->item(row, resultColumn());
        cell->setText({});
        cell->setToolTip({});
        cell->setForeground(palette().text().color());
        if (!run || !run->errors.isEmpty())
            continue;
        if (m_mode == Mode::Checks && row < run->checks.size()) {
            const auto& c = run->checks[row];
            cell->setText(c.passed ? tr("pass") : tr("FAIL: %1").arg(c.why));
            cell->setToolTip(cell->text());
            cell->setForeground(c.passed ? QColor(0x1e, 0x84, 0x49) : QColor(0xc0, 0x39, 0x2b));
        } else if (m_mode == Mode::Extract && row < run->extracted.size()) {
            const auto& x = run->extracted[row];
            cell->setText(x.found ? x.value : tr("(not found)"));
            cell->setToolTip(cell->text());
            cell->setForeground(x.found ? palette().text().color() : QColor(0xc0, 0x39, 0x2b));
        }
    }
    m_loading = false;
}
