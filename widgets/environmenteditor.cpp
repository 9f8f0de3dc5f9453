#include "environmenteditor.h"

#include "keyvaluetable.h"

namespace {
// the payload's list of secret names (bundle/environment.h reads it too)
constexpr const char* kSecretsKey = "$secrets";
} // namespace

#include <QHBoxLayout>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QPushButton>
#include <QSet>
#include <QVBoxLayout>

EnvironmentEditor::EnvironmentEditor(QWidget* parent) : QWidget(parent)
{
    m_table = new KeyValueTable(tr("Variable"), tr("Value"));
    m_table->setObjectName(QStringLiteral("environmentValues"));
    m_table->enableSecrets();
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    auto* layout = new QVBoxLayout(this);
    auto* help = new QLabel(tr("Values for ${name} in URLs, headers and bodies when this environment is selected. "
                               "A run takes them too, under its scenario's data sets and generators and the values "
                               "its steps extract."));
    help->setWordWrap(true);
    auto* remove = new QPushButton(tr("Remove"));
    remove->setObjectName(QStringLiteral("removeVariable"));
    remove->setToolTip(tr("Remove the selected variables (Delete)"));
    connect(remove, &QPushButton::clicked, m_table, &KeyValueTable::removeSelectedRows);
    auto* bar = new QHBoxLayout;
    bar->addWidget(help, 1);
    bar->addWidget(remove, 0, Qt::AlignTop);
    layout->addLayout(bar);
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
    QSet<QString> secrets;
    for (const auto& n : o.value(QLatin1String(kSecretsKey)).toArray())
        secrets.insert(n.toString());
    for (auto it = o.begin(); it != o.end(); ++it)
        if (it.key() != QLatin1String(kSecretsKey))
            pairs.append({it.key(), it.value().toString()});
    m_table->setPairs(pairs);
    m_table->setSecrets(secrets);
    m_loading = false;
}

QByteArray EnvironmentEditor::json() const
{
    QJsonObject o;
    for (const auto& [n, v] : m_table->pairs())
        o[n] = v;
    QJsonArray secrets;
    for (const QString& n : m_table->secrets())
        if (o.contains(n))
            secrets.append(n);
    if (!secrets.isEmpty())
        o[QLatin1String(kSecretsKey)] = secrets;
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}
