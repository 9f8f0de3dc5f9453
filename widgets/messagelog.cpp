#include "messagelog.h"

#include "streamcells.h"

#include <QHeaderView>

MessageLog::MessageLog(const QString& tip, QWidget* parent) : QTableWidget(0, 3, parent)
{
    setHorizontalHeaderLabels({tr("Time"), QString(), tr("Message")});
    horizontalHeader()->setStretchLastSection(true);
    verticalHeader()->hide();
    setEditTriggers(QAbstractItemView::NoEditTriggers);
    setSelectionBehavior(QAbstractItemView::SelectRows);
    setToolTip(tip);
}

void MessageLog::show(const QList<SendAnswer::WsMessage>& messages)
{
    setRowCount(int(messages.size()));
    for (int i = 0; i < messages.size(); ++i) {
        const SendAnswer::WsMessage& m = messages[i];
        auto* way = new QTableWidgetItem(m.out ? QStringLiteral("↑") : QStringLiteral("↓"));
        way->setToolTip(m.out ? tr("sent") : tr("received"));
        way->setForeground(m.out ? QColor(0x1a, 0x73, 0xe8) : QColor(0x18, 0x80, 0x38));
        QString text = m.text;
        if (m.binary)
            text = tr("binary, %n byte(s): ", nullptr, int(m.size)) + text;
        auto* message = new QTableWidgetItem(text);
        message->setToolTip(text.left(2000));
        setItem(i, 0, timeCell(m.ms));
        setItem(i, 1, way);
        setItem(i, 2, message);
    }
    resizeColumnToContents(0);
    resizeColumnToContents(1);
}

QStringList MessageLog::lines() const
{
    QStringList out;
    for (int i = 0; i < rowCount(); ++i)
        out << item(i, 1)->text() + QLatin1Char(' ') + item(i, 0)->text() + QLatin1Char(' ') + item(i, 2)->text();
    return out;
}
