#include "testsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QTemporaryFile>
#include <QTest>
#include <QThread>

#include <arpa/inet.h>
#include <csignal>
#include <netinet/in.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace testsupport {

void endsWithTest(QProcess& process)
{
    process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
}

QString cliPath()
{
    return qEnvironmentVariable("STAMPEDE_CLI");
}

QString sourceDir()
{
    return qEnvironmentVariable("STAMPEDE_SOURCE_DIR");
}

CliResult runCli(const QStringList& args, int timeoutMs)
{
    QProcess p;
    p.start(cliPath(), args);
    CliResult r;
    if (!p.waitForStarted(10000)) {
        r.err = QStringLiteral("could not start ") + cliPath();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QStringList withHosts(const QString& hosts, const QStringList& args)
{
    return QStringList{QStringLiteral("unshare"),
                       QStringLiteral("--mount"),
                       QStringLiteral("--"),
                       QStringLiteral("sh"),
                       QStringLiteral("-c"),
                       QStringLiteral("mount --bind \"$0\" /etc/hosts && exec \"$@\""),
                       hosts,
                       cliPath()} +
           args;
}

CliResult runWithHosts(const QString& hosts, const QStringList& args, int timeoutMs)
{
    QStringList all = withHosts(hosts, args);
    QProcess p;
    p.start(all.takeFirst(), all);
    CliResult r;
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished();
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

QString nonZero(const QJsonObject& counts)
{
    QString out;
    for (auto it = counts.begin(); it != counts.end(); ++it)
        if (it.value().toInteger())
            out += it.key() + QLatin1Char('=') + QString::number(it.value().toInteger()) + QLatin1Char(' ');
    return out;
}

QJsonObject readJson(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {};
    QJsonParseError e;
    const auto doc = QJsonDocument::fromJson(f.readAll(), &e);
    if (e.error != QJsonParseError::NoError)
        qWarning("summary JSON does not parse: %s", qPrintable(e.errorString()));
    return doc.object();
}

RunOutcome runOneEngine(const QString& summaryPath, const QStringList& args)
{
    QFile::remove(summaryPath);
    RunOutcome o;
    o.cli = runCli(QStringList{QStringLiteral("run"), QStringLiteral("-q"), QStringLiteral("--engines"),
                               QStringLiteral("1"), QStringLiteral("-t"), QStringLiteral("1"),
                               QStringLiteral("--summary-json"), summaryPath} +
                   args);
    o.total = readJson(summaryPath)[QStringLiteral("total")].toObject();
    return o;
}

PeerProcess::PeerProcess(const QString& program, const QStringList& args)
{
    m_process.start(program, args);
    if (!m_process.waitForStarted(10000))
        return;
    for (int i = 0; i < 100 && !m_process.canReadLine(); ++i)
        m_process.waitForReadyRead(100);
    m_port = m_process.readLine().trimmed().toInt();
}

QJsonObject PeerProcess::finish()
{
    if (m_process.state() == QProcess::NotRunning)
        return m_last;
    m_process.closeWriteChannel();
    if (!m_process.waitForFinished(10000))
        m_process.kill();
    m_process.waitForFinished(2000);
    const auto lines = m_process.readAllStandardOutput().split('\n');
    for (const auto& l : lines)
        if (l.startsWith('{'))
            m_last = QJsonDocument::fromJson(l).object();
    return m_last;
}

MockProcess::MockProcess(const QString& rulesJson)
{
    QStringList args{QStringLiteral("mock"), QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0")};
    if (!rulesJson.isEmpty()) {
        QTemporaryFile f;
        f.setAutoRemove(false);
        if (f.open()) {
            f.write(rulesJson.toUtf8());
            m_rulesFile = f.fileName();
            f.close();
            args << QStringLiteral("--rules") << m_rulesFile;
        }
    }
    m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel); // its complaints show in the test log
    endsWithTest(m_process);
    m_process.start(cliPath(), args);
    if (!m_process.waitForStarted(5000))
        return;
    QByteArray out;
    for (int i = 0; i < 100 && !out.contains('\n'); ++i) {
        m_process.waitForReadyRead(100);
        out += m_process.readAllStandardOutput();
    }
    const int colon = out.lastIndexOf(':');
    if (out.startsWith("listening on ") && colon > 0)
        m_port = out.mid(colon + 1).trimmed().toInt();
}

MockProcess::~MockProcess()
{
    m_process.terminate();
    if (!m_process.waitForFinished(3000)) {
        m_process.kill();
        m_process.waitForFinished();
    }
    if (!m_rulesFile.isEmpty())
        QFile::remove(m_rulesFile);
}

QString MockProcess::url(const QString& path) const
{
    return QStringLiteral("http://127.0.0.1:%1%2").arg(m_port).arg(path);
}

QJsonObject MockProcess::stats() const
{
    const std::string body = httpGet(m_port, "/__stampede/stats");
    return QJsonDocument::fromJson(QByteArray::fromStdString(body)).object();
}

RawServer::RawServer(std::function<void(int)> handler) : m_handler(std::move(handler))
{
    m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const int one = 1;
    ::setsockopt(m_fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(m_fd, 128);
    socklen_t len = sizeof a;
    ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &len);
    m_port = ntohs(a.sin_port);
    m_thread = std::thread([this] {
        std::vector<std::thread> handlers;
        while (!m_stop) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0)
                continue;
            const int c = ::accept(m_fd, nullptr, nullptr);
            if (c >= 0)
                handlers.emplace_back([this, c] { m_handler(c); });
        }
        for (auto& h : handlers)
            h.join();
    });
}

RawServer::~RawServer()
{
    m_stop = true;
    m_thread.join();
    ::close(m_fd);
}

std::string RecordingServer::Request::header(const std::string& lowerName) const
{
    for (const auto& [n, v] : headers) {
        std::string lower = n;
        for (char& c : lower)
            c = char(std::tolower(static_cast<unsigned char>(c)));
        if (lower == lowerName)
            return v;
    }
    return {};
}

RecordingServer::RecordingServer(std::string body) : m_body(std::move(body)), m_server([this](int fd) { serve(fd); }) {}

QString RecordingServer::url(const QString& path) const
{
    return QStringLiteral("http://127.0.0.1:%1%2").arg(port()).arg(path);
}

std::vector<RecordingServer::Request> RecordingServer::requests() const
{
    std::lock_guard lock(m_mutex);
    return m_requests;
}

std::vector<RecordingServer::Request> RecordingServer::requestsTo(const std::string& start) const
{
    std::vector<Request> out;
    for (const auto& r : requests())
        if (r.line.rfind(start, 0) == 0)
            out.push_back(r);
    return out;
}

bool readRequest(int fd, std::string& in, RecordingServer::Request& r)
{
    char buf[16384];
    std::size_t end;
    while ((end = in.find("\r\n\r\n")) == std::string::npos) {
        pollfd p{fd, POLLIN, 0};
        if (::poll(&p, 1, 5000) <= 0)
            return false;
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return false;
        in.append(buf, std::size_t(n));
    }
    r = {};
    const std::string head = in.substr(0, end);
    std::size_t pos = head.find("\r\n");
    r.line = head.substr(0, pos);
    while (pos != std::string::npos && pos < head.size()) {
        const std::size_t start = pos + 2;
        const std::size_t next = head.find("\r\n", start);
        const std::string line = head.substr(start, next == std::string::npos ? std::string::npos : next - start);
        const std::size_t colon = line.find(':');
        if (colon != std::string::npos) {
            std::string value = line.substr(colon + 1);
            value.erase(0, value.find_first_not_of(' '));
            r.headers.emplace_back(line.substr(0, colon), value);
        }
        pos = next;
    }
    std::size_t length = 0;
    if (const std::string cl = r.header("content-length"); !cl.empty())
        length = std::stoul(cl);
    in.erase(0, end + 4);
    while (in.size() < length) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return false;
        in.append(buf, std::size_t(n));
    }
    r.body = in.substr(0, length);
    in.erase(0, length);
    return true;
}

