#include "notifytable.h"

#include "enginetext.h"
#include "notifytest.h"

#include <QComboBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

constexpr int kUrl = 0, kKind = 1, kSecret = 2, kOn = 3;
const char* const kKinds[] = {"plain", "slack", "feishu", "dingtalk", "wecom"};

} // namespace

NotifyTable::NotifyTable(QWidget* parent) : QWidget(parent)
{
    m_table = new QTableWidget(0, 4);
    m_table->setObjectName(QStringLiteral("notifyTable"));
    m_table->setHorizontalHeaderLabels({tr("Webhook URL"), tr("Kind"), tr("Secret"), tr("When")});
    m_table->horizontalHeader()->setSectionResizeMode(kUrl, QHeaderView::Stretch);
    m_table->horizontalHeaderItem(kUrl)->setToolTip(
        tr("Where the run posts its messages: a robot's or a service's incoming webhook (http:// or https://); "
           "${name} takes a constant or the environment's value"));
    m_table->horizontalHeaderItem(kKind)->setToolTip(
        tr("The form the webhook takes: plain (the message as JSON), Slack, Feishu/Lark, DingTalk or WeCom"));
    m_table->horizontalHeaderItem(kSecret)->setToolTip(
        tr("Feishu and DingTalk: the robot's signing secret (its messages are signed with it). Write ${name} "
           "and keep the value as an environment's secret"));
    m_table->horizontalHeaderItem(kOn)->setToolTip(
        tr("When to post: start, breaker, threshold, end, joined by + (empty: all four)"));
    connect(m_table, &QTableWidget::itemChanged, this, [this] {
        if (!m_loading)
            Q_EMIT changed();
    });
    auto* add = new QPushButton(tr("Add webhook"));
    auto* remove = new QPushButton(tr("Remove"));
    m_test = new QPushButton(tr("Test"));
    m_test->setObjectName(QStringLiteral("notifyTest"));
    m_test->setToolTip(tr("Posts a test message to the chosen webhook now, as a run would"));
    m_result = new QLabel;
    m_result->setObjectName(QStringLiteral("notifyResult"));
    m_result->setWordWrap(true);
    m_result->setTextInteractionFlags(Qt::TextSelectableByMouse);
    connect(add, &QPushButton::clicked, this, [this] {
        addRow(QJsonObject{});
        m_table->setCurrentCell(m_table->rowCount() - 1, kUrl);
        Q_EMIT changed();
    });
    connect(remove, &QPushButton::clicked, this, [this] {
        if (m_table->currentRow() >= 0) {
            m_table->removeRow(m_table->currentRow());
            Q_EMIT changed();
        }
    });
    connect(m_test, &QPushButton::clicked, this, &NotifyTable::test);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(remove);
    buttons->addWidget(m_test);
    buttons->addWidget(m_result, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    layout->addLayout(buttons);
}

void NotifyTable::addRow(const QJsonObject& entry)
{
    const bool loading = m_loading;
    m_loading = true;
    const int row = m_table->rowCount();
    m_table->insertRow(row);
    m_table->setItem(row, kUrl, new QTableWidgetItem(entry.value(QStringLiteral("url")).toString()));
    auto* kind = new QComboBox;
    for (const char* k : kKinds)
        kind->addItem(QString::fromLatin1(k));
    const QString written = entry.value(QStringLiteral("kind")).toString(QStringLiteral("plain"));
    kind->setCurrentText(written == QLatin1String("lark") ? QStringLiteral("feishu") : written);
    connect(kind, &QComboBox::currentIndexChanged, this, [this] {
        if (!m_loading)
            Q_EMIT changed();
    });
    m_table->setCellWidget(row, kKind, kind);
    m_table->setItem(row, kSecret, new QTableWidgetItem(entry.value(QStringLiteral("secret")).toString()));
    QStringList on;
    for (const auto& v : entry.value(QStringLiteral("on")).toArray())
        on << v.toString();
    m_table->setItem(row, kOn, new QTableWidgetItem(on.join(u'+')));
    m_loading = loading;
}

void NotifyTable::fromJson(const QJsonArray& notify)
{
    m_loading = true;
    m_table->setRowCount(0);
    for (const auto& v : notify)
        addRow(v.toObject());
    m_loading = false;
}

QJsonArray NotifyTable::toJson() const
{
    QJsonArray out;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const auto text = [&](int column) {
            const QTableWidgetItem* item = m_table->item(row, column);
            return item ? item->text().trimmed() : QString();
        };
        QJsonObject o{{QStringLiteral("url"), text(kUrl)}};
        if (const auto* kind = qobject_cast<QComboBox*>(m_table->cellWidget(row, kKind));
            kind && kind->currentIndex() > 0)
            o[QStringLiteral("kind")] = kind->currentText();
        if (!text(kSecret).isEmpty())
            o[QStringLiteral("secret")] = text(kSecret);
        QJsonArray on;
        for (const QString& when : text(kOn).split(u'+', Qt::SkipEmptyParts))
            on.append(when.trimmed());
        if (!on.isEmpty())
            o[QStringLiteral("on")] = on;
        out.append(o);
    }
    return out;
}

QString NotifyTable::testResult() const
{
    return m_result->text();
}

void NotifyTable::test()
{
    const int row = m_table->currentRow() >= 0 ? m_table->currentRow() : 0;
    if (row >= m_table->rowCount() || !m_scenario) {
        m_result->setText(tr("Add a webhook first"));
        return;
    }
    m_testing = true;
    m_test->setEnabled(false);
    m_result->setText(tr("Posting a test message…"));
    const QByteArray scenario = m_scenario();
    const ScenarioCheck::EnvironmentChoice environments =
        m_environments ? m_environments() : ScenarioCheck::EnvironmentChoice{};
    m_jobs.start([scenario, row, environments] { return sendTestNotification(scenario, row, environments); },
                 [this](const NotifyTestResult& r) {
                     m_testing = false;
                     m_test->setEnabled(true);
                     m_result->setText(r.ok ? tr("Delivered (%1)").arg(r.said)
                                            : tr("Not delivered: %1").arg(engineText(r.said)));
                     m_result->setStyleSheet(r.ok ? QString() : QStringLiteral("color: #b00020"));
                 });
}
