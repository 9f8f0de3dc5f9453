#include "trafficimporter.h"

#include "store/projectstore.h"
#include "traffic/masking.h"
#include "traffic/trafficimport.h"
#include "traffic/trafficshape.h"
#include "traffic/trafficstore.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTimeZone>

using namespace stampede;

namespace {

bool rulesOf(const QStringList& masks, std::vector<MaskRule>& rules, QString& error)
{
    for (const QString& text : masks) {
        if (text.trimmed().isEmpty())
            continue;
        std::string why;
        auto r = MaskRule::parse(text.trimmed().toStdString(), why);
        if (r.empty()) {
            error = QString::fromStdString(why);
            return false;
        }
        rules.insert(rules.end(), r.begin(), r.end());
    }
    return true;
}

bool isHar(const TrafficImporter::Request& rq)
{
    return rq.format == QLatin1String("har");
}

// Reads the whole file (or, with `limitBytes`, its first lines) into `out`.
bool read(const TrafficImporter::Request& rq, TrafficImport& out, QString& error, const ImportProgress& progress,
          qint64 limitBytes = 0)
{
    std::string why;
    if (isHar(rq)) {
        if (!importHar(rq.file.toStdString(), out, why)) {
            error = QString::fromStdString(why);
            return false;
        }
        return true;
    }
    std::optional<LogFormat> custom;
    if (rq.format != QLatin1String("combined")) {
        custom = LogFormat::compile(rq.format.toStdString(), why);
        if (!custom) {
            error = QString::fromStdString(why);
            return false;
        }
    }
    const LogFormat& format = custom ? *custom : LogFormat::combined();
    if (limitBytes) {
        QFile f(rq.file);
        if (!f.open(QIODevice::ReadOnly)) {
            error = f.errorString();
            return false;
        }
        const QByteArray head = f.read(limitBytes);
        importLogText(std::string_view(head.constData(), std::size_t(head.lastIndexOf('\n') + 1)), format, out);
        return true;
    }
    if (!importLog(rq.file.toStdString(), format, out, why, progress)) {
        error = QString::fromStdString(why);
        return false;
    }
    return true;
}

QString shown(const TrafficRecord& r)
{
    QString s = QString::fromStdString(r.method + " " + r.target);
    QStringList headers;
    for (const auto& [n, v] : r.headers)
        headers << QString::fromStdString(n + ": " + v);
    if (!headers.isEmpty())
        s += QStringLiteral("  [") + headers.join(QStringLiteral("; ")) + QLatin1Char(']');
    if (!r.body.empty())
        s += QStringLiteral("  ") + QString::fromStdString(r.body.substr(0, 200));
    return s;
}

QString iso(std::int64_t nanos)
{
    return QDateTime::fromMSecsSinceEpoch(nanos / 1000000, Qt::UTC).toString(Qt::ISODateWithMs);
}

} // namespace

TrafficImporter::TrafficImporter(QObject* parent) : QObject(parent) {}

TrafficImporter::~TrafficImporter()
{
    m_cancel = true;
    m_jobs.cancel();
    m_jobs.wait();
}

QString TrafficImporter::check(const Request& rq)
{
    if (rq.file.isEmpty())
        return tr("Choose the file to import.");
    if (!QFileInfo(rq.file).isFile())
        return tr("\"%1\" is not a file.").arg(rq.file);
    std::vector<MaskRule> rules;
    QString error;
    if (!rulesOf(rq.masks, rules, error))
        return error;
    std::string why;
    if (!isHar(rq) && rq.format != QLatin1String("combined") && !LogFormat::compile(rq.format.toStdString(), why))
        return QString::fromStdString(why);
    return {};
}

