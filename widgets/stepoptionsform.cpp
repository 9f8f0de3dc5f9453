#include "stepoptionsform.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>

namespace {

const char* const kActions[] = {"nextIteration", "continue", "stopUser", "stopRun"};

// "1.5s", "250ms" (the scenario file's durations) in milliseconds; `fallback` for anything else.
int toMillis(const QJsonValue& v, int fallback)
{
    QString s = v.toString().trimmed();
    bool ok = false;
    if (s.endsWith(QLatin1String("ms"))) {
        const double ms = s.chopped(2).toDouble(&ok);
        return ok ? int(ms) : fallback;
    }
    if (s.endsWith(QLatin1Char('s'))) {
        const double sec = s.chopped(1).toDouble(&ok);
        return ok ? int(sec * 1000) : fallback;
    }
    return fallback;
}

QString fromMillis(int ms)
{
    if (ms % 1000 == 0)
        return QString::number(ms / 1000) + QLatin1Char('s');
    return QString::number(ms) + QLatin1String("ms");
}

} // namespace

StepOptionsForm::StepOptionsForm(QWidget* parent) : QWidget(parent)
{
    m_group = new QLineEdit;
    m_group->setPlaceholderText(tr("none"));
    m_group->setToolTip(tr("A transaction: the neighbouring steps of one group are also timed together, per "
                           "iteration, from the first one's start to the last one's end"));
    m_repeat = new QSpinBox;
    m_repeat->setRange(1, 1000);
    m_repeat->setToolTip(tr("How many times in a row the step is sent in each iteration"));
    m_onError = new QComboBox;
    m_onError->addItem(tr("end the iteration"));
    m_onError->addItem(tr("go on with the next step"));
    m_onError->addItem(tr("stop this user"));
    m_onError->addItem(tr("stop the run"));
    m_onError->setToolTip(tr("What an error of this step does: a failed check, a transport error, or a status of "
                             "400 or more that no status check accepts"));
    m_retries = new QSpinBox;
    m_retries->setRange(0, 10);
    m_retries->setSpecialValueText(tr("no retry"));
    m_retries->setSuffix(tr(" times"));
    m_retries->setToolTip(tr("An error is tried again this many more times; only the last try counts, the others "
                             "are counted as retries"));
    m_backoffMs = new QSpinBox;
    m_backoffMs->setRange(0, 3600000);
    m_backoffMs->setSuffix(tr(" ms"));
    m_backoffMs->setToolTip(tr("The wait before each retry"));
    m_rendezvousUsers = new QSpinBox;
    m_rendezvousUsers->setRange(0, 1000000);
    m_rendezvousUsers->setSpecialValueText(tr("none"));
    m_rendezvousUsers->setSuffix(tr(" users"));
    m_rendezvousUsers->setToolTip(tr("A rendezvous: users wait at this step until this many have arrived on every "
                                     "engine together, then all go at once (a flash sale's second)"));
    m_rendezvousTimeoutMs = new QSpinBox;
    m_rendezvousTimeoutMs->setRange(1, 3600000);
    m_rendezvousTimeoutMs->setValue(5000);
    m_rendezvousTimeoutMs->setSuffix(tr(" ms"));
    m_rendezvousTimeoutMs->setToolTip(tr("The users waiting go anyway when the first of them has waited this long"));

    m_group->setObjectName(QStringLiteral("stepGroup"));
    m_repeat->setObjectName(QStringLiteral("stepRepeat"));
    m_onError->setObjectName(QStringLiteral("stepOnError"));
    m_retries->setObjectName(QStringLiteral("stepRetries"));
    m_backoffMs->setObjectName(QStringLiteral("stepBackoff"));
    m_rendezvousUsers->setObjectName(QStringLiteral("stepRendezvousUsers"));
    m_rendezvousTimeoutMs->setObjectName(QStringLiteral("stepRendezvousTimeout"));

    auto* retry = new QHBoxLayout;
    retry->addWidget(m_retries);
    retry->addWidget(new QLabel(tr("backoff")));
    retry->addWidget(m_backoffMs);
    retry->addStretch(1);
    auto* rendezvous = new QHBoxLayout;
    rendezvous->addWidget(m_rendezvousUsers);
    rendezvous->addWidget(new QLabel(tr("at most")));
    rendezvous->addWidget(m_rendezvousTimeoutMs);
    rendezvous->addStretch(1);
    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Group:"), m_group);
    form->addRow(tr("Repeat:"), m_repeat);
    form->addRow(tr("On error:"), m_onError);
    form->addRow(tr("Retry:"), retry);
    form->addRow(tr("Rendezvous:"), rendezvous);

    auto emitChanged = [this] {
        if (!m_loading)
            emit changed();
    };
    connect(m_group, &QLineEdit::textEdited, this, emitChanged);
    for (QSpinBox* s : {m_repeat, m_retries, m_backoffMs, m_rendezvousUsers, m_rendezvousTimeoutMs})
        connect(s, &QSpinBox::valueChanged, this, emitChanged);
    connect(m_onError, &QComboBox::currentIndexChanged, this, emitChanged);
    setStep({});
}

