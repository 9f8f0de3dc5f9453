#include "scenariocheck.h"

#include "output/notify.h"
#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include "bundle/bundlefile.h"
#include "bundle/environment.h"
#include "bundle/projectscenario.h"
#include "core/template.h"
#include "plan/checkplan.h"
#include "plan/scenarioplan.h"
#include "plan/testplan.h"
#include "resolve/scriptsyntax.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/scenario.pb.h"

#include <QSaveFile>

#include <google/protobuf/util/json_util.h>

#include <optional>

namespace {

stampede::PlanOptions checkOptions(const QString& baseDir, const ScenarioCheck::TrafficSource& traffic)
{
    stampede::PlanOptions options;
    options.baseDir = baseDir.toStdString();
    if (traffic)
        options.trafficSet = [traffic](const std::string& name) {
            return traffic(QString::fromStdString(name)).toStdString();
        };
    return options;
}

// The current environment, as the engine reads it (null when none is chosen or it does not read).
std::optional<stampede::v1::Environment> currentEnvironment(const ScenarioCheck::EnvironmentChoice& c)
{
    for (const auto& [name, payload] : c.environments) {
        if (name != c.current || c.current.isEmpty())
            continue;
        stampede::v1::Environment e;
        std::string error;
        if (stampede::environmentFromJson(name.toStdString(), payload.toStdString(), e, error))
            return e;
    }
    return std::nullopt;
}

} // namespace

ScenarioCheck::Result ScenarioCheck::check(const QByteArray& scenarioJson, const QString& baseDir,
                                           const TrafficSource& traffic, const EnvironmentChoice& environments)
{
    Result out;
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), s, error)) {
        out.problems.append(parseFault(QString::fromStdString(error)));
        return out;
    }
    if (const auto env = currentEnvironment(environments))
        stampede::applyEnvironment(s, *env);
    std::vector<stampede::PlanError> errors;
    const auto plan = stampede::compileScenario(s, checkOptions(baseDir, traffic), errors);
    stampede::checkScriptSyntax(s, errors); // a script's syntax: SpiderMonkey's parser, beside the compile
    for (const auto& e : errors)
        out.problems.append({QString::fromStdString(e.field), QString::fromStdString(e.message)});
    if (std::vector<stampede::NotifyTarget> targets; !stampede::scenarioNotifyTargets(s, targets, error)) {
        const QString fault = QString::fromStdString(error); // "notify[0].url: unknown variable ${x}"
        const qsizetype colon = fault.indexOf(QStringLiteral(": "));
        out.problems.append({fault.left(colon), fault.mid(colon + 2)});
    }
    if (plan)
        for (const auto& w : stampede::flowWarnings(*plan))
            out.warnings << QString::fromStdString(w.text());
    return out;
}

QPair<QString, QString> ScenarioCheck::parseFault(const QString& error)
{
    static const QRegularExpression invalid(QStringLiteral("^\\(([^)]*)\\): invalid value (.*) for type (\\S+)$"),
                                            QRegularExpression::DotMatchesEverythingOption);
    static const QRegularExpression unknown(QStringLiteral("^\\(([^)]*)\\) (\\S+): Cannot find field\\.?$"));
    if (const auto m = invalid.match(error); m.hasMatch()) {
        const QString field = m.captured(1), value = m.captured(2), type = m.captured(3);
        const QString shown = value.startsWith(u'"') ? value : QStringLiteral("\"%1\"").arg(value.left(40));
        QString why;
        if (type.endsWith(QLatin1String("Duration")))
            why = QStringLiteral("not a time such as 300ms or 1.5s");
        else if (type.contains(QLatin1String("INT")))
            why = QStringLiteral("%1 is not a whole number").arg(shown);
        else if (type.contains(QLatin1String("DOUBLE")) || type.contains(QLatin1String("FLOAT")))
            why = QStringLiteral("%1 is not a number").arg(shown);
        else if (type.endsWith(QLatin1String("ListValue")))
            why = QStringLiteral("not a list such as [200, 201]");
        else if (type.contains(QLatin1String("BOOL")))
            why = QStringLiteral("%1 is not true or false").arg(shown);
        else if (type.contains(QLatin1String("ENUM")) || type.contains(QLatin1String("Stage")))
            why = QStringLiteral("%1 is not one of the values this field takes").arg(shown);
        else
            why = QStringLiteral("%1 is not a value this field takes").arg(shown);
        return {field, why};
    }
    if (const auto m = unknown.match(error); m.hasMatch())
        return {m.captured(1), QStringLiteral("no field named \"%1\" here").arg(m.captured(2))};
    static const QRegularExpression unknownAtTop(QStringLiteral("^(\\S+): Cannot find field\\.?$")); // the file's own
    if (const auto m = unknownAtTop.match(error); m.hasMatch())
        return {QString(), QStringLiteral("no field named \"%1\" here").arg(m.captured(1))};
    return {QString(), error};
}