bool TrafficImporter::preview(const Request& rq, const QString& key, int n, QList<PreviewRow>& rows, QString& error)
{
    error = check(rq);
    if (!error.isEmpty())
        return false;
    std::vector<MaskRule> rules;
    rulesOf(rq.masks, rules, error);
    TrafficImport in;
    if (!read(rq, in, error, {}, 256 * 1024))
        return false;
    const Masker masker(rules, key.toStdString());
    rows.clear();
    for (std::size_t i = 0; i < in.records.size() && int(i) < n; ++i) {
        TrafficRecord masked = in.records[i];
        std::vector<std::size_t> perRule;
        masker.apply(masked, &perRule);
        // a preset's rules count under its name, in the order written
        QList<QPair<QString, std::size_t>> byRule;
        for (std::size_t r = 0; r < rules.size(); ++r) {
            const QString text = QString::fromStdString(rules[r].text);
            if (byRule.isEmpty() || byRule.back().first != text)
                byRule.append({text, 0});
            byRule.back().second += perRule[r];
        }
        QStringList changes;
        for (const auto& [text, count] : byRule)
            if (count)
                changes << QStringLiteral("%1 ×%2").arg(text).arg(count);
        rows.append({shown(in.records[i]), shown(masked), changes.join(QStringLiteral(", "))});
    }
    if (rows.isEmpty())
        error = tr("No line of the file's beginning could be read.");
    return !rows.isEmpty();
}

bool TrafficImporter::start(const Request& rq, ProjectStore& store)
{
    if (m_running || !check(rq).isEmpty())
        return false;
    std::vector<MaskRule> rules;
    QString error;
    rulesOf(rq.masks, rules, error);
    TrafficStore traffic(store);
    const std::string key = rules.empty() ? std::string() : traffic.maskKey();
    if (!rules.empty() && key.empty())
        return false;
    m_cancel = false;
    m_running = true;
    struct Result
    {
        std::shared_ptr<TrafficImport> in = std::make_shared<TrafficImport>();
        QString error;
    };
    QPointer<TrafficImporter> self(this);
    m_jobs.start(
        [this, rq, rules, key] {
            Result r;
            int last = -1;
            const bool ok = read(rq, *r.in, r.error, [this, &last](double f) {
                const int percent = int(f * 100);
                if (percent != last) {
                    last = percent;
                    QMetaObject::invokeMethod(
                        this, [this, percent] { Q_EMIT progress(percent); }, Qt::QueuedConnection);
                }
                return !m_cancel.load();
            });
            if (ok && !r.in->cancelled) {
                const Masker masker(rules, key);
                for (TrafficRecord& t : r.in->records)
                    masker.apply(t); // before anything is stored
            }
            if (!ok && r.error.isEmpty())
                r.error = tr("The file could not be read.");
            return r;
        },
        [this, rq, &store](Result r) {
            m_running = false;
            if (!r.error.isEmpty())
                return Q_EMIT finished(false, r.error, 0);
            if (r.in->cancelled)
                return Q_EMIT finished(false, tr("Import cancelled: nothing was stored."), 0);
            if (r.in->records.empty())
                return Q_EMIT finished(false, tr("None of the %1 lines could be read.").arg(r.in->lines), 0);
            QJsonArray masks, problems;
            for (const QString& m : rq.masks)
                if (!m.trimmed().isEmpty())
                    masks.append(m.trimmed());
            for (const TrafficProblem& p : r.in->problems) // without the line's own text, which masking has not seen
                problems.append(
                    QJsonObject{{QStringLiteral("line"), qint64(p.line)},
                                {QStringLiteral("why"),
                                 QString::fromStdString(p.why).replace(QRegularExpression(QStringLiteral("\"[^\"]*\"")),
                                                                       QStringLiteral("\"...\""))}});
            const QJsonObject payload{{QStringLiteral("source"), QFileInfo(rq.file).fileName()},
                                      {QStringLiteral("format"), rq.format},
                                      {QStringLiteral("records"), qint64(r.in->records.size())},
                                      {QStringLiteral("lines"), qint64(r.in->lines)},
                                      {QStringLiteral("bad"), qint64(r.in->bad)},
                                      {QStringLiteral("first"), iso(r.in->records.front().atNanos)},
                                      {QStringLiteral("last"), iso(r.in->records.back().atNanos)},
                                      {QStringLiteral("masks"), masks},
                                      {QStringLiteral("problems"), problems}};
            TrafficStore traffic(store);
            const QString name = rq.name.isEmpty() ? QFileInfo(rq.file).fileName() : rq.name;
            const std::int64_t id = traffic.save(name.toStdString(), r.in->records,
                                                 QJsonDocument(payload).toJson(QJsonDocument::Compact).toStdString());
            if (!id)
                return Q_EMIT finished(false, QString::fromStdString(traffic.error()), 0);
            Q_EMIT finished(true,
                            tr("%1 requests stored as \"%2\"; %3 of %4 lines could not be read")
                                .arg(r.in->records.size())
                                .arg(name)
                                .arg(r.in->bad)
                                .arg(r.in->lines),
                            id);
        });
    return true;
}

