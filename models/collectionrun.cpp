#include "collectionrun.h"

#include "bundle/newmanrun.h"
#include "bundle/projectscenario.h"
#include "collection/newmanfiles.h"
#include "control/runinputs.h"
#include "enginetext.h"

#include <QFile>
#include <QFileInfo>

#include <google/protobuf/util/json_util.h>

using namespace stampede;

namespace {
constexpr qint64 kMaxDataFileBytes = 256 * 1024 * 1024; // what a run carries to its engines, at most
}

bool readIterationDataFile(const QString& path, IterationData& out, QString& error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        error = QObject::tr("Cannot read %1: %2").arg(path, f.errorString());
        return false;
    }
    if (f.size() > kMaxDataFileBytes) {
        error = QObject::tr("%1 is larger than 256 MiB.").arg(path);
        return false;
    }
    std::string why;
    if (!readIterationData(f.readAll().toStdString(), QFileInfo(path).fileName().toStdString(), out, why)) {
        error = QStringLiteral("%1: %2").arg(QFileInfo(path).fileName(), engineText(QString::fromStdString(why)));
        return false;
    }
    return true;
}

bool describeIterationDataFile(const QString& path, int& rows, QStringList& columns, QString& error)
{
    IterationData data;
    if (!readIterationDataFile(path, data, error))
        return false;
    rows = int(std::min<std::size_t>(data.rows, 1000000000));
    columns.clear();
    for (const std::string& c : data.columns)
        columns << QString::fromStdString(c);
    return true;
}

bool collectionRunScenario(ProjectStore& store, qint64 item, const CollectionRunChoice& choice, QByteArray& json,
                           QStringList& warnings, QString& error)
{
    RunInputs in; // the one preparation the command line's run P@COLLECTION makes
    in.project = &store;
    in.projectCollection = item;
    in.environment = choice.environment.toStdString();
    in.storedEnvironment = false;
    if (!choice.dataFile.isEmpty() && !readIterationDataFile(choice.dataFile, in.newman.data.emplace(), error))
        return false;
    RunRequest rq;
    PreparedRun found;
    std::string why;
    if (!prepareRun(in, rq, found, why)) {
        error = engineText(QString::fromStdString(why));
        return false;
    }
    for (const std::string& w : found.warnings)
        warnings << QString::fromStdString(w);
    NewmanRun run;
    run.bail = choice.bail;
    run.delayRequest = Nanos(std::max(0, choice.delayMs)) * 1000000;
    if (choice.iterations > 0)
        run.iterations = std::uint64_t(choice.iterations);
    if (!shapeNewmanRun(rq.scenario, run, found.dataRows, why)) {
        error = engineText(QString::fromStdString(why));
        return false;
    }
    std::string out;
    if (!google::protobuf::util::MessageToJsonString(rq.scenario, &out).ok()) {
        error = QObject::tr("The collection cannot be made into a run.");
        return false;
    }
    json = QByteArray::fromStdString(out);
    return true;
}