QString ScenarioCheck::fieldLabel(const QString& path, const QByteArray& scenarioJson)
{
    static const QRegularExpression indexed(QStringLiteral("^([A-Za-z]+)\\[(\\d+)\\](?:\\.(.*))?$"));
    const QJsonObject scenario = QJsonDocument::fromJson(scenarioJson).object();
    const auto part = [](const QString& rest) -> QString {
        static const QList<QPair<QString, const char*>> labels{
            {QStringLiteral("request.url"), QT_TRANSLATE_NOOP("FieldLabel", "URL")},
            {QStringLiteral("request.method"), QT_TRANSLATE_NOOP("FieldLabel", "method")},
            {QStringLiteral("request.headers"), QT_TRANSLATE_NOOP("FieldLabel", "headers")},
            {QStringLiteral("request.body"), QT_TRANSLATE_NOOP("FieldLabel", "body")},
            {QStringLiteral("request.timeout"), QT_TRANSLATE_NOOP("FieldLabel", "timeout")},
            {QStringLiteral("request"), QT_TRANSLATE_NOOP("FieldLabel", "request")},
            {QStringLiteral("thinkTime"), QT_TRANSLATE_NOOP("FieldLabel", "think time")},
            {QStringLiteral("think_time"), QT_TRANSLATE_NOOP("FieldLabel", "think time")},
            {QStringLiteral("checks"), QT_TRANSLATE_NOOP("FieldLabel", "checks")},
            {QStringLiteral("extract"), QT_TRANSLATE_NOOP("FieldLabel", "extraction")},
            {QStringLiteral("testScript"), QT_TRANSLATE_NOOP("FieldLabel", "test script")},
            {QStringLiteral("preRequestScript"), QT_TRANSLATE_NOOP("FieldLabel", "pre-request script")},
            {QStringLiteral("replay.target"), QT_TRANSLATE_NOOP("FieldLabel", "replay target")},
            {QStringLiteral("replay"), QT_TRANSLATE_NOOP("FieldLabel", "replay")},
            {QStringLiteral("open.rate"), QT_TRANSLATE_NOOP("FieldLabel", "rate")},
            {QStringLiteral("closed.users"), QT_TRANSLATE_NOOP("FieldLabel", "users")},
            {QStringLiteral("closed.thinkTime"), QT_TRANSLATE_NOOP("FieldLabel", "think time")},
            {QStringLiteral("closed.think_time"), QT_TRANSLATE_NOOP("FieldLabel", "think time")},
            {QStringLiteral("target"), QT_TRANSLATE_NOOP("FieldLabel", "target")},
            {QStringLiteral("duration"), QT_TRANSLATE_NOOP("FieldLabel", "duration")},
            {QStringLiteral("expr"), QT_TRANSLATE_NOOP("FieldLabel", "expression")},
            {QStringLiteral("csv.file"), QT_TRANSLATE_NOOP("FieldLabel", "CSV file")},
            {QStringLiteral("rendezvous"), QT_TRANSLATE_NOOP("FieldLabel", "rendezvous")},
            {QStringLiteral("grpc.data"), QT_TRANSLATE_NOOP("FieldLabel", "message")},
            {QStringLiteral("grpc"), QT_TRANSLATE_NOOP("FieldLabel", "gRPC call")},
            {QStringLiteral("csv"), QT_TRANSLATE_NOOP("FieldLabel", "CSV")},
        };
        for (const auto& [prefix, label] : labels)
            if (rest == prefix || rest.startsWith(prefix + u'.') || rest.startsWith(prefix + u'['))
                return QCoreApplication::translate("FieldLabel", label);
        return rest;
    };
    const auto joined = [&](const QString& what, const QString& rest) {
        return rest.isEmpty() ? what : what + QStringLiteral(" · ") + part(rest);
    };
    if (const auto m = indexed.match(path); m.hasMatch()) {
        const QString list = m.captured(1), rest = m.captured(3);
        const int i = m.captured(2).toInt();
        const QJsonObject item = scenario.value(list).toArray().at(i).toObject();
        if (list == QLatin1String("steps")) {
            const QString name = item.value(QStringLiteral("name")).toString();
            const QString what = name.isEmpty() ? QCoreApplication::translate("FieldLabel", "Step %1").arg(i + 1)
                                                : QCoreApplication::translate("FieldLabel", "Step \"%1\"").arg(name);
            return joined(what, rest);
        }
        if (list == QLatin1String("thresholds")) {
            const QString expr = item.value(QStringLiteral("expr")).toString();
            return expr.isEmpty() ? QCoreApplication::translate("FieldLabel", "Threshold %1").arg(i + 1)
                                  : QCoreApplication::translate("FieldLabel", "Threshold \"%1\"").arg(expr);
        }
        if (list == QLatin1String("variables")) {
            const QString name = item.value(QStringLiteral("name")).toString();
            return joined(name.isEmpty() ? QCoreApplication::translate("FieldLabel", "Variable %1").arg(i + 1)
                                         : QCoreApplication::translate("FieldLabel", "Variable \"%1\"").arg(name),
                          rest);
        }
        if (list == QLatin1String("notify")) // the Notifications tab's row
            return QCoreApplication::translate("FieldLabel", "Notifications · webhook %1").arg(i + 1);
        if (list == QLatin1String("scenarios")) {
            const QString name = item.value(QStringLiteral("name")).toString();
            return joined(QCoreApplication::translate("FieldLabel", "Scenario \"%1\"").arg(name), rest);
        }
        return path;
    }
    if (path.startsWith(QLatin1String("load.stages["))) {
        static const QRegularExpression stage(QStringLiteral("^load\\.stages\\[(\\d+)\\](?:\\.(.*))?$"));
        if (const auto m = stage.match(path); m.hasMatch())
            return joined(QCoreApplication::translate("FieldLabel", "Load · stage %1").arg(m.captured(1).toInt() + 1),
                          m.captured(2));
    }
    if (path == QLatin1String("load") || path.startsWith(QLatin1String("load.")))
        return joined(QCoreApplication::translate("FieldLabel", "Load"), path.mid(5));
    static const QList<QPair<QString, const char*>> top{
        {QStringLiteral("duration"), QT_TRANSLATE_NOOP("FieldLabel", "Duration")},
        {QStringLiteral("connections"), QT_TRANSLATE_NOOP("FieldLabel", "Connections")},
        {QStringLiteral("streams"), QT_TRANSLATE_NOOP("FieldLabel", "Streams per connection")},
        {QStringLiteral("tls"), QT_TRANSLATE_NOOP("FieldLabel", "TLS")},
        {QStringLiteral("stressTag"), QT_TRANSLATE_NOOP("FieldLabel", "Stress tag")},
        {QStringLiteral("breaker"), QT_TRANSLATE_NOOP("FieldLabel", "Breaker")},
        {QStringLiteral("schedule"), QT_TRANSLATE_NOOP("FieldLabel", "Schedule")},
        {QStringLiteral("name"), QT_TRANSLATE_NOOP("FieldLabel", "Name")},
        {QStringLiteral("steps"), QT_TRANSLATE_NOOP("FieldLabel", "Steps")},
        {QStringLiteral("variables"), QT_TRANSLATE_NOOP("FieldLabel", "Variables")},
        {QStringLiteral("thresholds"), QT_TRANSLATE_NOOP("FieldLabel", "Thresholds")},
        {QStringLiteral("notify"), QT_TRANSLATE_NOOP("FieldLabel", "Notifications")},
    };
    for (const auto& [prefix, label] : top)
        if (path == prefix || path.startsWith(prefix + u'.') || path.startsWith(prefix + u'['))
            return QCoreApplication::translate("FieldLabel", label);
    return path;
}

