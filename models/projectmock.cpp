#include "projectmock.h"

#include "store/projectstore.h"

#include <QCoreApplication>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

void ProjectMock::store(stampede::ProjectStore& store, const Config& c)
{
    QJsonObject files;
    for (auto it = c.files.cbegin(); it != c.files.cend(); ++it)
        files[it.key()] = QString::fromUtf8(it.value());
    const QJsonObject o{{QStringLiteral("rules"), QString::fromUtf8(c.rules)},
                        {QStringLiteral("files"), files},
                        {QStringLiteral("variable"), c.variable}};
    store.setSetting("mock", QJsonDocument(o).toJson(QJsonDocument::Compact).toStdString());
}

std::optional<ProjectMock::Config> ProjectMock::load(const stampede::ProjectStore& store)
{
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(store.setting("mock"))).object();
    if (o.value(QStringLiteral("rules")).toString().isEmpty())
        return std::nullopt;
    Config c;
    c.rules = o.value(QStringLiteral("rules")).toString().toUtf8();
    const QJsonObject files = o.value(QStringLiteral("files")).toObject();
    for (auto it = files.begin(); it != files.end(); ++it)
        c.files.insert(it.key(), it.value().toString().toUtf8());
    c.variable = o.value(QStringLiteral("variable")).toString(QStringLiteral("mock_url"));
    return c;
}

QByteArray ProjectMock::pointedAt(const QByteArray& payload, const QString& variable, const QString& url)
{
    QJsonObject o = QJsonDocument::fromJson(payload).object();
    if (!o.contains(variable) || o.value(variable).toString() == url)
        return {};
    o[variable] = url;
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

ProjectMock::ProjectMock(QObject* parent) : QObject(parent) {}

ProjectMock::~ProjectMock()
{
    stop();
}

bool ProjectMock::running() const
{
    return m_process && m_process->state() != QProcess::NotRunning;
}

void ProjectMock::stop()
{
    if (!m_process)
        return;
    m_process->disconnect(this);
    m_process->terminate();
    if (!m_process->waitForFinished(2000))
        m_process->kill();
    m_process->waitForFinished(1000);
    delete m_process;
    m_process = nullptr;
    m_url.clear();
}

bool ProjectMock::start(const Config& config, const QString& cli, QString& error)
{
    stop();
    m_config = config;
    m_dir = std::make_unique<QTemporaryDir>();
    const QString rules = m_dir->filePath(QStringLiteral("mock-rules.json"));
    const auto how = [&] {
        return QCoreApplication::translate(
                   "ProjectMock",
                   "start it yourself with: stampede-cli mock --listen 127.0.0.1:8080 --rules FILE, the rules "
                   "being the project's, and set ${%1} to http://127.0.0.1:8080")
            .arg(config.variable);
    };
    if (cli.isEmpty()) {
        error = QCoreApplication::translate(
                    "ProjectMock",
                    "stampede-cli, which serves the project's mock, was not found next to Stampede or on PATH; %1")
                    .arg(how());
        return false;
    }
    auto write = [&](const QString& path, const QByteArray& bytes) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
    };
    bool ok = m_dir->isValid() && write(rules, config.rules);
    for (auto it = config.files.cbegin(); ok && it != config.files.cend(); ++it)
        ok = !it.key().contains(QLatin1Char('/')) && write(m_dir->filePath(it.key()), it.value());
    if (!ok) {
        error = QCoreApplication::translate("ProjectMock",
                                            "the mock's rules could not be written to a temporary folder; %1")
                    .arg(how());
        return false;
    }
    m_process = new QProcess(this);
    m_process->setProcessChannelMode(QProcess::MergedChannels);
    connect(m_process, &QProcess::readyRead, this, &ProjectMock::readOutput);
    connect(m_process, &QProcess::finished, this, [this] {
        if (m_url.isEmpty())
            Q_EMIT failed(QCoreApplication::translate("ProjectMock", "the mock server stopped: %1")
                              .arg(QString::fromUtf8(m_said).trimmed()));
    });
    m_said.clear();
    m_process->start(cli, {QStringLiteral("mock"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                           QStringLiteral("--rules"), rules});
    QTimer::singleShot(5000, this, [this, process = m_process] {
        if (m_process == process && m_url.isEmpty())
            Q_EMIT failed(QCoreApplication::translate("ProjectMock", "the mock server did not start within 5 s: %1")
                              .arg(QString::fromUtf8(m_said).trimmed()));
    });
    return true;
}

void ProjectMock::readOutput()
{
    m_said += m_process->readAll();
    if (!m_url.isEmpty())
        return;
    const qsizetype at = m_said.indexOf("listening on ");
    const qsizetype end = at < 0 ? -1 : m_said.indexOf('\n', at);
    if (end <= at)
        return;
    m_url = QString::fromUtf8(m_said.mid(at + 13, end - at - 13)).trimmed();
    Q_EMIT listening(m_url);
}
