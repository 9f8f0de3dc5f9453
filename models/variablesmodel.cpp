#include "variablesmodel.h"

#include <QColor>
#include <QJsonObject>
#include <QRegularExpression>

namespace {
const QRegularExpression kRange(QStringLiteral("^\\s*(-?\\d+)\\s*\\.\\.\\s*(-?\\d+)\\s*(?:step\\s+(\\d+))?\\s*$"));
}

VariablesModel::VariablesModel(QObject* parent) : QAbstractTableModel(parent) {}

QString VariablesModel::sourceName(Source s)
{
    switch (s) {
    case Constant:
        return tr("constant");
    case Increment:
        return tr("increment");
    case RandomInt:
        return tr("random integer");
    case RandomString:
        return tr("random string");
    case Uuid:
        return tr("UUID");
    case DataSet:
        return tr("data set");
    }
    return {};
}

QString VariablesModel::checkSettings(Source source, const QString& s)
{
    switch (source) {
    case Constant:
    case Uuid:
        return {};
    case Increment:
    case RandomInt: {
        const auto m = kRange.match(s);
        if (!m.hasMatch() || (source == RandomInt && !m.captured(3).isEmpty()))
            return source == Increment ? tr("write MIN..MAX, optionally with step N, e.g. 1..1000 step 1")
                                       : tr("write MIN..MAX, e.g. 1..100");
        if (m.captured(2).toLongLong() < m.captured(1).toLongLong())
            return tr("MAX must not be below MIN");
        if (!m.captured(3).isEmpty() && m.captured(3).toLongLong() < 1)
            return tr("the step must be at least 1");
        return {};
    }
    case RandomString: {
        bool ok = false;
        const int n = s.trimmed().toInt(&ok);
        return ok && n >= 1 && n <= 65536 ? QString() : tr("write the length, from 1 to 65536");
    }
    case DataSet: {
        const QString mode = s.trimmed();
        static const QRegularExpression checkout(QStringLiteral("^checkout( [0-9]+(ms|s|m))?$"));
        return mode.isEmpty() || mode == QLatin1String("wrap") || mode == QLatin1String("stop") ||
                       mode == QLatin1String("per-user") || checkout.match(mode).hasMatch()
                   ? QString()
                   : tr("write wrap, stop, per-user or checkout (an account pool; checkout 2s: wait up to 2 s "
                        "for a free row)");
    }
    }
    return {};
}

int VariablesModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_vars.size());
}

int VariablesModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VariablesModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= int(m_vars.size()))
        return {};
    const Variable& v = m_vars[index.row()];
    if (role == Qt::DisplayRole || role == Qt::EditRole) {
        switch (index.column()) {
        case NameColumn:
            return v.name;
        case SourceColumn:
            return role == Qt::EditRole ? QVariant(int(v.source)) : QVariant(sourceName(v.source));
        case SettingsColumn:
            return v.settings;
        case UsedColumn:
            return usedBy(v.name).join(QStringLiteral(", "));
        }
    }
    if (role == Qt::ToolTipRole && index.column() == SettingsColumn) {
        const QString problem = checkSettings(v.source, v.settings);
        return problem.isEmpty() ? QVariant() : QVariant(problem);
    }
    if (role == Qt::ForegroundRole && index.column() == SettingsColumn &&
        !checkSettings(v.source, v.settings).isEmpty())
        return QColor(0xc0, 0x39, 0x2b);
    return {};
}

