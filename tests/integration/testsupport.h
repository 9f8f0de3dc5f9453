#pragma once
// Helpers for integration tests: run stampede-cli, start its mock server as a
// process, tiny raw TCP servers that misbehave on purpose.
#include <QJsonObject>
#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>
#include <sys/types.h>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

namespace testsupport {

QString cliPath();
// A server the test starts ends with the test, also when the test crashes: otherwise it would hold the test's
// output open (a forwarded stderr) and ctest would wait for its timeout instead of reporting the crash.
void endsWithTest(QProcess& process);
QString sourceDir();

struct CliResult
{
    int exitCode = -1;
    QString out;
    QString err;
};
// Runs stampede-cli with `args`; waits up to `timeoutMs`.
CliResult runCli(const QStringList& args, int timeoutMs = 60000);
// stampede-cli with `args` in a mount namespace whose /etc/hosts is the file
// `hosts` (a name with many addresses, as a headless Service gives; needs
// root): the program and arguments to start, and a run of it.
QStringList withHosts(const QString& hosts, const QStringList& args);
CliResult runWithHosts(const QString& hosts, const QStringList& args, int timeoutMs = 60000);
// Writes `content` to `name` in `dir`; returns the file's path.
QString writeFile(const QTemporaryDir& dir, const char* name, const QByteArray& content);
// The SHA-256 of a file's bytes (to tell that a file was left as it was).
QByteArray digestOf(const QString& path);
// Reads a --summary-json file.
QJsonObject readJson(const QString& path);
// The counts of `counts` (a summary's errors_by_class) that are not 0: "protocol=10 reset=2 ".
QString nonZero(const QJsonObject& counts);

// `stampede-cli run -q --engines 1 -t 1 --summary-json SUMMARY ARGS...`: the
// outcome and the summary's "total" (empty when the run wrote none).
struct RunOutcome
{
    CliResult cli;
    QJsonObject total;
};
RunOutcome runOneEngine(const QString& summaryPath, const QStringList& args);

// A peer server as a child process (the Python gRPC and TLS peers): it prints
// its port first, serves until its stdin closes, and may print a last line of JSON.
class PeerProcess
{
public:
    PeerProcess(const QString& program, const QStringList& args);
    ~PeerProcess() { finish(); }
    int port() const { return m_port; }
    QString target() const { return QStringLiteral("127.0.0.1:%1").arg(m_port); }
    // Stops the server; its last JSON line, if any.
    QJsonObject finish();

private:
    QProcess m_process;
    int m_port = 0;
    QJsonObject m_last;
};

// `stampede-cli mock` as a child process on a free loopback port.
class MockProcess
{
public:
    explicit MockProcess(const QString& rulesJson = QString());
    ~MockProcess();
    bool started() const { return m_port != 0; }
    int port() const { return m_port; }
    qint64 pid() const { return m_process.processId(); }
    QString url(const QString& path = QStringLiteral("/")) const;
    // GET /__stampede/stats, parsed.
    QJsonObject stats() const;

private:
    QProcess m_process;
    QString m_rulesFile;
    int m_port = 0;
};

// `stampede-cli agent` as a child process on a free loopback port, with a token file; with `cpus`, under
// `taskset -c CPUS` (its affinity: the cores it says it may use).
class AgentProcess
{
public:
    AgentProcess(const QString& tokenFile, const QString& name, const QStringList& extra = {},
                 const QString& cpus = QString());
    ~AgentProcess();
    QString address() const { return m_address; }
    pid_t pid() const { return pid_t(m_process.processId()); }
    // What it wrote on stderr so far.
    QString err();

private:
    QProcess m_process;
    QString m_address;
    QString m_err;
};

// A TCP server on 127.0.0.1 that calls `handler(fd)` for each accepted
// connection on its own thread; the handler owns the socket.
class RawServer
{
public:
    explicit RawServer(std::function<void(int fd)> handler);
    ~RawServer();
    int port() const { return m_port; }

private:
    int m_fd = -1;
    int m_port = 0;
    std::atomic<bool> m_stop{false};
    std::thread m_thread;
    std::function<void(int)> m_handler;
};

// An HTTP/1.1 keep-alive server on 127.0.0.1 that keeps every request it
// gets as it came (the head's bytes and the body by its Content-Length) and
// answers each with 200 and `body` (JSON).
class RecordingServer
{
public:
    struct Request
    {
        std::string line; // "POST /x HTTP/1.1"
        std::vector<std::pair<std::string, std::string>> headers;
        std::string body;
        std::string header(const std::string& lowerName) const; // the first of that name, or ""
    };
    explicit RecordingServer(std::string body = "{\"code\": 0}");
    int port() const { return m_server.port(); }
    QString url(const QString& path = QString()) const;
    std::vector<Request> requests() const;
    // The requests whose line starts with `start` ("POST /login").
    std::vector<Request> requestsTo(const std::string& start) const;

private:
    void serve(int fd);
    std::string m_body;
    mutable std::mutex m_mutex;
    std::vector<Request> m_requests;
    RawServer m_server;
};

// Reads the next request of a keep-alive connection into `r` (`in` keeps
// what came past it); false when the connection closed or was silent 5 s.
bool readRequest(int fd, std::string& in, RecordingServer::Request& r);
// Reads one HTTP request head (up to the blank line); empty on EOF.
std::string readRequestHead(int fd);
// A free loopback port (bound and released), from below the kernel's
// ephemeral range, so no server on port 0 or outgoing connection takes it.
int freePort();
// Sends `sig` to process `pid`; false (nothing sent) when the process is gone
// (pid 0 would signal the test's own process group, and ctest with it).
bool signalProcess(qint64 pid, int sig);
// A simple blocking HTTP GET against 127.0.0.1:port; returns the body.
std::string httpGet(int port, const std::string& path);

// Certificates made with the openssl command line in `dir`: a CA (ca.pem,
// ca.key); server.pem/server.key for localhost and 127.0.0.1, signed by it;
// expired.pem (same key, already expired); self.pem/self.key, self-signed; and
// client.pem/client.key, a client certificate signed by the CA. Returns an
// empty string, or what went wrong.
QString makeCertificates(const QString& dir);

// nginx from Debian as a child process, with `servers` (the server blocks) in
// an http block that logs to dir/access.log and keeps connections alive.
class Nginx
{
public:
    ~Nginx();
    static bool installed();
    // Starts it and waits until `probePort` accepts connections; false with error().
    bool start(const QString& dir, const QString& servers, int probePort);
    QString accessLog() const { return m_dir + QStringLiteral("/access.log"); }
    // The access log's line count, and empties it.
    qint64 takeServedCount();
    QString error() const { return m_error; }

private:
    QProcess m_process;
    QString m_dir, m_error;
};

} // namespace testsupport
