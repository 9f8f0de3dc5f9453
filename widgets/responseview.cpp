#include "responseview.h"

#include "keyvaluetable.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QTabWidget>
#include <QVBoxLayout>

ResponseView ResponseView::make(const QString& bodyTab)
{
    ResponseView v;
    v.status = new QLabel(tr("No response yet. Press Send (Ctrl+Enter)."));
    v.status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    v.status->setWordWrap(true);
    v.body = new QPlainTextEdit;
    v.body->setReadOnly(true);
    v.tabs = new QTabWidget;
    v.tabs->addTab(v.body, bodyTab);
    v.headers = v.addTable(tr("Response headers"), tr("Header"));
    v.headers->setObjectName(QStringLiteral("responseHeaders"));
    v.widget = new QWidget;
    auto* layout = new QVBoxLayout(v.widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(v.status);
    layout->addWidget(v.tabs, 1);
    return v;
}

KeyValueTable* ResponseView::addTable(const QString& tab, const QString& nameLabel)
{
    auto* table = new KeyValueTable(nameLabel, tr("Value"));
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    tabs->addTab(table, tab);
    return table;
}