void RecordingServer::serve(int fd)
{
    std::string in;
    for (Request r; readRequest(fd, in, r);) {
        {
            std::lock_guard lock(m_mutex);
            m_requests.push_back(std::move(r));
        }
        const std::string answer =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: " + std::to_string(m_body.size()) +
            "\r\n\r\n" + m_body;
        if (::send(fd, answer.data(), answer.size(), MSG_NOSIGNAL) < 0)
            break;
    }
    ::close(fd);
}

std::string readRequestHead(int fd)
{
    std::string in;
    char buf[4096];
    while (in.find("\r\n\r\n") == std::string::npos) {
        const ssize_t n = ::recv(fd, buf, sizeof buf, 0);
        if (n <= 0)
            return {};
        in.append(buf, std::size_t(n));
    }
    return in;
}

namespace {

// The first port of the kernel's ephemeral range (what bind to port 0 and
// connect hand out); 32768, Linux's default, when it cannot be read.
int ephemeralLow()
{
    QFile f(QStringLiteral("/proc/sys/net/ipv4/ip_local_port_range"));
    if (!f.open(QIODevice::ReadOnly))
        return 32768;
    bool ok = false;
    const int low = QString::fromLatin1(f.readAll()).simplified().section(QLatin1Char(' '), 0, 0).toInt(&ok);
    return ok ? low : 32768;
}

// Binds 127.0.0.1:port (0: any) and releases it; the port bound, or 0.
int tryPort(int port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int bound = 0;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0) {
        socklen_t len = sizeof a;
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&a), &len);
        bound = ntohs(a.sin_port);
    }
    ::close(fd);
    return bound;
}

} // namespace

