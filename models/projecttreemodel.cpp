#include "projecttreemodel.h"

#include <QSet>
#include <functional>

#include "enginetext.h"

#include "store/runlog.h"

#include "store/projectstore.h"

#include <QHash>
#include <QIcon>
#include <QMimeData>
#include <QPainter>
#include <QPixmap>
#include <QUndoCommand>
#include <QUndoStack>
#include <cmath>

using stampede::ItemKind;
using stampede::ProjectItem;
using stampede::RunInfo;
using stampede::RunLog;

struct ProjectTreeModel::Node
{
    enum class Synthetic : quint8
    {
        None,
        Runs, // the branch listing the project's runs
        Run
    };
    ProjectItem item;
    Synthetic synthetic = Synthetic::None;
    RunInfo run;
    Node* parent = nullptr;
    mutable bool loaded = false;
    mutable std::vector<std::unique_ptr<Node>> children;
};

namespace {
const QString kMime = QStringLiteral("application/x-stampede-item-ids");

// A small badge per kind: a coloured rounded square with the kind's letter.
// Drawn, not loaded, so that it looks the same with or without an icon theme.
QIcon kindIcon(ItemKind k)
{
    static QHash<int, QIcon> cache;
    if (const auto it = cache.constFind(int(k)); it != cache.constEnd())
        return *it;
    struct Look
    {
        QColor color;
        QChar letter;
    };
    const Look look = k == ItemKind::Collection ? Look{QColor(0x2e, 0x86, 0xc1), QLatin1Char('C')}
                      : k == ItemKind::Folder   ? Look{QColor(0xd4, 0xac, 0x0d), QLatin1Char('F')}
                      : k == ItemKind::Request  ? Look{QColor(0x22, 0x99, 0x54), QLatin1Char('R')}
                      : k == ItemKind::Scenario ? Look{QColor(0x88, 0x4e, 0xa0), QLatin1Char('S')}
                      : k == ItemKind::DataSet  ? Look{QColor(0xca, 0x6f, 0x1e), QLatin1Char('D')}
                      : k == ItemKind::Traffic  ? Look{QColor(0x17, 0xa5, 0x89), QLatin1Char('T')}
                                                : Look{QColor(0x71, 0x7d, 0x7e), QLatin1Char('E')};
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(look.color);
    p.setPen(Qt::NoPen);
    p.drawRoundedRect(QRectF(2, 2, 28, 28), 6, 6);
    QFont f = p.font();
    f.setBold(true);
    f.setPixelSize(18);
    p.setFont(f);
    p.setPen(Qt::white);
    p.drawText(QRectF(0, 0, 32, 32), Qt::AlignCenter, QString(look.letter));
    p.end();
    return cache[int(k)] = QIcon(pm);
}
// The run's verdict as a colour: passed green, running blue, anything else (failed, stopped, aborted) red.
QIcon runIcon(const QString& status, int passed)
{
    static QHash<QString, QIcon> cache;
    const QString key = status + QString::number(passed);
    if (const auto it = cache.constFind(key); it != cache.constEnd())
        return *it;
    const QColor color = status == QLatin1String("running") ? QColor(0x2e, 0x86, 0xc1)
                         : passed == 1                      ? QColor(0x1e, 0x84, 0x49)
                                                            : QColor(0xc0, 0x39, 0x2b);
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    p.drawEllipse(QRectF(4, 4, 24, 24));
    p.end();
    return cache[key] = QIcon(pm);
}
} // namespace

ProjectTreeModel::ProjectTreeModel(QObject* parent)
    : QAbstractItemModel(parent), m_root(std::make_unique<Node>()), m_undo(new QUndoStack(this))
{
}

ProjectTreeModel::~ProjectTreeModel() = default;

void ProjectTreeModel::setStore(stampede::ProjectStore* store)
{
    m_undo->clear();
    m_aliases.clear();
    beginResetModel();
    m_store = store;
    m_root = std::make_unique<Node>();
    m_runs.reset();
    if (m_store) {
        m_runs = std::make_unique<Node>();
        m_runs->synthetic = Node::Synthetic::Runs;
        m_runs->item.kind = ItemKind::Folder;
        m_runs->parent = m_root.get();
    }
    endResetModel();
}

void ProjectTreeModel::reload()
{
    beginResetModel();
    m_root = std::make_unique<Node>();
    if (m_runs) {
        m_runs->parent = m_root.get();
        m_runs->children.clear();
        m_runs->loaded = false;
    }
    endResetModel();
}