void StepOptionsForm::setStep(const QJsonObject& step)
{
    m_loading = true;
    setEnabled(!step.isEmpty() && !step.contains(QStringLiteral("replay")));
    m_group->setText(step.value(QStringLiteral("group")).toString());
    m_repeat->setValue(std::max(1, step.value(QStringLiteral("repeat")).toInt(1)));
    int action = 0;
    for (int i = 0; i < 4; ++i)
        if (step.value(QStringLiteral("onError")).toString() == QLatin1String(kActions[i]))
            action = i;
    m_onError->setCurrentIndex(action);
    const QJsonObject retry = step.value(QStringLiteral("retry")).toObject();
    m_retries->setValue(retry.value(QStringLiteral("times")).toInt(0));
    m_backoffMs->setValue(toMillis(retry.value(QStringLiteral("backoff")), 0));
    const QJsonObject rv = step.value(QStringLiteral("rendezvous")).toObject();
    m_rendezvousUsers->setValue(rv.value(QStringLiteral("users")).toInt(0));
    m_rendezvousTimeoutMs->setValue(toMillis(rv.value(QStringLiteral("timeout")), 5000));
    m_loading = false;
}

QJsonObject StepOptionsForm::applyTo(QJsonObject step) const
{
    const QString group = m_group->text().trimmed();
    if (group.isEmpty())
        step.remove(QStringLiteral("group"));
    else
        step[QStringLiteral("group")] = group;
    if (m_repeat->value() > 1)
        step[QStringLiteral("repeat")] = m_repeat->value();
    else
        step.remove(QStringLiteral("repeat"));
    if (m_onError->currentIndex() > 0)
        step[QStringLiteral("onError")] = QLatin1String(kActions[m_onError->currentIndex()]);
    else
        step.remove(QStringLiteral("onError"));
    if (m_retries->value() > 0) {
        QJsonObject retry{{QStringLiteral("times"), m_retries->value()}};
        if (m_backoffMs->value() > 0)
            retry[QStringLiteral("backoff")] = fromMillis(m_backoffMs->value());
        step[QStringLiteral("retry")] = retry;
    } else {
        step.remove(QStringLiteral("retry"));
    }
    if (m_rendezvousUsers->value() > 0)
        step[QStringLiteral("rendezvous")] =
            QJsonObject{{QStringLiteral("users"), m_rendezvousUsers->value()},
                        {QStringLiteral("timeout"), fromMillis(m_rendezvousTimeoutMs->value())}};
    else
        step.remove(QStringLiteral("rendezvous"));
    return step;
}

QString StepOptionsForm::summary(const QJsonObject& step)
{
    QStringList parts;
    if (const QString g = step.value(QStringLiteral("group")).toString(); !g.isEmpty())
        parts << tr("group %1").arg(g);
    if (const int n = step.value(QStringLiteral("repeat")).toInt(1); n > 1)
        parts << tr("×%1").arg(n);
    if (const int n = step.value(QStringLiteral("rendezvous")).toObject().value(QStringLiteral("users")).toInt(); n > 0)
        parts << tr("rendezvous of %1").arg(n);
    if (const int n = step.value(QStringLiteral("retry")).toObject().value(QStringLiteral("times")).toInt(); n > 0)
        parts << tr("retry %1").arg(n);
    const QString action = step.value(QStringLiteral("onError")).toString();
    if (action == QLatin1String("continue"))
        parts << tr("on error: go on");
    else if (action == QLatin1String("stopUser"))
        parts << tr("on error: stop the user");
    else if (action == QLatin1String("stopRun"))
        parts << tr("on error: stop the run");
    return parts.isEmpty() ? QString() : QStringLiteral("   [") + parts.join(QStringLiteral(" · ")) + QLatin1Char(']');
}
