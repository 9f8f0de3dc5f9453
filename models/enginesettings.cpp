#include "enginesettings.h"

#include "control/runservice.h"
#include "stampede/v1/scenario.pb.h"

#include "control/agentdiscovery.h"

#include <QStandardPaths>

#include <QCoreApplication>

#include "control/controller.h"
#include "core/textfile.h"
#include "store/projectstore.h"

#include <QColor>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPointer>

#include <thread>

using namespace stampede;

namespace {
const char* kKey = "engines";
}

EngineSettings EngineSettings::load(ProjectStore& store)
{
    EngineSettings s;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(store.setting(kKey))).object();
    s.remote = o.value(QStringLiteral("remote")).toBool();
    s.localEngines = o.value(QStringLiteral("localEngines")).toInt();
    for (const auto& a : o.value(QStringLiteral("agents")).toArray())
        s.agents << a.toString();
    s.tokenFile = o.value(QStringLiteral("tokenFile")).toString();
    s.caFile = o.value(QStringLiteral("caFile")).toString();
    s.prometheus = o.value(QStringLiteral("prometheus")).toString();
    s.jsonl = o.value(QStringLiteral("jsonl")).toString();
    s.remoteWrite = o.value(QStringLiteral("remoteWrite")).toString();
    s.maxErrorRate = o.value(QStringLiteral("maxErrorRate")).toString();
    return s;
}

QStringList EngineSettings::outputs() const
{
    QStringList out;
    if (!prometheus.trimmed().isEmpty())
        out << QStringLiteral("prometheus=") + prometheus.trimmed();
    if (!jsonl.trimmed().isEmpty())
        out << QStringLiteral("jsonl=") + jsonl.trimmed();
    if (!remoteWrite.trimmed().isEmpty())
        out << QStringLiteral("prometheus-rw=") + remoteWrite.trimmed();
    return out;
}

QString EngineSettings::outputsProblem(const QString& projectPath) const
{
    const QString address = prometheus.trimmed();
    if (!address.isEmpty()) {
        const qsizetype colon = address.lastIndexOf(QLatin1Char(':'));
        bool ok = false;
        const int port = address.mid(colon + 1).toInt(&ok);
        if (!ok || port < 1 || port > 65535)
            return QCoreApplication::translate("EngineSettings",
                                               "The Prometheus endpoint is host:port, as 127.0.0.1:9465 (a port from "
                                               "1 to 65535); \"%1\" is not.")
                .arg(address);
    }
    const QString receiver = remoteWrite.trimmed();
    if (!receiver.isEmpty() && !receiver.startsWith(QLatin1String("http://")) &&
        !receiver.startsWith(QLatin1String("https://")))
        return QCoreApplication::translate("EngineSettings", "The remote write URL starts with http:// or https://, as "
                                                             "http://127.0.0.1:9090/api/v1/write; \"%1\" does not.")
            .arg(receiver);
    const QString file = jsonl.trimmed();
    if (!file.isEmpty()) {
        const std::string path = file.toStdString();
        for (const std::string& f : {path, path + ".part"})
            if (overwritesInput(f, {projectPath.toStdString()}))
                return QCoreApplication::translate("EngineSettings",
                                                   "The JSON lines file would overwrite the project itself.");
        if (!QFileInfo(QFileInfo(file).absolutePath()).isDir())
            return QCoreApplication::translate("EngineSettings",
                                               "The folder of the JSON lines file, %1, does not exist.")
                .arg(QFileInfo(file).absolutePath());
    }
    if (const QString budget = maxErrorRate.trimmed(); !budget.isEmpty()) {
        stampede::v1::Scenario none;
        std::string why;
        if (!stampede::addErrorBudget(none, budget.toStdString(), why))
            return QCoreApplication::translate("EngineSettings", "The error rate at most is a percentage above 0 and "
                                                                 "at most 100, as 1%; \"%1\" is not.")
                .arg(budget);
    }
    return {};
}

