#include "scenariocheck.h"

#include "bundle/bundlefile.h"
#include "run/checkplan.h"
#include "run/scenarioplan.h"
#include "stampede/v1/bundle.pb.h"
#include "stampede/v1/scenario.pb.h"

#include <QFile>

QList<QPair<QString, QString>> ScenarioCheck::validate(const QByteArray& scenarioJson, const QString& baseDir)
{
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), s, error))
        return {{QString(), QString::fromStdString(error)}};
    std::vector<stampede::PlanError> errors;
    stampede::PlanOptions options;
    options.resolveHosts = false;
    options.baseDir = baseDir.toStdString();
    stampede::compileScenario(s, options, errors);
    QList<QPair<QString, QString>> out;
    for (const auto& e : errors)
        out.append({QString::fromStdString(e.field), QString::fromStdString(e.message)});
    return out;
}

QStringList ScenarioCheck::warnings(const QByteArray& scenarioJson, const QString& baseDir)
{
    stampede::v1::Scenario s;
    std::string error;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), s, error))
        return {};
    std::vector<stampede::PlanError> errors;
    stampede::PlanOptions options;
    options.resolveHosts = false;
    options.baseDir = baseDir.toStdString();
    const auto plan = stampede::compileScenario(s, options, errors);
    QStringList out;
    if (plan)
        for (const auto& w : stampede::flowWarnings(*plan))
            out << QString::fromStdString(w.text());
    return out;
}

bool ScenarioCheck::exportBundle(const QByteArray& scenarioJson, const QString& baseDir, const QString& path,
                                 QString* error)
{
    stampede::v1::Scenario s;
    std::string err;
    stampede::v1::Bundle bundle;
    if (!stampede::parseScenarioJson(scenarioJson.toStdString(), s, err) ||
        !stampede::makeBundle(s, baseDir.toStdString(), "scenario", bundle, err)) {
        if (error)
            *error = QString::fromStdString(err);
        return false;
    }
    QFile f(path);
    const std::string bytes = stampede::encodeBundle(bundle);
    if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) ||
        f.write(bytes.data(), qint64(bytes.size())) != qint64(bytes.size())) {
        if (error)
            *error = f.errorString();
        return false;
    }
    return true;
}