QStringList TrafficImporter::presets()
{
    QStringList out;
    for (const auto& p : maskPresets())
        out << QString::fromStdString(p);
    return out;
}

QStringList TrafficImporter::defaultMasks()
{
    QStringList out;
    for (const auto& p : stampede::defaultMasks())
        out << QString::fromStdString(p);
    return out;
}

QString TrafficImporter::masksToolTip()
{
    return tr("One rule per line, applied before anything is stored: FIELD:NAME=ACTION with FIELD query, header, "
              "json, form, cookie or regex (a NAME may list several: query:token|sign=hash) and ACTION hash (stable "
              "per project), replace:TEXT or drop; or preset:NAME (%1)")
        .arg(presets().join(QStringLiteral(", ")));
}

QByteArray TrafficImporter::trafficSet(stampede::ProjectStore& store, const QString& name)
{
    stampede::TrafficStore traffic(store);
    std::vector<std::string> chunks;
    const std::int64_t item = traffic.find(name.toStdString());
    if (!item || !traffic.chunks(item, chunks))
        return {};
    return QByteArray::fromStdString(stampede::trafficSetOfChunks(chunks));
}

std::function<QByteArray(const QString&)> TrafficImporter::trafficSource(const QString& projectPath)
{
    return [path = projectPath.toStdString()](const QString& name) {
        std::string error;
        const auto store = ProjectStore::openReadOnly(path, error);
        return store ? trafficSet(*store, name) : QByteArray();
    };
}

QString TrafficImporter::maskKey(ProjectStore& store)
{
    return QString::fromStdString(TrafficStore(store).maskKey());
}

std::function<TrafficImporter::Shape(const JobRunner::Cancelled&)>
TrafficImporter::shapeJob(ProjectStore& store, qint64 item, QString& error)
{
    std::vector<std::string> blobs;
    TrafficStore traffic(store);
    if (!traffic.chunks(item, blobs)) {
        error = QString::fromStdString(traffic.error());
        return {};
    }
    return [blobs = std::move(blobs)](const JobRunner::Cancelled& cancelled) {
        Shape out;
        std::vector<TrafficRecord> records;
        for (const std::string& b : blobs)
            if (cancelled() || !decodeTraffic(b, records)) // a view closed, or showing another set: stop
                return out;
        const TrafficShape shape = shapeOf(records, 20);
        out.ok = true;
        for (std::size_t k = 0; k < shape.perSecond.size(); ++k)
            out.perSecond.append(QPointF(double(k), double(shape.perSecond[k])));
        for (const auto& [path, n] : shape.topPaths)
            out.paths.append({QString::fromStdString(path), n});
        QStringList methods;
        for (const auto& [m, n] : shape.methods)
            methods << QStringLiteral("%1 %2").arg(QString::fromStdString(m)).arg(n);
        out.methods = methods.join(QStringLiteral(", "));
        out.clients = shape.clients;
        out.peak = shape.peak;
        return out;
    };
}