bool EngineSettings::save(ProjectStore& store) const
{
    const QJsonObject o{{QStringLiteral("remote"), remote},
                        {QStringLiteral("localEngines"), localEngines},
                        {QStringLiteral("agents"), QJsonArray::fromStringList(agents)},
                        {QStringLiteral("tokenFile"), tokenFile},
                        {QStringLiteral("caFile"), caFile},
                        {QStringLiteral("prometheus"), prometheus.trimmed()},
                        {QStringLiteral("jsonl"), jsonl.trimmed()},
                        {QStringLiteral("remoteWrite"), remoteWrite.trimmed()},
                        {QStringLiteral("maxErrorRate"), maxErrorRate.trimmed()}};
    return store.setSetting(kKey, QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString());
}

bool EngineSettings::readToken(QString& token, QString& error) const
{
    token.clear();
    if (tokenFile.isEmpty())
        return true; // agents on loopback may run without one
    QFile f(tokenFile);
    if (!f.open(QIODevice::ReadOnly)) {
        error = QObject::tr("cannot read the token file %1: %2").arg(tokenFile, f.errorString());
        return false;
    }
    token = QString::fromUtf8(f.readAll()).trimmed();
    if (token.isEmpty()) {
        error = QObject::tr("the token file %1 is empty").arg(tokenFile);
        return false;
    }
    return true;
}

bool validAgentAddress(const QString& address, QString& error)
{
    QString a = address.trimmed();
    if (a.startsWith(QLatin1String("file:"))) { // a list, read when checked and when the run starts
        if (a.size() > 5)
            return true;
        error = QObject::tr("\"%1\": give the list's path after file:").arg(a);
        return false;
    }
    if (a.startsWith(QLatin1String("dns:"))) // every address of a name (a headless Service): dns:NAME:PORT
        a = a.mid(4);
    const int colon = a.lastIndexOf(QLatin1Char(':'));
    bool ok = false;
    const int port = colon > 0 ? a.mid(colon + 1).toInt(&ok) : 0;
    if (colon <= 0 || !ok || port < 1 || port > 65535) {
        error = QObject::tr("\"%1\" is not host:port (a port from 1 to 65535)").arg(a);
        return false;
    }
    return true;
}

AgentListModel::AgentListModel(QObject* parent) : QAbstractTableModel(parent) {}

AgentListModel::~AgentListModel() = default;

void AgentListModel::setAgents(const QStringList& agents)
{
    beginResetModel();
    m_rows.clear();
    for (const auto& a : agents)
        m_rows.append({a.trimmed(), {}, false, 0});
    ++m_generation; // answers to an earlier check no longer apply
    m_pending = 0;
    endResetModel();
}

QStringList AgentListModel::agents() const
{
    QStringList out;
    for (const auto& r : m_rows)
        if (!r.address.trimmed().isEmpty())
            out << r.address.trimmed();
    return out;
}

void AgentListModel::addAgent(const QString& address)
{
    beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
    m_rows.append({address, {}, false, 0});
    endInsertRows();
}

void AgentListModel::removeAgent(int row)
{
    if (row < 0 || row >= m_rows.size())
        return;
    beginRemoveRows({}, row, row);
    m_rows.removeAt(row);
    endRemoveRows();
}

bool AgentListModel::ready(int row) const
{
    return row >= 0 && row < m_rows.size() && m_rows[row].ready;
}

void AgentListModel::check(const QString& token, const QString& caFile)
{
    const quint64 generation = ++m_generation;
    m_pending = 0;
    for (int i = 0; i < m_rows.size(); ++i) {
        Row& r = m_rows[i];
        r.ready = false;
        r.generation = generation;
        QString why;
        if (!validAgentAddress(r.address, why)) {
            r.status = why;
            continue;
        }
        r.status = tr("checking…");
        ++m_pending;
        const std::string address = r.address.trimmed().toStdString();
        if (address.rfind("dns:", 0) == 0 || address.rfind("file:", 0) == 0) { // many agents: how many answer
            m_checks.startBeside(
                [address] {
                    std::vector<std::string> found;
                    std::string error;
                    if (!expandAgents({address}, found, error))
                        return std::make_pair(false, QString::fromStdString(error));
                    const auto answering = answeringAgents(found, kNanosPerSecond);
                    return std::make_pair(!answering.empty(),
                                          tr("%1 of %2 agents answer").arg(answering.size()).arg(found.size()));
                },
                [this, i, generation](const std::pair<bool, QString>& result) { checkDone(i, generation, result); });
            continue;
        }
        ControllerOptions options;
        options.name = "stampede (check)";
        options.token = token.toStdString();
        options.caFile = caFile.toStdString();
        options.startTimeout = 3 * kNanosPerSecond;
        m_checks.startBeside(
            [address, options] {
                Controller c({address}, options);
                std::string error;
                const bool ok = c.connect(error);
                return std::make_pair(ok,
                                      ok ? QObject::tr("ready: %1").arg(QString::fromStdString(c.agentNames().front()))
                                         : QString::fromStdString(error));
            },
            [this, i, generation](const std::pair<bool, QString>& result) { checkDone(i, generation, result); });
    }
    if (!m_rows.isEmpty())
        Q_EMIT dataChanged(index(0, StatusColumn), index(int(m_rows.size()) - 1, StatusColumn));
    if (m_pending == 0)
        Q_EMIT checked();
}

