#include "environmenteditor.h"

#include "keyvaluetable.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QVBoxLayout>

EnvironmentEditor::EnvironmentEditor(QWidget* parent) : QWidget(parent)
{
    m_table = new KeyValueTable(tr("Variable"), tr("Value"));
    auto* layout = new QVBoxLayout(this);
    auto* help = new QLabel(tr("Values for ${name} in URLs, headers and bodies when this environment is selected."));
    help->setWordWrap(true);
    layout->addWidget(help);
    layout->addWidget(m_table, 1);
    connect(m_table, &KeyValueTable::pairsChanged, this, [this] {
        if (!m_loading)
            Q_EMIT changed(json());
    });
}

void EnvironmentEditor::setJson(const QByteArray& payload)
{
    m_loading = true;
    QList<QPair<QString, QString>> pairs;
    const QJsonObject o = QJsonDocument::fromJson(payload).object();
    for (auto it = o.begin(); it != o.end(); ++it)
        pairs.append({it.key(), it.value().toString()});
    m_table->setPairs(pairs);
    m_loading = false;
}

QByteArray EnvironmentEditor::json() const
{
    QJsonObject o;
    for (const auto& [n, v] : m_table->pairs())
        o[n] = v;
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