// A port from below the ephemeral range: a port the kernel handed out for
// port 0 could be handed out again, between this call and the bind it is for,
// to a server the test starts on port 0 (a run's --mock took a test's chosen
// metrics port that way) or to an outgoing connection.
int freePort()
{
    const int low = ephemeralLow();
    const int first = 10000;
    if (low - first >= 1000) {
        const int span = low - first;
        int port = first + int(QRandomGenerator::global()->bounded(span));
        for (int tries = 0; tries < 500; ++tries, port = first + (port - first + 7919) % span)
            if (tryPort(port) == port)
                return port;
    }
    return tryPort(0);
}

std::string httpGet(int port, const std::string& path)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(std::uint16_t(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return {};
    }
    const std::string req = "GET " + path + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    (void)!::write(fd, req.data(), req.size());
    std::string resp;
    char buf[4096];
    ssize_t n;
    while ((n = ::read(fd, buf, sizeof buf)) > 0)
        resp.append(buf, std::size_t(n));
    ::close(fd);
    const std::size_t body = resp.find("\r\n\r\n");
    return body == std::string::npos ? std::string() : resp.substr(body + 4);
}

QString makeCertificates(const QString& dir)
{
    const QString script =
        QStringLiteral(
            "set -e; cd '%1'\n"
            "q() { \"$@\" >/dev/null 2>&1; }\n"
            "printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > san.ext\n"
            "q openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj '/CN=Stampede Test "
            "CA'\n"
            "q openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj '/CN=localhost'\n"
            "q openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 "
            "-extfile san.ext\n"
            "q openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out expired.pem -days 0 "
            "-extfile san.ext\n"
            "q openssl req -x509 -newkey rsa:2048 -nodes -keyout self.key -out self.pem -days 2 -subj '/CN=localhost' "
            "-addext 'subjectAltName=DNS:localhost,IP:127.0.0.1'\n"
            "q openssl req -newkey rsa:2048 -nodes -keyout client.key -out client.csr -subj '/CN=load-tester'\n"
            "q openssl x509 -req -in client.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out client.pem -days 2\n")
            .arg(dir);
    QProcess sh;
    sh.start(QStringLiteral("bash"), {QStringLiteral("-c"), script});
    if (!sh.waitForFinished(60000) || sh.exitCode() != 0)
        return QStringLiteral("openssl failed: ") + QString::fromUtf8(sh.readAllStandardError());
    QThread::msleep(1100); // the expired certificate's last second passes
    return {};
}

Nginx::~Nginx()
{
    if (m_process.state() != QProcess::NotRunning) {
        m_process.terminate();
        m_process.waitForFinished(5000);
    }
}

bool Nginx::installed()
{
    return QFile::exists(QStringLiteral("/usr/sbin/nginx"));
}

