#include "replayform.h"

#include "replaysettings.h"

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QJsonArray>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
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
    const auto line = [this](const char* name, const QString& placeholder, const QString& tip) {
        auto* e = new QLineEdit;
        e->setObjectName(QString::fromLatin1(name));
        e->setPlaceholderText(placeholder);
        e->setToolTip(tip);
        connect(e, &QLineEdit::textEdited, this, &ReplayForm::edited);
        return e;
    };
    m_include = line("replayInclude", tr("every path, e.g. ^/api/"),
                     tr("Only requests whose path (before '?') this regular expression (PCRE2) matches"));
    m_exclude =
        line("replayExclude", tr("none, e.g. ^/static/"), tr("No request whose path this regular expression matches"));
    m_methods = line("replayMethods", tr("every method, e.g. GET, POST"), tr("Only these methods, by commas"));
    m_statuses = line("replayStatuses", tr("every status, e.g. 2xx, 404, 500-599"),
                      tr("Only requests whose recorded answer had one of these statuses, by commas"));
    m_sample = new QDoubleSpinBox;
    m_sample->setObjectName(QStringLiteral("replaySample"));
    m_sample->setRange(0.01, 100);
    m_sample->setValue(100);
    m_sample->setSuffix(QStringLiteral(" %"));
    m_sample->setToolTip(tr("This share of the requests selected, the same ones every run"));
    m_setHeaders = new QPlainTextEdit;
    m_setHeaders->setObjectName(QStringLiteral("replaySetHeaders"));
    m_setHeaders->setPlaceholderText(QStringLiteral("X-Env: staging"));
    m_setHeaders->setMaximumHeight(60);
    m_setHeaders->setToolTip(tr("One header per line, Name: value, set on every request (replacing a recorded one)"));
    m_removeHeaders = line("replayRemoveHeaders", tr("none, e.g. cookie, authorization"),
                           tr("Headers taken off every request, by commas"));
    m_host = line("replayHost", tr("as recorded"), tr("The Host header sent instead of the recorded one"));
    m_newTraceIds = new QCheckBox(tr("New trace ids (with trace context on)"));
    m_newTraceIds->setObjectName(QStringLiteral("replayNewTraceIds"));
    m_newTraceIds->setToolTip(tr("Off: a recorded traceparent's trace id is kept (copies get one derived from it). "
                                 "On: every request gets a new one."));

    auto* form = new QFormLayout(this);
    form->setContentsMargins(0, 0, 0, 0);
    form->addRow(tr("Traffic set:"), m_traffic);
    form->addRow(tr("Target:"), m_target);
    form->addRow(tr("Speed:"), m_speed);
    form->addRow(tr("Amplify:"), m_amplify);
    form->addRow(tr("Offsets:"), m_offsets);
    form->addRow(QString(), m_loop);
    form->addRow(tr("Only paths:"), m_include);
    form->addRow(tr("Not paths:"), m_exclude);
    form->addRow(tr("Methods:"), m_methods);
    form->addRow(tr("Recorded statuses:"), m_statuses);
    form->addRow(tr("Sample:"), m_sample);
    form->addRow(tr("Set headers:"), m_setHeaders);
    form->addRow(tr("Remove headers:"), m_removeHeaders);
    form->addRow(tr("Host:"), m_host);
    form->addRow(QString(), m_newTraceIds);

    connect(m_target, &QLineEdit::textEdited, this, &ReplayForm::edited);
    connect(m_offsets, &QLineEdit::textEdited, this, &ReplayForm::edited);
    connect(m_speed, &QDoubleSpinBox::valueChanged, this, &ReplayForm::edited);
    connect(m_amplify, &QSpinBox::valueChanged, this, &ReplayForm::edited);
    connect(m_loop, &QCheckBox::toggled, this, &ReplayForm::edited);
    connect(m_sample, &QDoubleSpinBox::valueChanged, this, &ReplayForm::edited);
    connect(m_setHeaders, &QPlainTextEdit::textChanged, this, &ReplayForm::edited);
    connect(m_newTraceIds, &QCheckBox::toggled, this, &ReplayForm::edited);
}