QList<QPair<QString, QString>> ScenarioCheck::scopes(const QByteArray& scenarioJson,
                                                     const EnvironmentChoice& environments)
{
    QList<QPair<QString, QString>> out;
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), s, error))
        return out;
    const auto env = currentEnvironment(environments);
    QStringList seen;
    for (const auto& step : s.steps()) {
        std::string text;
        (void)google::protobuf::util::MessageToJsonString(step, &text); // every field a step may write ${…} in
        for (const std::string& full : stampede::Template::names(text)) {
            const std::string base = full.substr(0, full.find('.'));
            const QString shown = QString::fromStdString(full.find('.') == std::string::npos ? full : base + ".*");
            if (seen.contains(shown))
                continue;
            seen << shown;
            out.append({shown, QString::fromStdString(stampede::scopeOf(s, env ? &*env : nullptr, base))});
        }
    }
    return out;
}

QList<QPair<QString, QString>> ScenarioCheck::validate(const QByteArray& scenarioJson, const QString& baseDir,
                                                       const TrafficSource& traffic)
{
    return check(scenarioJson, baseDir, traffic).problems;
}

QStringList ScenarioCheck::warnings(const QByteArray& scenarioJson, const QString& baseDir,
                                    const TrafficSource& traffic)
{
    return check(scenarioJson, baseDir, traffic).warnings;
}