QModelIndex ProjectTreeModel::runsIndex() const
{
    return indexOf(m_runs.get());
}

void ProjectTreeModel::refreshRuns()
{
    if (!m_runs)
        return;
    const QModelIndex branch = runsIndex();
    if (m_runs->loaded && !m_runs->children.empty()) {
        beginRemoveRows(branch, 0, int(m_runs->children.size()) - 1);
        m_runs->children.clear();
        endRemoveRows();
    }
    m_runs->loaded = false;
    Node probe;
    probe.synthetic = Node::Synthetic::Runs;
    loadChildren(&probe);
    m_runs->loaded = true;
    if (!probe.children.empty()) {
        beginInsertRows(branch, 0, int(probe.children.size()) - 1);
        for (auto& c : probe.children) {
            c->parent = m_runs.get();
            m_runs->children.push_back(std::move(c));
        }
        endInsertRows();
    }
    Q_EMIT dataChanged(branch, branch);
}

void ProjectTreeModel::loadChildren(Node* node) const
{
    if (node->loaded)
        return;
    node->loaded = true;
    if (!m_store)
        return;
    if (node->synthetic == Node::Synthetic::Runs) {
        auto runs = RunLog(*m_store).runs();
        for (auto it = runs.rbegin(); it != runs.rend(); ++it) {
            auto child = std::make_unique<Node>();
            child->synthetic = Node::Synthetic::Run;
            child->item.kind = ItemKind::Request; // a leaf
            child->item.name = it->name;
            child->run = *it;
            child->parent = node;
            node->children.push_back(std::move(child));
        }
        return;
    }
    for (auto& item : m_store->children(node->item.id)) {
        auto child = std::make_unique<Node>();
        child->item = std::move(item);
        child->parent = node;
        node->children.push_back(std::move(child));
    }
}

ProjectTreeModel::Node* ProjectTreeModel::nodeOf(const QModelIndex& index) const
{
    return index.isValid() ? static_cast<Node*>(index.internalPointer()) : m_root.get();
}

QModelIndex ProjectTreeModel::indexOf(Node* node) const
{
    if (!node || node == m_root.get())
        return {};
    if (node == m_runs.get()) {
        loadChildren(m_root.get());
        return createIndex(int(m_root->children.size()), 0, node);
    }
    const auto& siblings = node->parent->children;
    for (std::size_t i = 0; i < siblings.size(); ++i)
        if (siblings[i].get() == node)
            return createIndex(int(i), 0, node);
    return {};
}

QModelIndex ProjectTreeModel::index(int row, int column, const QModelIndex& parent) const
{
    if (column != 0 || row < 0)
        return {};
    Node* p = nodeOf(parent);
    loadChildren(p);
    if (p == m_root.get() && m_runs && row == int(p->children.size()))
        return createIndex(row, 0, m_runs.get());
    if (row >= int(p->children.size()))
        return {};
    return createIndex(row, 0, p->children[std::size_t(row)].get());
}

QModelIndex ProjectTreeModel::parent(const QModelIndex& child) const
{
    if (!child.isValid())
        return {};
    return indexOf(nodeOf(child)->parent);
}

int ProjectTreeModel::rowCount(const QModelIndex& parent) const
{
    if (parent.column() > 0)
        return 0;
    Node* p = nodeOf(parent);
    if (parent.isValid() && p->item.kind != ItemKind::Collection && p->item.kind != ItemKind::Folder)
        return 0;
    loadChildren(p);
    return int(p->children.size()) + (p == m_root.get() && m_runs ? 1 : 0);
}

int ProjectTreeModel::columnCount(const QModelIndex&) const
{
    return 1;
}

QVariant ProjectTreeModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid())
        return {};
    const Node* n = nodeOf(index);
    if (n->synthetic != Node::Synthetic::None)
        return syntheticData(n, role);
    switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole:
        return QString::fromStdString(n->item.name);
    case Qt::DecorationRole:
        return kindIcon(n->item.kind);
    case IdRole:
        return qint64(n->item.id);
    case KindRole:
        return int(n->item.kind);
    case PayloadRole:
        return QByteArray::fromStdString(n->item.payload);
    case Qt::ToolTipRole:
        return QString::fromLatin1(stampede::itemKindName(n->item.kind));
    default:
        return {};
    }
}

