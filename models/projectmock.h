#pragma once
// A project's own mock server (the demo shop's, or any project that keeps
// mock rules): the rules and the files they name are kept in the project
// (its "mock" setting), never a port. Opening the project starts it with
// `stampede-cli mock` on a free loopback port, as a child process that ends
// with the project; once it listens, listening() gives its URL, which the
// main window puts into the environments' `variable` (mock_url) - that value
// alone changes, whatever else the user keeps there.
#include <QByteArray>
#include <QHash>
#include <QObject>
#include <QString>

#include <memory>
#include <optional>

class QProcess;
class QTemporaryDir;

namespace stampede {
class ProjectStore;
}

class ProjectMock : public QObject
{
    Q_OBJECT
public:
    struct Config
    {
        QByteArray rules;                 // the rules' JSON (stampede-cli mock --rules)
        QHash<QString, QByteArray> files; // the files they name (.proto), by name
        QString variable;                 // the environments' value that holds its URL
    };
    static void store(stampede::ProjectStore& store, const Config& config);
    static std::optional<Config> load(const stampede::ProjectStore& store);
    // `payload` (an environment's JSON object) with `variable` set to `url`,
    // or empty when it has no such value (then it is left as it is).
    static QByteArray pointedAt(const QByteArray& payload, const QString& variable, const QString& url);

    explicit ProjectMock(QObject* parent = nullptr);
    ~ProjectMock() override;

    // Starts `stampede-cli mock` (`cli`) with `config`; false with `error`
    // (then the text says how to start it by hand).
    bool start(const Config& config, const QString& cli, QString& error);
    void stop();
    bool running() const;
    QString url() const { return m_url; }
    const Config& config() const { return m_config; }

Q_SIGNALS:
    void listening(const QString& url);
    void failed(const QString& why);

private:
    void readOutput();

    Config m_config;
    std::unique_ptr<QTemporaryDir> m_dir;
    QProcess* m_process = nullptr;
    QByteArray m_said;
    QString m_url;
};