bool ScenarioCheck::exportBundle(const QByteArray& scenarioJson, const QString& baseDir, const QString& path,
                                 QString* error, const TrafficSource& traffic, const EnvironmentChoice& environments,
                                 const QString& chosen)
{
    stampede::v1::Scenario s;
    std::string err;
    stampede::v1::Bundle bundle;
    bool ok = stampede::parseScenarioJson(scenarioJson.toStdString(), s, err);
    for (int i = 0; ok && i < s.steps_size(); ++i) { // a project's traffic set travels as its requests
        if (!s.steps(i).has_replay() || s.steps(i).replay().traffic().empty() || !s.steps(i).replay().data().empty())
            continue;
        auto* r = s.mutable_steps(i)->mutable_replay();
        const QByteArray bytes = traffic ? traffic(QString::fromStdString(r->traffic())) : QByteArray();
        r->set_data(bytes.toStdString());
        if (bytes.isEmpty()) {
            err = "steps[" + std::to_string(i) + "].replay.traffic: the project has no traffic set named \"" +
                  r->traffic() + "\"";
            ok = false;
        }
    }
    std::vector<stampede::v1::Environment> envs;
    for (const auto& [name, payload] : environments.environments) {
        envs.emplace_back();
        ok = ok && stampede::environmentFromJson(name.toStdString(), payload.toStdString(), envs.back(), err);
    }
    if (!ok || !stampede::makeBundle(s, baseDir.toStdString(), "scenario", bundle, err) ||
        !stampede::carryEnvironments(bundle, envs, chosen.toStdString(), err)) {
        if (error)
            *error = QString::fromStdString(err);
        return false;
    }
    QSaveFile f(path); // written whole, then renamed over the old one
    const std::string bytes = stampede::encodeBundle(bundle);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size()) ||
        !f.commit()) {
        if (error)
            *error = f.errorString();
        return false;
    }
    return true;
}

QHash<QString, QString> ScenarioCheck::variableSamples(const QByteArray& scenarioJson, const QString& baseDir)
{
    QHash<QString, QString> out;
    stampede::v1::Scenario scenario;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), scenario, error))
        return out;
    scenario.clear_steps(); // only the variables are drawn
    stampede::PlanOptions options;
    options.baseDir = baseDir.isEmpty() ? std::string(".") : baseDir.toStdString();
    for (const auto& [name, value] : stampede::variableSamples(scenario, options))
        out.insert(QString::fromStdString(name), QString::fromStdString(value));
    return out;
}

bool ScenarioCheck::isPlan(const QByteArray& json)
{
    stampede::v1::Scenario s;
    std::string error;
    return stampede::parseScenarioJson(json.toStdString(), s, error) && stampede::isPlan(s);
}

QByteArray ScenarioCheck::planPart(const QByteArray& planJson, int part)
{
    stampede::v1::Scenario plan;
    std::string error;
    if (!stampede::parseScenarioJson(planJson.toStdString(), plan, error) ||
        (part >= 0 && part >= plan.scenarios_size()))
        return planJson;
    const stampede::v1::Scenario s =
        part >= 0 ? stampede::planScenario(plan, part) : stampede::phaseScenario(plan, part == PlanTeardown);
    std::string out;
    (void)google::protobuf::util::MessageToJsonString(s, &out, {});
    return QByteArray::fromStdString(out);
}