QVariant ProjectTreeModel::syntheticData(const Node* n, int role) const
{
    const bool branch = n->synthetic == Node::Synthetic::Runs;
    const RunInfo& r = n->run;
    switch (role) {
    case Qt::DisplayRole:
        if (branch) {
            loadChildren(const_cast<Node*>(n));
            return tr("Runs (%1)").arg(n->children.size());
        }
        // "14:02 checkout · 60 s · completed"
        return tr("%1 %2 · %3 s · %4")
            .arg(QString::fromStdString(r.started).mid(5, 11).replace(QLatin1Char('T'), QLatin1Char(' ')),
                 QString::fromStdString(r.name))
            .arg(r.durationS, 0, 'f', r.durationS == std::floor(r.durationS) ? 0 : 1)
            .arg(verdictText(r.status, r.passed));
    case Qt::ToolTipRole:
        if (branch)
            return tr("The runs saved in this project; double-click one to open its report");
        return QString(
            tr("Run %1, started %2 (UTC)").arg(QString::fromStdString(r.runId), QString::fromStdString(r.started)) +
            (r.reason.empty() ? QString() : u'\n' + engineText(QString::fromStdString(r.reason))));
    case Qt::DecorationRole:
        return branch ? kindIcon(ItemKind::Folder) : runIcon(QString::fromStdString(r.status), r.passed);
    case KindRole:
        return -1;
    case RunRole:
        return qint64(branch ? 0 : r.id);
    case IdRole:
        return qint64(0);
    default:
        return {};
    }
}

Qt::ItemFlags ProjectTreeModel::flags(const QModelIndex& index) const
{
    if (!index.isValid())
        return Qt::ItemIsDropEnabled;
    if (nodeOf(index)->synthetic != Node::Synthetic::None)
        return Qt::ItemIsSelectable | Qt::ItemIsEnabled;
    Qt::ItemFlags f = Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable | Qt::ItemIsDragEnabled;
    const ItemKind k = nodeOf(index)->item.kind;
    if (k == ItemKind::Collection || k == ItemKind::Folder)
        f |= Qt::ItemIsDropEnabled;
    return f;
}

QVariant ProjectTreeModel::headerData(int section, Qt::Orientation o, int role) const
{
    if (section == 0 && o == Qt::Horizontal && role == Qt::DisplayRole)
        return tr("Project");
    return {};
}

Qt::DropActions ProjectTreeModel::supportedDropActions() const
{
    return Qt::MoveAction;
}

QStringList ProjectTreeModel::mimeTypes() const
{
    return {kMime};
}

QMimeData* ProjectTreeModel::mimeData(const QModelIndexList& indexes) const
{
    QByteArray ids;
    for (const auto& i : indexes)
        if (i.isValid())
            ids += QByteArray::number(qint64(nodeOf(i)->item.id)) + ' ';
    auto* m = new QMimeData;
    m->setData(kMime, ids.trimmed());
    return m;
}

bool ProjectTreeModel::canDropMimeData(const QMimeData* data, Qt::DropAction action, int, int,
                                       const QModelIndex& parent) const
{
    if (!data || !data->hasFormat(kMime) || action != Qt::MoveAction)
        return false;
    if (parent.isValid() && nodeOf(parent)->synthetic != Node::Synthetic::None)
        return false;
    const auto parentKind = parent.isValid() ? std::optional<ItemKind>(nodeOf(parent)->item.kind) : std::nullopt;
    for (const auto& id : data->data(kMime).split(' ')) {
        const auto item = m_store ? m_store->item(id.toLongLong()) : std::nullopt;
        if (!item || !stampede::mayContain(parentKind, item->kind))
            return false;
    }
    return true;
}

ProjectTreeModel::Node* ProjectTreeModel::find(Node* from, qint64 id) const
{
    if (from->item.id == id && from != m_root.get())
        return from;
    if (!from->loaded)
        loadChildren(from);
    for (auto& c : from->children)
        if (Node* n = find(c.get(), id))
            return n;
    return nullptr;
}

QModelIndex ProjectTreeModel::indexForId(qint64 id) const
{
    return indexOf(find(m_root.get(), id));
}

bool ProjectTreeModel::fail(const QString& message)
{
    m_error = message;
    Q_EMIT editFailed(message);
    return false;
}

qint64 ProjectTreeModel::resolve(qint64 id) const
{
    for (int guard = 0; guard < 1000 && m_aliases.contains(id); ++guard)
        id = m_aliases.value(id);
    return id;
}