// One agent's (or name's, or list's) answer, unless a later check replaced it.
void AgentListModel::checkDone(int row, quint64 generation, const std::pair<bool, QString>& result)
{
    if (row >= m_rows.size() || m_rows[row].generation != generation)
        return;
    m_rows[row].status = result.second;
    m_rows[row].ready = result.first;
    Q_EMIT dataChanged(index(row, StatusColumn), index(row, StatusColumn));
    if (--m_pending == 0)
        Q_EMIT checked();
}

int AgentListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int AgentListModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant AgentListModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size())
        return {};
    const Row& r = m_rows[index.row()];
    if (role == Qt::DisplayRole || role == Qt::EditRole)
        return index.column() == AddressColumn ? r.address : r.status;
    if (role == Qt::ToolTipRole && index.column() == AddressColumn)
        return tr("host:port of a stampede-cli agent (started with `stampede-cli agent --listen`), dns:NAME:PORT "
                  "(every address of a name, as a Kubernetes headless Service gives) or file:PATH (a list)");
    if (role == Qt::ForegroundRole && index.column() == StatusColumn && !r.status.isEmpty() && m_pending == 0)
        return r.ready ? QColor(0x1e, 0x84, 0x49) : QColor(0xc0, 0x39, 0x2b);
    return {};
}

bool AgentListModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || index.column() != AddressColumn)
        return false;
    Row& r = m_rows[index.row()];
    r.address = value.toString().trimmed();
    r.status.clear();
    r.ready = false;
    Q_EMIT dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    return true;
}

Qt::ItemFlags AgentListModel::flags(const QModelIndex& index) const
{
    Qt::ItemFlags f = QAbstractTableModel::flags(index);
    if (index.column() == AddressColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant AgentListModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return section == AddressColumn ? tr("Agent (host:port)") : tr("Status");
}

QString EngineSettings::runLabel() const
{
    if (remote)
        return QCoreApplication::translate("EngineSettings", "Run on %n remote agent(s)", nullptr, int(agents.size()));
    if (localEngines > 0)
        return QCoreApplication::translate("EngineSettings", "Run on the local pool (%n engine(s))", nullptr,
                                           localEngines);
    return QCoreApplication::translate("EngineSettings", "Run on the local pool");
}

QString EngineSettings::runToolTip() const
{
    if (remote)
        return QCoreApplication::translate("EngineSettings", "Start this scenario on the agents %1 and watch it live "
                                                             "(Runs → Engines… to change)")
            .arg(agents.join(QStringLiteral(", ")));
    return QCoreApplication::translate("EngineSettings", "Start this scenario on local engines (%1) and watch it live "
                                                         "(Runs → Engines… to change)")
        .arg(localEngines > 0 ? QString::number(localEngines)
                              : QCoreApplication::translate("EngineSettings", "fitted to the CPUs it may use"));
}

QString findStampedeCli()
{
    // STAMPEDE_CLI names it (a build tree, a test); else beside this program, in the build tree, on PATH
    if (const QString named = qEnvironmentVariable("STAMPEDE_CLI"); !named.isEmpty() && QFileInfo(named).isExecutable())
        return named;
    const QString dir = QCoreApplication::applicationDirPath();
    const QString cli =
        QStandardPaths::findExecutable(QStringLiteral("stampede-cli"), {dir, dir + QStringLiteral("/../cli")});
    return cli.isEmpty() ? QStandardPaths::findExecutable(QStringLiteral("stampede-cli")) : cli;
}
