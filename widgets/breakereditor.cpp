#include "breakereditor.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonArray>
#include <QLabel>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

enum Column
{
    Name,
    When,
    Window,
    InARow,
    Action,
    Step,
    Columns
};

// "warn", "stop", "degrade 50%" (or {"degrade": 50} as the JSON has it).
QString actionText(const QJsonValue& v)
{
    if (v.isObject())
        return QStringLiteral("degrade %1%").arg(v.toObject().value(QStringLiteral("degrade")).toDouble());
    return v.toString();
}

QJsonValue actionJson(const QString& text)
{
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("^degrade\\s*([0-9.]+)\\s*%?$")).match(text.trimmed());
    if (m.hasMatch())
        return QJsonObject{{QStringLiteral("degrade"), m.captured(1).toDouble()}};
    return text.trimmed(); // warn, stop, or what the check will name as wrong
}

} // namespace

BreakerEditor::BreakerEditor(QWidget* parent) : QWidget(parent)
{
    m_rules = new QTableWidget(0, Columns);
    m_rules->setObjectName(QStringLiteral("breakerRules"));
    m_rules->setHorizontalHeaderLabels(
        {tr("Name"), tr("Violation when"), tr("Window"), tr("In a row"), tr("Action"), tr("Step")});
    m_rules->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    m_rules->horizontalHeader()->setSectionResizeMode(When, QHeaderView::Stretch);
    m_rules->verticalHeader()->hide();
    m_rules->setMaximumHeight(110);
    m_rules->setToolTip(tr("Judged every second on all engines' data while the run goes on. Violation when: a "
                           "threshold expression such as p99 > 300ms, error_rate > 5%, server:db_cpu > 80. "
                           "Window: whole seconds (5s). In a row: violating windows that trip it. Action: warn, "
                           "stop, degrade 50% (never below a tenth of the plan), or rollback (stop, then the plan's "
                           "teardown and the command line's --rollback). Step: judge one step alone. A "
                           "violation may be judged against the scenario's history: p99 > baseline + 3 sigma."));
    m_cooldown = new QSpinBox;
    m_cooldown->setObjectName(QStringLiteral("breakerCooldown"));
    m_cooldown->setRange(1, 3600);
    m_cooldown->setValue(10);
    m_cooldown->setSuffix(tr(" s"));
    m_cooldown->setToolTip(tr("With recovery: seconds without a violation before a degraded load climbs back "
                              "by a quarter of the plan"));
    m_recover = new QCheckBox(tr("Recover after"));
    m_recover->setObjectName(QStringLiteral("breakerRecover"));
    m_escalate = new QCheckBox(tr("Levels"));
    m_escalate->setObjectName(QStringLiteral("breakerEscalate"));
    m_escalate->setToolTip(tr("Instead of each rule's own action, count the rules violated in the same second: "
                              "one warns, two degrade the load by half, three or more stop the run"));
    auto* add = new QPushButton(tr("Add rule"));
    auto* remove = new QPushButton(tr("Remove rule"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addStretch(1);
    buttons->addWidget(m_escalate);
    buttons->addWidget(m_recover);
    buttons->addWidget(m_cooldown);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_rules);
    layout->addLayout(buttons);
    connect(add, &QPushButton::clicked, this, [this] {
        addRule(tr("rule %1").arg(m_rules->rowCount() + 1), QStringLiteral("p99 > 300ms"), QStringLiteral("5s"), 3,
                QStringLiteral("stop"));
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_rules->currentRow() >= 0) {
            m_rules->removeRow(m_rules->currentRow());
            Q_EMIT changed();
        }
    });
    connect(m_rules, &QTableWidget::itemChanged, this, [this] {
        if (!m_loading)
            Q_EMIT changed();
    });
    connect(m_cooldown, &QSpinBox::valueChanged, this, [this] {
        if (!m_loading)
            Q_EMIT changed();
    });
    connect(m_recover, &QCheckBox::toggled, this, [this] {
        if (!m_loading)
            Q_EMIT changed();
    });
    connect(m_escalate, &QCheckBox::toggled, this, [this] {
        if (!m_loading)
            Q_EMIT changed();
    });
}

void BreakerEditor::addRule(const QString& name, const QString& when, const QString& window, int consecutive,
                            const QString& action, const QString& step)
{
    const bool loading = m_loading;
    m_loading = true;
    const int row = m_rules->rowCount();
    m_rules->insertRow(row);
    const QString cells[] = {name, when, window, QString::number(consecutive), action, step};
    for (int c = 0; c < Columns; ++c)
        m_rules->setItem(row, c, new QTableWidgetItem(cells[c]));
    m_loading = loading;
    if (!m_loading)
        Q_EMIT changed();
}

void BreakerEditor::fromJson(const QJsonObject& breaker)
{
    m_loading = true;
    m_rest = breaker;
    m_rules->setRowCount(0);
    for (const auto& v : breaker.value(QStringLiteral("rules")).toArray()) {
        const QJsonObject r = v.toObject();
        addRule(r.value(QStringLiteral("name")).toString(), r.value(QStringLiteral("when")).toString(),
                r.value(QStringLiteral("window")).toString(QStringLiteral("5s")),
                r.value(QStringLiteral("consecutive")).toInt(1), actionText(r.value(QStringLiteral("action"))),
                r.value(QStringLiteral("step")).toString());
    }
    const QString cooldown = breaker.value(QStringLiteral("cooldown")).toString(QStringLiteral("10s"));
    m_cooldown->setValue(std::max(1, int(QString(cooldown).remove(QLatin1Char('s')).toDouble())));
    m_recover->setChecked(breaker.value(QStringLiteral("recover")).toBool());
    m_escalate->setChecked(breaker.value(QStringLiteral("escalate")).toBool());
    m_loading = false;
}

QJsonObject BreakerEditor::toJson() const
{
    QJsonObject o = m_rest;
    QJsonArray rules;
    auto cell = [this](int row, int column) {
        const QTableWidgetItem* item = m_rules->item(row, column);
        return item ? item->text().trimmed() : QString();
    };
    for (int row = 0; row < m_rules->rowCount(); ++row) {
        QJsonObject r;
        if (!cell(row, Name).isEmpty())
            r[QStringLiteral("name")] = cell(row, Name);
        r[QStringLiteral("when")] = cell(row, When);
        if (!cell(row, Window).isEmpty())
            r[QStringLiteral("window")] = cell(row, Window);
        r[QStringLiteral("consecutive")] = std::max(1, cell(row, InARow).toInt());
        r[QStringLiteral("action")] = actionJson(cell(row, Action));
        if (!cell(row, Step).isEmpty())
            r[QStringLiteral("step")] = cell(row, Step);
        rules.append(r);
    }
    if (rules.isEmpty())
        o.remove(QStringLiteral("rules"));
    else
        o[QStringLiteral("rules")] = rules;
    if (m_recover->isChecked())
        o[QStringLiteral("recover")] = true;
    else
        o.remove(QStringLiteral("recover"));
    if (m_escalate->isChecked())
        o[QStringLiteral("escalate")] = true;
    else
        o.remove(QStringLiteral("escalate"));
    if (m_cooldown->value() != 10 || o.contains(QStringLiteral("cooldown")))
        o[QStringLiteral("cooldown")] = QStringLiteral("%1s").arg(m_cooldown->value());
    return o;
}