bool VariablesModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole)
        return false;
    Variable& v = m_vars[index.row()];
    switch (index.column()) {
    case NameColumn: {
        const QString name = value.toString().trimmed();
        static const QRegularExpression valid(QStringLiteral("^[A-Za-z_][A-Za-z0-9_-]*$"));
        if (!valid.match(name).hasMatch())
            return false;
        v.name = name;
        break;
    }
    case SourceColumn: {
        const int s = value.toInt();
        if (s < Constant || s > DataSet)
            return false;
        v.source = Source(s);
        v.settings = v.source == Increment      ? QStringLiteral("1..1000000 step 1")
                     : v.source == RandomInt    ? QStringLiteral("1..100")
                     : v.source == RandomString ? QStringLiteral("16")
                     : v.source == DataSet      ? QStringLiteral("wrap")
                                                : QString();
        break;
    }
    case SettingsColumn:
        v.settings = value.toString();
        break;
    default:
        return false;
    }
    Q_EMIT dataChanged(this->index(index.row(), 0), this->index(index.row(), ColumnCount - 1));
    return true;
}

Qt::ItemFlags VariablesModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::NoItemFlags;
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    if (index.column() != UsedColumn)
        f |= Qt::ItemIsEditable;
    return f;
}

QVariant VariablesModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (o != Qt::Horizontal)
        return QAbstractTableModel::headerData(section, o, role);
    if (role == Qt::DisplayRole) {
        switch (section) {
        case NameColumn:
            return tr("Variable");
        case SourceColumn:
            return tr("Source");
        case SettingsColumn:
            return tr("Settings");
        case UsedColumn:
            return tr("Used by");
        }
    }
    if (role == Qt::ToolTipRole && section == SettingsColumn)
        return tr("constant: the value · increment: 1..1000 step 1 · random integer: 1..100 · "
                  "random string: its length · data set: wrap, stop, per-user or checkout (an account pool: each "
                  "iteration holds a row no other user holds, on any engine; \"checkout 2s\" waits up to 2 s for "
                  "one, 10 s by default)");
    return {};
}

bool VariablesModel::insertRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || row > int(m_vars.size()) || count < 1)
        return false;
    beginInsertRows(parent, row, row + count - 1);
    for (int i = 0; i < count; ++i)
        m_vars.insert(row, Variable{QStringLiteral("var%1").arg(m_vars.size() + 1), Constant, QString()});
    endInsertRows();
    return true;
}

bool VariablesModel::removeRows(int row, int count, const QModelIndex& parent)
{
    if (parent.isValid() || row < 0 || count < 1 || row + count > int(m_vars.size()))
        return false;
    beginRemoveRows(parent, row, row + count - 1);
    m_vars.remove(row, count);
    endRemoveRows();
    return true;
}

void VariablesModel::fromJson(const QJsonArray& variables)
{
    QList<Variable> list;
    for (const auto& value : variables) {
        const QJsonObject o = value.toObject();
        Variable v;
        v.name = o.value(QStringLiteral("name")).toString();
        if (o.contains(QStringLiteral("constant"))) {
            v.source = Constant;
            v.settings = o.value(QStringLiteral("constant")).toObject().value(QStringLiteral("value")).toString();
        } else if (o.contains(QStringLiteral("increment"))) {
            const QJsonObject i = o.value(QStringLiteral("increment")).toObject();
            v.source = Increment;
            // int64 values travel as strings in proto3 JSON
            v.settings = QStringLiteral("%1..%2 step %3")
                             .arg(i.value(QStringLiteral("min")).toVariant().toLongLong())
                             .arg(i.value(QStringLiteral("max")).toVariant().toLongLong())
                             .arg(std::max<qlonglong>(1, i.value(QStringLiteral("step")).toVariant().toLongLong()));
        } else if (o.contains(QStringLiteral("randomInt"))) {
            const QJsonObject r = o.value(QStringLiteral("randomInt")).toObject();
            v.source = RandomInt;
            v.settings = QStringLiteral("%1..%2")
                             .arg(r.value(QStringLiteral("min")).toVariant().toLongLong())
                             .arg(r.value(QStringLiteral("max")).toVariant().toLongLong());
        } else if (o.contains(QStringLiteral("randomString"))) {
            v.source = RandomString;
            v.settings = QString::number(
                o.value(QStringLiteral("randomString")).toObject().value(QStringLiteral("length")).toInt());
        } else if (o.contains(QStringLiteral("uuid"))) {
            v.source = Uuid;
        } else if (o.contains(QStringLiteral("csv"))) {
            v.source = DataSet;
            const QJsonObject csv = o.value(QStringLiteral("csv")).toObject();
            const QString mode = csv.value(QStringLiteral("mode")).toString();
            const QString wait = csv.value(QStringLiteral("checkoutWait")).toString();
            v.settings = mode == QLatin1String("CSV_MODE_STOP")       ? QStringLiteral("stop")
                         : mode == QLatin1String("CSV_MODE_PER_USER") ? QStringLiteral("per-user")
                         : mode == QLatin1String("CSV_MODE_CHECKOUT")
                             ? (wait.isEmpty() ? QStringLiteral("checkout") : QStringLiteral("checkout ") + wait)
                             : QStringLiteral("wrap");
        }
        list.append(v);
    }
    beginResetModel();
    m_vars = list;
    endResetModel();
}

