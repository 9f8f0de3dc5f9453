#include "stagesmodel.h"

#include <QLocale>

#include "load/stageprofile.h"

#include <QJsonObject>

namespace {
const char* const kProtoKinds[] = {"STAGE_HOLD", "STAGE_RAMP", "STAGE_STEP", "STAGE_SPIKE"};

QString durationText(double s)
{
    return QString::number(s, 'g', 9) + QLatin1Char('s');
}
} // namespace

StagesModel::StagesModel(QObject* parent) : QAbstractTableModel(parent) {}

int StagesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_stages.size());
}

int StagesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QString StagesModel::kindName(Kind k)
{
    switch (k) {
    case Hold:
        return tr("hold");
    case Ramp:
        return tr("ramp");
    case Step:
        return tr("step");
    case Spike:
        return tr("spike");
    }
    return {};
}

QVariant StagesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_stages.size()))
        return {};
    const Stage& s = m_stages[index.row()];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case KindColumn:
            return role == Qt::EditRole ? QVariant(int(s.kind)) : QVariant(kindName(s.kind));
        case DurationColumn:
            return s.durationS;
        case TargetColumn:
            // edited as text: a number, or "keep" (hold the level before) for a hold
            if (role == Qt::EditRole)
                return s.hasTarget ? QString::number(s.target) : tr("keep");
            return s.hasTarget ? QVariant(s.target) : QVariant(tr("(keep)"));
        case StepsColumn:
            return s.kind == Step ? QVariant(s.steps) : QVariant();
        }
    }
    if (role == Qt::ToolTipRole) {
        switch (s.kind) {
        case Hold:
            return tr("Keep the target level (or the previous one) for the duration.");
        case Ramp:
            return tr("Change linearly from the previous level to the target over the duration.");
        case Step:
            return tr("Climb from the previous level to the target in equal steps at equal intervals.");
        case Spike:
            return tr("Jump to the target for the duration, then return to the previous level.");
        }
    }
    return {};
}

bool StagesModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole)
        return false;
    Stage& s = m_stages[index.row()];
    bool ok = true;
    switch (index.column()) {
    case KindColumn: {
        const int k = value.toInt(&ok);
        if (!ok || k < Hold || k > Spike)
            return false;
        s.kind = Kind(k);
        if (s.kind != Hold && !s.hasTarget) { // a ramp, step or spike goes somewhere: from the level before, shown
            s.target = 0;
            for (int before = index.row() - 1; before >= 0; --before)
                if (m_stages[before].hasTarget) {
                    s.target = m_stages[before].target;
                    break;
                }
            s.hasTarget = true;
        }
        break;
    }
    case DurationColumn: {
        const double d = value.toDouble(&ok);
        if (!ok || d <= 0)
            return false;
        s.durationS = d;
        break;
    }
    case TargetColumn: {
        const QString text = value.toString().trimmed();
        const bool keep = text.isEmpty() || text.compare(QLatin1String("keep"), Qt::CaseInsensitive) == 0 ||
                          text == tr("keep") || text == tr("(keep)") || text == QLatin1String("(keep)");
        if (keep) { // only a hold keeps the level before; the others go somewhere
            if (s.kind != Hold)
                return false;
            s.hasTarget = false;
            break;
        }
        const double t = QLocale().toDouble(text, &ok);
        const double c = ok ? t : text.toDouble(&ok); // the user's locale, or C's
        if (!ok || c < 0)
            return false;
        s.target = c;
        s.hasTarget = true;
        break;
    }
    case StepsColumn: {
        const int n = value.toInt(&ok);
        if (!ok || n < 1)
            return false;
        s.steps = n;
        break;
    }
    default:
        return false;
    }
    Q_EMIT dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    return true;
}

Qt::ItemFlags StagesModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    if (index.column() != StepsColumn || m_stages[index.row()].kind == Step)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant StagesModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, o, role);
    switch (section) {
    case KindColumn:
        return tr("Stage");
    case DurationColumn:
        return tr("Duration (s)");
    case TargetColumn:
        return tr("Target");
    case StepsColumn:
        return tr("Steps");
    }
    return {};
}

bool StagesModel::insertRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || row > int(m_stages.size()) || count < 1)
        return false;
    beginInsertRows(parent, row, row + count - 1);
    for (int i = 0; i < count; ++i) {
        Stage hold; // a new stage holds the level it finds ("keep"): never a silent target of 0
        hold.hasTarget = false;
        m_stages.insert(row, hold);
    }
    endInsertRows();
    return true;
}

bool StagesModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > int(m_stages.size()))
        return false;
    beginRemoveRows(parent, row, row + count - 1);
    m_stages.remove(row, count);
    endRemoveRows();
    return true;
}

void StagesModel::setStages(const QList<Stage>& stages)
{
    beginResetModel();
    m_stages = stages;
    endResetModel();
}

QJsonArray StagesModel::toJson() const
{
    QJsonArray out;
    for (const Stage& s : m_stages) {
        QJsonObject o{{QStringLiteral("kind"), QString::fromLatin1(kProtoKinds[s.kind])},
                      {QStringLiteral("duration"), durationText(s.durationS)}};
        if (s.hasTarget)
            o[QStringLiteral("target")] = s.target;
        if (s.kind == Step)
            o[QStringLiteral("steps")] = s.steps;
        out.append(o);
    }
    return out;
}

void StagesModel::fromJson(const QJsonArray& stages)
{
    QList<Stage> list;
    for (const auto& v : stages) {
        const QJsonObject o = v.toObject();
        Stage s;
        const QString kind = o.value(QStringLiteral("kind")).toString(QStringLiteral("STAGE_HOLD"));
        for (int k = 0; k < 4; ++k)
            if (kind == QLatin1String(kProtoKinds[k]))
                s.kind = Kind(k);
        QString d = o.value(QStringLiteral("duration")).toString(QStringLiteral("10s"));
        d.chop(1);
        s.durationS = d.toDouble();
        s.hasTarget = o.contains(QStringLiteral("target"));
        s.target = o.value(QStringLiteral("target")).toDouble();
        s.steps = o.value(QStringLiteral("steps")).toInt(5);
        list.append(s);
    }
    setStages(list);
}

double StagesModel::totalSeconds() const
{
    double t = 0;
    for (const Stage& s : m_stages)
        t += s.durationS;
    return t;
}

QList<QPointF> StagesModel::preview(double initialLevel, double durationS) const
{
    std::vector<stampede::StageSpec> specs;
    for (const Stage& s : m_stages) {
        stampede::StageSpec spec;
        spec.kind = stampede::StageSpec::Kind(int(s.kind));
        spec.duration = stampede::Nanos(s.durationS * 1e9);
        if (s.hasTarget)
            spec.target = s.target;
        spec.steps = unsigned(s.steps);
        specs.push_back(spec);
    }
    const auto profile = stampede::StageProfile::build(initialLevel, specs, stampede::Nanos(durationS * 1e9));
    QList<QPointF> points;
    for (const auto& seg : profile.segments()) {
        const double a = double(seg.start) / 1e9, b = double(seg.end) / 1e9;
        if (points.isEmpty() || points.last() != QPointF(a, seg.from))
            points.append(QPointF(a, seg.from));
        points.append(QPointF(b, seg.to));
    }
    return points;
}