namespace {

QString joined(const QJsonValue& list)
{
    QStringList out;
    for (const auto& v : list.toArray())
        out << v.toString();
    return out.join(QStringLiteral(", "));
}

// "a, b ,c" as ["a", "b", "c"]; set (or removed when empty) in `r` under `key`.
void setList(QJsonObject& r, const char* key, const QString& text)
{
    QJsonArray list;
    for (const QString& part : text.split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty())
            list.append(part.trimmed());
    if (list.isEmpty())
        r.remove(QLatin1String(key));
    else
        r[QLatin1String(key)] = list;
}

void setText(QJsonObject& r, const char* key, const QString& text)
{
    if (text.trimmed().isEmpty())
        r.remove(QLatin1String(key));
    else
        r[QLatin1String(key)] = text.trimmed();
}

} // namespace

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
    m_include->setText(replay.value(QStringLiteral("includePath")).toString());
    m_exclude->setText(replay.value(QStringLiteral("excludePath")).toString());
    m_methods->setText(joined(replay.value(QStringLiteral("methods"))));
    m_statuses->setText(joined(replay.value(QStringLiteral("statuses"))));
    m_sample->setValue(replay.value(QStringLiteral("sample")).toDouble(100));
    QStringList headers;
    const QJsonObject given = replay.value(QStringLiteral("setHeaders")).toObject();
    for (auto it = given.begin(); it != given.end(); ++it)
        headers << it.key() + QStringLiteral(": ") + it.value().toString();
    m_setHeaders->setPlainText(headers.join(QLatin1Char('\n')));
    m_removeHeaders->setText(joined(replay.value(QStringLiteral("removeHeaders"))));
    m_host->setText(replay.value(QStringLiteral("rewriteHost")).toString());
    m_newTraceIds->setChecked(replay.value(QStringLiteral("newTraceIds")).toBool());
    m_offsetsProblem.clear();
    m_headersProblem.clear();
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
    setText(r, "includePath", m_include->text());
    setText(r, "excludePath", m_exclude->text());
    setList(r, "methods", m_methods->text());
    setList(r, "statuses", m_statuses->text());
    setList(r, "removeHeaders", m_removeHeaders->text());
    setText(r, "rewriteHost", m_host->text());
    if (m_sample->value() < 100)
        r[QStringLiteral("sample")] = m_sample->value();
    else
        r.remove(QStringLiteral("sample"));
    QJsonObject headers; // a line without a colon is the engine's to name (its check says which)
    for (const QString& lineText : m_setHeaders->toPlainText().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const qsizetype colon = lineText.indexOf(QLatin1Char(':'));
        if (colon > 0)
            headers[lineText.left(colon).trimmed()] = lineText.mid(colon + 1).trimmed();
    }
    if (headers.isEmpty())
        r.remove(QStringLiteral("setHeaders"));
    else
        r[QStringLiteral("setHeaders")] = headers;
    if (m_newTraceIds->isChecked())
        r[QStringLiteral("newTraceIds")] = true;
    else
        r.remove(QStringLiteral("newTraceIds"));
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
    m_headersProblem.clear();
    const QStringList lines = m_setHeaders->toPlainText().split(QLatin1Char('\n'));
    for (int i = 0; i < lines.size() && m_headersProblem.isEmpty(); ++i)
        if (!lines[i].trimmed().isEmpty() && lines[i].indexOf(QLatin1Char(':')) <= 0)
            m_headersProblem = tr("Set headers: line %1 is not \"Name: value\"").arg(i + 1);
    m_setHeaders->setStyleSheet(m_headersProblem.isEmpty() ? QString() : QStringLiteral("border: 1px solid #c0392b;"));
    m_offsets->setStyleSheet(m_offsetsProblem.isEmpty() ? QString() : QStringLiteral("border: 1px solid #c0392b;"));
    m_offsets->setToolTip(m_offsetsProblem.isEmpty() ? m_offsets->property("helpTip").toString() : m_offsetsProblem);
    Q_EMIT changed();
}