bool Nginx::start(const QString& dir, const QString& servers, int probePort)
{
    m_dir = dir;
    const QString conf = QStringLiteral("daemon off; worker_processes 1; pid %1/nginx.pid; error_log %1/error.log;\n"
                                        "events { worker_connections 1024; }\n"
                                        "http { access_log %1/access.log; keepalive_requests 1000000;\n"
                                        "  client_body_temp_path %1; proxy_temp_path %1; fastcgi_temp_path %1;\n"
                                        "  uwsgi_temp_path %1; scgi_temp_path %1;\n%2 }\n")
                             .arg(dir, servers);
    QFile f(dir + QStringLiteral("/nginx.conf"));
    if (!f.open(QIODevice::WriteOnly) || f.write(conf.toUtf8()) < 0) {
        m_error = f.errorString();
        return false;
    }
    f.close();
    endsWithTest(m_process);
    m_process.start(QStringLiteral("/usr/sbin/nginx"),
                    {QStringLiteral("-c"), f.fileName(), QStringLiteral("-e"), dir + QStringLiteral("/error.log")});
    if (!m_process.waitForStarted()) {
        m_error = m_process.errorString();
        return false;
    }
    for (int i = 0; i < 50; ++i) {
        if (m_process.state() != QProcess::Running)
            break;
        const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in a{};
        a.sin_family = AF_INET;
        a.sin_port = htons(std::uint16_t(probePort));
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const bool up = ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
        ::close(fd);
        if (up) {
            QFile::resize(accessLog(), 0);
            return true;
        }
        QThread::msleep(100);
    }
    QFile err(dir + QStringLiteral("/error.log"));
    err.open(QIODevice::ReadOnly);
    m_error = QStringLiteral("nginx did not start: ") + QString::fromUtf8(err.readAll()) +
              QString::fromUtf8(m_process.readAllStandardError());
    return false;
}

qint64 Nginx::takeServedCount()
{
    QThread::msleep(200); // nginx writes its log line after the response
    QFile log(accessLog());
    if (!log.open(QIODevice::ReadOnly))
        return -1;
    const qint64 n = log.readAll().count('\n');
    log.close();
    QFile::resize(accessLog(), 0);
    return n;
}

AgentProcess::AgentProcess(const QString& tokenFile, const QString& name, const QStringList& extra, const QString& cpus)
{
    endsWithTest(m_process);
    const QStringList args = QStringList{QStringLiteral("agent"),
                                         QStringLiteral("--listen"),
                                         QStringLiteral("127.0.0.1:0"),
                                         QStringLiteral("--token-file"),
                                         tokenFile,
                                         QStringLiteral("--name"),
                                         name} +
                             extra;
    if (cpus.isEmpty())
        m_process.start(cliPath(), args);
    else
        m_process.start(QStringLiteral("taskset"), QStringList{QStringLiteral("-c"), cpus, cliPath()} + args);
    m_process.waitForStarted();
    QByteArray out;
    for (int i = 0; i < 100 && !out.contains('\n'); ++i) {
        m_process.waitForReadyRead(100);
        out += m_process.readAllStandardOutput();
    }
    if (out.startsWith("listening on "))
        m_address = QString::fromUtf8(out.mid(13).trimmed());
}

QString AgentProcess::err()
{
    m_process.waitForReadyRead(200); // no event loop here: let QProcess read what is there
    m_err += QString::fromUtf8(m_process.readAllStandardError());
    return m_err;
}

bool signalProcess(qint64 pid, int sig)
{
    return pid > 0 && ::kill(pid_t(pid), sig) == 0;
}

AgentProcess::~AgentProcess()
{
    signalProcess(m_process.processId(), SIGCONT);
    m_process.terminate();
    if (!m_process.waitForFinished(3000))
        m_process.kill();
    m_process.waitForFinished();
}

QString writeFile(const QTemporaryDir& dir, const char* name, const QByteArray& content)
{
    const QString path = dir.filePath(QString::fromLatin1(name));
    QFile f(path);
    f.open(QIODevice::WriteOnly);
    f.write(content);
    return path;
}

QByteArray digestOf(const QString& path)
{
    QFile f(path);
    f.open(QIODevice::ReadOnly);
    return QCryptographicHash::hash(f.readAll(), QCryptographicHash::Sha256);
}

} // namespace testsupport
