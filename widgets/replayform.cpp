#include "replayform.h"

#include "replaysettings.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

ReplayForm::ReplayForm(QWidget* parent) : QWidget(parent)
{
    m_traffic = new QLabel;
    m_traffic->setObjectName(QStringLiteral("replayTraffic"));
    m_target = new QLineEdit;
    m_target->setObjectName(QStringLiteral("replayTarget"));
    m_target->setPlaceholderText(QStringLiteral("http://127.0.0.1:8080"));
    m_target->setToolTip(tr("The server the recorded requests go to: http(s)://host:port. Each request keeps its "
                            "recorded path, headers and body."));
    m_speed = new QDoubleSpinBox;
    m_speed->setObjectName(QStringLiteral("replaySpeed"));
    m_speed->setRange(0.01, 1000);
    m_speed->setDecimals(2);
    m_speed->setValue(1);
    m_speed->setPrefix(QStringLiteral("× "));
    m_speed->setToolTip(tr("2 replays twice as fast: the recording's time is compressed, its requests per second "
                           "doubled"));
    m_amplify = new QSpinBox;
    m_amplify->setObjectName(QStringLiteral("replayAmplify"));
    m_amplify->setRange(1, 100);
    m_amplify->setPrefix(QStringLiteral("× "));
    m_amplify->setToolTip(tr("Each request is sent this many times; copies after the first take the offsets so "
                             "that they do not collide"));
    m_offsets = new QLineEdit;
    m_offsets->setObjectName(QStringLiteral("replayOffsets"));
    m_offsets->setPlaceholderText(QStringLiteral("query:uid+1000000, json:orderNo~-${copy}"));
    m_offsets->setToolTip(tr("How a copy is told apart, separated by commas: query:NAME+N adds N × the copy's "
                             "number to a query parameter (json:KEY+N, header:NAME+N likewise); FIELD:NAME~SUFFIX "
                             "appends SUFFIX, where ${copy} is the copy's number"));
    m_offsets->setProperty("helpTip", m_offsets->toolTip());
    m_loop = new QCheckBox(tr("Start over at the end, until the scenario's duration"));
    m_loop->setObjectName(QStringLiteral("replayLoop"));

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Traffic set:"), m_traffic);
    form->addRow(tr("Target:"), m_target);
    form->addRow(tr("Speed:"), m_speed);
    form->addRow(tr("Amplify:"), m_amplify);
    form->addRow(tr("Offsets:"), m_offsets);
    form->addRow(QString(), m_loop);

    connect(m_target, &QLineEdit::textEdited, this, &ReplayForm::edited);
    connect(m_offsets, &QLineEdit::textEdited, this, &ReplayForm::edited);
    connect(m_speed, &QDoubleSpinBox::valueChanged, this, &ReplayForm::edited);
    connect(m_amplify, &QSpinBox::valueChanged, this, &ReplayForm::edited);
    connect(m_loop, &QCheckBox::toggled, this, &ReplayForm::edited);
}

void ReplayForm::setReplay(const QJsonObject& replay)
{
    m_loading = true;
    m_replay = replay;
    const QString set = replay.value(QStringLiteral("traffic")).toString();
    m_traffic->setText(!set.isEmpty() ? set : replay.value(QStringLiteral("file")).toString());
    m_target->setText(replay.value(QStringLiteral("target")).toString());
    m_speed->setValue(replay.value(QStringLiteral("speed")).toDouble(1));
    m_amplify->setValue(replay.value(QStringLiteral("amplify")).toInt(1));
    m_offsets->setText(ReplaySettings::offsetsToText(replay.value(QStringLiteral("offsets")).toArray()));
    m_loop->setChecked(replay.value(QStringLiteral("loop")).toBool());
    m_offsetsProblem.clear();
    m_loading = false;
}

QJsonObject ReplayForm::replay() const
{
    QJsonObject r = m_replay;
    r[QStringLiteral("target")] = m_target->text().trimmed();
    r[QStringLiteral("speed")] = m_speed->value();
    if (m_amplify->value() > 1)
        r[QStringLiteral("amplify")] = m_amplify->value();
    else
        r.remove(QStringLiteral("amplify"));
    QJsonArray offsets;
    QString problem;
    if (ReplaySettings::offsetsFromText(m_offsets->text(), offsets, problem) && !offsets.isEmpty())
        r[QStringLiteral("offsets")] = offsets;
    else if (problem.isEmpty())
        r.remove(QStringLiteral("offsets"));
    if (m_loop->isChecked())
        r[QStringLiteral("loop")] = true;
    else
        r.remove(QStringLiteral("loop"));
    return r;
}

void ReplayForm::edited()
{
    if (m_loading)
        return;
    QJsonArray ignored;
    m_offsetsProblem.clear();
    if (!ReplaySettings::offsetsFromText(m_offsets->text(), ignored, m_offsetsProblem))
        m_offsetsProblem = tr("Offsets: %1").arg(m_offsetsProblem);
    m_offsets->setStyleSheet(m_offsetsProblem.isEmpty() ? QString() : QStringLiteral("border: 1px solid #c0392b;"));
    m_offsets->setToolTip(m_offsetsProblem.isEmpty() ? m_offsets->property("helpTip").toString() : m_offsetsProblem);
    Q_EMIT changed();
}