QJsonArray VariablesModel::toJson(const std::function<QString(const QString&)>& csvOf) const
{
    QJsonArray out;
    for (const Variable& v : m_vars) {
        QJsonObject o{{QStringLiteral("name"), v.name}};
        const auto range = kRange.match(v.settings);
        switch (v.source) {
        case Constant:
            o[QStringLiteral("constant")] = QJsonObject{{QStringLiteral("value"), v.settings}};
            break;
        case Increment:
            o[QStringLiteral("increment")] = QJsonObject{
                {QStringLiteral("min"), range.captured(1)},
                {QStringLiteral("max"), range.captured(2)},
                {QStringLiteral("step"), range.captured(3).isEmpty() ? QStringLiteral("1") : range.captured(3)}};
            break;
        case RandomInt:
            o[QStringLiteral("randomInt")] =
                QJsonObject{{QStringLiteral("min"), range.captured(1)}, {QStringLiteral("max"), range.captured(2)}};
            break;
        case RandomString:
            o[QStringLiteral("randomString")] = QJsonObject{{QStringLiteral("length"), v.settings.trimmed().toInt()}};
            break;
        case Uuid:
            o[QStringLiteral("uuid")] = QJsonObject();
            break;
        case DataSet: {
            const QString mode = v.settings.trimmed();
            const bool checkout = mode.startsWith(QLatin1String("checkout"));
            QJsonObject csv{{QStringLiteral("data"), csvOf ? csvOf(v.name) : QString()},
                            {QStringLiteral("mode"), mode == QLatin1String("stop") ? QStringLiteral("CSV_MODE_STOP")
                                                     : mode == QLatin1String("per-user")
                                                         ? QStringLiteral("CSV_MODE_PER_USER")
                                                     : checkout ? QStringLiteral("CSV_MODE_CHECKOUT")
                                                                : QStringLiteral("CSV_MODE_WRAP")}};
            if (checkout && mode.size() > 9)
                csv[QStringLiteral("checkoutWait")] = mode.mid(9).trimmed();
            o[QStringLiteral("csv")] = csv;
            break;
        }
        }
        out.append(o);
    }
    return out;
}

void VariablesModel::setUsageText(const QList<QPair<QString, QString>>& stepTexts)
{
    m_steps = stepTexts;
    if (!m_vars.isEmpty())
        Q_EMIT dataChanged(index(0, UsedColumn), index(int(m_vars.size()) - 1, UsedColumn));
}

QStringList VariablesModel::usedBy(const QString& name) const
{
    QStringList out;
    const QString plain = QStringLiteral("${") + name + QLatin1Char('}');
    const QString column = QStringLiteral("${") + name + QLatin1Char('.');
    for (const auto& [step, text] : m_steps)
        if (text.contains(plain) || text.contains(column))
            out << step;
    return out;
}