qint64 ProjectTreeModel::applyAdd(qint64 parentId, ItemKind kind, const QString& name, const QByteArray& payload,
                                  int position)
{
    if (!m_store)
        return fail(tr("No project is open.")), 0;
    Node* p = parentId ? find(m_root.get(), parentId) : m_root.get();
    if (!p)
        return fail(tr("The item is gone.")), 0;
    loadChildren(p);
    if (position < 0 || position > int(p->children.size()))
        position = int(p->children.size());
    const qint64 id = m_store->addItem(parentId, kind, name.toStdString(), payload.toStdString(), position);
    if (!id)
        return fail(QString::fromStdString(m_store->lastError())), 0;
    beginInsertRows(indexOf(p), position, position);
    auto node = std::make_unique<Node>();
    node->item = *m_store->item(id);
    node->parent = p;
    p->children.insert(p->children.begin() + position, std::move(node));
    endInsertRows();
    return id;
}

bool ProjectTreeModel::applyRemove(qint64 id)
{
    Node* n = find(m_root.get(), id);
    if (!n || !m_store)
        return false;
    if (!m_store->remove(id))
        return fail(QString::fromStdString(m_store->lastError()));
    const QModelIndex index = indexOf(n);
    beginRemoveRows(index.parent(), index.row(), index.row());
    n->parent->children.erase(n->parent->children.begin() + index.row());
    endRemoveRows();
    return true;
}

bool ProjectTreeModel::applyRename(qint64 id, const QString& name)
{
    Node* n = find(m_root.get(), id);
    if (!n || !m_store)
        return false;
    if (!m_store->rename(id, name.toStdString()))
        return fail(QString::fromStdString(m_store->lastError()));
    n->item.name = name.toStdString();
    const QModelIndex index = indexOf(n);
    Q_EMIT dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole});
    return true;
}

bool ProjectTreeModel::applyMove(qint64 id, qint64 parentId, int position)
{
    if (!m_store || !m_store->move(id, parentId, position))
        return fail(m_store ? QString::fromStdString(m_store->lastError()) : tr("No project is open."));
    reload();
    return true;
}

#include "projecttreecommands.h"

QModelIndex ProjectTreeModel::addItem(const QModelIndex& parent, ItemKind kind, const QString& name,
                                      const QByteArray& payload)
{
    if (!m_store)
        return fail(tr("No project is open.")), QModelIndex();
    qint64 id = 0;
    m_undo->push(new AddCommand(this, nodeOf(parent)->item.id, kind, name, payload, &id));
    return id ? indexForId(id) : QModelIndex();
}

QModelIndex ProjectTreeModel::duplicateItem(const QModelIndex& index)
{
    if (!index.isValid() || !m_store || nodeOf(index)->synthetic != Node::Synthetic::None)
        return {};
    Node* n = nodeOf(index);
    // a copy is an add of the same item (with its children) next to it
    const qint64 copy = m_store->duplicate(n->item.id);
    if (!copy)
        return fail(QString::fromStdString(m_store->lastError())), QModelIndex();
    const QModelIndex parent = index.parent();
    const int row = index.row() + 1;
    beginInsertRows(parent, row, row);
    auto node = std::make_unique<Node>();
    node->item = *m_store->item(copy);
    node->parent = n->parent;
    n->parent->children.insert(n->parent->children.begin() + row, std::move(node));
    endInsertRows();
    m_undo->push(new DuplicatedCommand(this, copy, QString::fromStdString(n->item.name)));
    return indexForId(copy);
}

bool ProjectTreeModel::removeItem(const QModelIndex& index)
{
    if (!index.isValid() || !m_store || nodeOf(index)->synthetic != Node::Synthetic::None)
        return false;
    const int before = m_undo->count();
    m_undo->push(new RemoveCommand(this, nodeOf(index)->item.id, index.data().toString()));
    return m_undo->count() > before;
}

bool ProjectTreeModel::moveItem(const QModelIndex& index, const QModelIndex& newParent, int row)
{
    if (!index.isValid() || !m_store || nodeOf(index)->synthetic != Node::Synthetic::None)
        return false;
    const int before = m_undo->count();
    m_undo->push(
        new MoveCommand(this, nodeOf(index)->item.id, nodeOf(newParent)->item.id, row, index.data().toString()));
    return m_undo->count() > before;
}

