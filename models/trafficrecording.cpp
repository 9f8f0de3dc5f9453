#include "trafficrecording.h"

#include "store/projectstore.h"
#include "traffic/trafficstore.h"

#include "core/listensocket.h"

using namespace stampede;

namespace {

std::vector<std::string> masksOf(const QStringList& lines)
{
    std::vector<std::string> out;
    for (const QString& m : lines)
        if (!m.trimmed().isEmpty())
            out.push_back(m.trimmed().toStdString());
    return out;
}

bool filterOf(const TrafficRecording::Request& rq, RecordFilter& f, QString& error)
{
    f.host = rq.host.trimmed().toStdString();
    f.samplePercent = rq.samplePercent;
    for (const auto& [text, out, what] : {std::tuple{rq.include, &f.include, TrafficRecording::tr("Only paths")},
                                          std::tuple{rq.exclude, &f.exclude, TrafficRecording::tr("Not paths")}}) {
        if (text.trimmed().isEmpty())
            continue;
        std::string why;
        *out = Regex::compile(text.trimmed().toStdString(), why);
        if (!*out) {
            error = what + QStringLiteral(": ") + QString::fromStdString(why);
            return false;
        }
    }
    if (!(rq.samplePercent > 0) || rq.samplePercent > 100) {
        error = TrafficRecording::tr("The sample is a percentage above 0 and at most 100.");
        return false;
    }
    return true;
}

} // namespace

TrafficRecording::TrafficRecording(QObject* parent) : QObject(parent)
{
    m_timer.setInterval(1000);
    connect(&m_timer, &QTimer::timeout, this, &TrafficRecording::tick);
}

TrafficRecording::~TrafficRecording()
{
    if (m_recorder)
        m_recorder->stop();
    m_jobs.cancel();
    m_jobs.wait();
}

QString TrafficRecording::check(const Request& rq)
{
    std::string why;
    if (!validListenAddress(rq.listen.trimmed().toStdString(), why))
        return QString::fromStdString(why);
    if (rq.name.trimmed().isEmpty())
        return tr("Give the traffic set a name.");
    std::vector<MaskRule> rules;
    if (!parseMasks(masksOf(rq.masks), rules, why))
        return QString::fromStdString(why);
    RecordFilter f;
    QString error;
    filterOf(rq, f, error);
    return error;
}

bool TrafficRecording::start(const Request& rq, ProjectStore& store, QString& error)
{
    error = check(rq);
    if (!error.isEmpty() || m_recorder)
        return false;
    std::vector<MaskRule> rules;
    std::string why;
    parseMasks(masksOf(rq.masks), rules, why);
    TrafficStore traffic(store);
    if (traffic.find(rq.name.trimmed().toStdString())) {
        error = tr("The project already has a traffic set named \"%1\".").arg(rq.name.trimmed());
        return false;
    }
    const std::string key = rules.empty() ? std::string() : traffic.maskKey();
    if (!rules.empty() && key.empty()) {
        error = QString::fromStdString(traffic.error());
        return false;
    }
    Recorder::Options o;
    filterOf(rq, o.filter, error);
    auto recorder = std::make_unique<Recorder>(o);
    if (!recorder->start(rq.listen.trimmed().toStdString(), why)) {
        error = QString::fromStdString(why);
        return false;
    }
    m_summary = RecordingSummary{};
    m_summary.address = recorder->address();
    m_summary.masks = masksOf(rq.masks);
    m_item = traffic.create(rq.name.trimmed().toStdString(), m_summary.payload());
    if (!m_item) {
        error = QString::fromStdString(traffic.error());
        return false;
    }
    m_recorder = std::move(recorder);
    m_masker = std::make_shared<const Masker>(std::move(rules), key);
    m_store = &store;
    m_seq = 0;
    m_lastKept = 0;
    m_stopping = m_masking = false;
    m_error.clear();
    m_timer.start();
    return true;
}

QString TrafficRecording::address() const
{
    return m_recorder ? QString::fromStdString(m_recorder->address()) : QString();
}

void TrafficRecording::tick()
{
    if (!m_recorder)
        return;
    m_recorder->take(m_waiting);
    m_summary.counts = m_recorder->counts();
    const auto& c = m_summary.counts;
    Q_EMIT counted(c.kept, c.kept - m_lastKept, c.filtered, c.dropped, c.bad);
    m_lastKept = c.kept;
    storeNext();
}

// The requests taken, masked on the pool, then appended here (the project's
// connection is the GUI thread's); one batch at a time, in order.
void TrafficRecording::storeNext()
{
    if (m_masking)
        return;
    if (m_waiting.empty() && !m_stopping)
        return;
    m_masking = true;
    auto batch = std::make_shared<std::vector<TrafficRecord>>(std::move(m_waiting));
    m_waiting.clear();
    m_jobs.start(
        [batch, masker = m_masker] {
            for (TrafficRecord& r : *batch)
                masker->apply(r);       // before anything is stored
            return encodeChunk(*batch); // compressed here too: the GUI thread only writes it
        },
        [this](const TrafficChunk& chunk) {
            m_masking = false;
            m_summary.add(chunk);
            TrafficStore traffic(*m_store);
            m_summary.recording = !(m_stopping && m_waiting.empty());
            if (m_error.isEmpty() && !traffic.append(m_item, chunk.records ? m_seq : -1, chunk, m_summary.payload()))
                m_error = QString::fromStdString(traffic.error());
            m_seq += chunk.records ? 1 : 0;
            if (m_stopping && m_waiting.empty())
                finish();
            else
                storeNext();
        });
}

void TrafficRecording::stop()
{
    if (!m_recorder || m_stopping)
        return;
    m_timer.stop();
    m_recorder->stop();
    m_recorder->take(m_waiting);
    m_summary.counts = m_recorder->counts();
    m_stopping = true;
    storeNext();
}

void TrafficRecording::finish()
{
    m_recorder.reset();
    const auto& c = m_summary.counts;
    if (!m_error.isEmpty())
        return Q_EMIT finished(false, tr("The traffic could not be stored: %1").arg(m_error), m_item);
    if (!m_summary.records) {
        m_store->remove(m_item);
        return Q_EMIT finished(false,
                               tr("Nothing was recorded (%1 requests received, %2 filtered): no traffic set is kept.")
                                   .arg(c.received)
                                   .arg(c.filtered),
                               0);
    }
    Q_EMIT finished(true,
                    tr("%1 requests stored; %2 filtered, %3 dropped, %4 bad.")
                        .arg(m_summary.records)
                        .arg(c.filtered)
                        .arg(c.dropped)
                        .arg(c.bad),
                    m_item);
}