bool ProjectTreeModel::setPayload(const QModelIndex& index, const QByteArray& payload)
{
    if (!index.isValid() || !m_store || nodeOf(index)->synthetic != Node::Synthetic::None)
        return false;
    Node* n = nodeOf(index);
    if (!m_store->setPayload(n->item.id, payload.toStdString()))
        return fail(QString::fromStdString(m_store->lastError()));
    n->item.payload = payload.toStdString();
    Q_EMIT dataChanged(index, index, {PayloadRole});
    return true;
}

bool ProjectTreeModel::editPayload(const QModelIndex& index, const QByteArray& payload)
{
    if (!index.isValid() || !m_store || nodeOf(index)->synthetic != Node::Synthetic::None)
        return false;
    Node* n = nodeOf(index);
    const QByteArray old = QByteArray::fromStdString(n->item.payload);
    if (old == payload)
        return true;
    m_undo->push(new PayloadCommand(this, n->item.id, QString::fromStdString(n->item.name), old, payload));
    return QByteArray::fromStdString(nodeOf(indexForId(n->item.id))->item.payload) == payload;
}

bool ProjectTreeModel::applyPayload(qint64 id, const QByteArray& payload, bool restored)
{
    const QModelIndex i = indexForId(id);
    if (!setPayload(i, payload))
        return false;
    if (restored)
        Q_EMIT payloadRestored(id, payload);
    return true;
}

bool ProjectTreeModel::setData(const QModelIndex& index, const QVariant& value, int role)
{
    if (!index.isValid() || role != Qt::EditRole || !m_store || nodeOf(index)->synthetic != Node::Synthetic::None)
        return false;
    Node* n = nodeOf(index);
    const QString name = value.toString().trimmed();
    const QString old = QString::fromStdString(n->item.name);
    if (name == old)
        return true;
    const int before = m_undo->count();
    m_undo->push(new RenameCommand(this, n->item.id, old, name));
    return m_undo->count() > before;
}

bool ProjectTreeModel::dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                                    const QModelIndex& parent)
{
    if (!canDropMimeData(data, action, row, column, parent))
        return false;
    const qint64 parentId = parent.isValid() ? nodeOf(parent)->item.id : 0;
    int at = row;
    if (!parent.isValid() && at > int(m_root->children.size()))
        at = int(m_root->children.size()); // below the Runs branch: the end of the items
    const QList<QByteArray> ids = data->data(kMime).split(' ');
    if (ids.size() > 1)
        m_undo->beginMacro(tr("Move %n item(s)", nullptr, int(ids.size())));
    for (const auto& id : ids) {
        const auto item = m_store->item(id.toLongLong());
        const int before = m_undo->count();
        m_undo->push(new MoveCommand(this, id.toLongLong(), parentId, at, QString::fromStdString(item->name)));
        if (m_undo->count() == before && ids.size() == 1)
            break;
        if (at >= 0)
            ++at;
    }
    if (ids.size() > 1)
        m_undo->endMacro();
    // The move has reloaded the tree; the view must not remove the source rows itself.
    return false;
}

QString ProjectTreeModel::statusText(const std::string& status)
{
    return status == "completed"            ? tr("completed")
           : status == "running"            ? tr("running")
           : status == "aborted"            ? tr("aborted")
           : status == "stopped"            ? tr("stopped when asked")
           : status == "interrupted"        ? tr("interrupted")
           : status == "stopped_by_breaker" ? tr("stopped by the breaker")
           : status == "stopped_by_step"    ? tr("stopped by a step")
           : status == "failed"             ? tr("failed")
                                            : QString::fromStdString(status);
}

QString ProjectTreeModel::verdictText(const std::string& status, int passed)
{
    if (status == "completed" && passed >= 0) // the stored verdict, as the exit code and every export give it
        return passed ? tr("passed") : tr("not passed");
    return statusText(status);
}

QString ProjectTreeModel::uniqueName(const QString& base) const
{
    QSet<QString> taken;
    std::function<void(const QModelIndex&)> collect = [&](const QModelIndex& under) {
        for (int r = 0; r < rowCount(under); ++r) {
            taken.insert(index(r, 0, under).data().toString());
            collect(index(r, 0, under));
        }
    };
    collect({});
    QString name = base;
    for (int n = 2; taken.contains(name); ++n)
        name = QStringLiteral("%1 %2").arg(base).arg(n);
    return name;
}
