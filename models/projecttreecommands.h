#pragma once
// The project tree's undo commands; included by projecttreemodel.cpp only.
#include "projecttreemodel.h"

#include "store/projectstore.h"

#include <QElapsedTimer>
#include <QUndoCommand>

using stampede::ItemKind;

// The undo commands: each remembers ids, never pointers or indexes, and finds
// the items again through resolve() when it runs.
class TreeCommand : public QUndoCommand
{
public:
    TreeCommand(ProjectTreeModel* m, const QString& text) : QUndoCommand(text), model(m) {}

protected:
    ProjectTreeModel* model;
    stampede::ProjectStore* store() const { return model->m_store; }
    qint64 resolve(qint64 id) const { return model->resolve(id); }
    qint64 add(qint64 parent, ItemKind k, const QString& n, const QByteArray& p, int pos)
    {
        return model->applyAdd(parent, k, n, p, pos);
    }
    bool remove(qint64 id) { return model->applyRemove(id); }
    bool rename(qint64 id, const QString& n) { return model->applyRename(id, n); }
    bool move(qint64 id, qint64 parent, int pos) { return model->applyMove(id, parent, pos); }
    bool payload(qint64 id, const QByteArray& p, bool restored) { return model->applyPayload(id, p, restored); }
    void alias(qint64 from, qint64 to) { model->alias(from, to); }
    void reload() { model->reload(); }
};

namespace {

// What a delete takes away, to put it back.
struct Snapshot
{
    stampede::ProjectItem item;
    std::vector<Snapshot> children;
    static Snapshot of(stampede::ProjectStore& s, const stampede::ProjectItem& it)
    {
        Snapshot snap{it, {}};
        for (const auto& c : s.children(it.id))
            snap.children.push_back(of(s, c));
        return snap;
    }
    // Recreates the children below `parent` in the store (the model loads them when shown).
    void restoreChildren(stampede::ProjectStore& s, qint64 parent, QHash<qint64, qint64>& ids) const
    {
        for (const auto& c : children) {
            const qint64 id = s.addItem(parent, c.item.kind, c.item.name, c.item.payload, c.item.position);
            ids[c.item.id] = id;
            c.restoreChildren(s, id, ids);
        }
    }
};

class AddCommand : public TreeCommand
{
public:
    AddCommand(ProjectTreeModel* m, qint64 parent, ItemKind k, const QString& name, const QByteArray& payload,
               qint64* result)
        : TreeCommand(m, ProjectTreeModel::tr("Add \"%1\"").arg(name)), m_parent(parent), m_kind(k), m_name(name),
          m_payload(payload), m_result(result)
    {
    }
    void redo() override
    {
        const qint64 id = add(resolve(m_parent), m_kind, m_name, m_payload, -1);
        if (!id) {
            setObsolete(true); // a refused add is not kept for undo
            return;
        }
        if (m_id)
            alias(m_id, id);
        else
            m_id = id;
        if (m_result) {
            *m_result = id;
            m_result = nullptr;
        }
    }
    void undo() override { remove(resolve(m_id)); }

private:
    qint64 m_parent;
    ItemKind m_kind;
    QString m_name;
    QByteArray m_payload;
    qint64* m_result;
    qint64 m_id = 0;
};

// A duplicate has already been made when this is pushed; undo deletes it, redo copies again.
class DuplicatedCommand : public TreeCommand
{
public:
    DuplicatedCommand(ProjectTreeModel* m, qint64 copy, const QString& name)
        : TreeCommand(m, ProjectTreeModel::tr("Duplicate \"%1\"").arg(name)), m_copy(copy)
    {
    }
    void redo() override
    {
        if (m_first) {
            m_first = false;
            return;
        }
        const auto& it = m_snapshot.item;
        const qint64 id = add(resolve(it.parentId), it.kind, QString::fromStdString(it.name),
                              QByteArray::fromStdString(it.payload), int(it.position));
        if (!id)
            return;
        alias(resolve(m_copy), id);
        QHash<qint64, qint64> ids;
        m_snapshot.restoreChildren(*store(), id, ids);
        for (auto i = ids.cbegin(); i != ids.cend(); ++i)
            alias(i.key(), i.value());
        if (!m_snapshot.children.empty())
            reload();
    }
    void undo() override
    {
        const auto it = store()->item(resolve(m_copy));
        if (!it)
            return;
        m_snapshot = Snapshot::of(*store(), *it);
        remove(it->id);
    }

private:
    qint64 m_copy;
    bool m_first = true;
    Snapshot m_snapshot;
};

class RemoveCommand : public TreeCommand
{
public:
    RemoveCommand(ProjectTreeModel* m, qint64 id, const QString& name)
        : TreeCommand(m, ProjectTreeModel::tr("Delete \"%1\"").arg(name)), m_id(id)
    {
    }
    void redo() override
    {
        const auto it = store()->item(resolve(m_id));
        if (!it) {
            setObsolete(true);
            return;
        }
        m_snapshot = Snapshot::of(*store(), *it);
        if (!remove(it->id))
            setObsolete(true);
    }
    void undo() override
    {
        const auto& it = m_snapshot.item;
        const qint64 id = add(resolve(it.parentId), it.kind, QString::fromStdString(it.name),
                              QByteArray::fromStdString(it.payload), int(it.position));
        if (!id)
            return;
        alias(resolve(m_id), id);
        QHash<qint64, qint64> ids;
        m_snapshot.restoreChildren(*store(), id, ids);
        for (auto i = ids.cbegin(); i != ids.cend(); ++i)
            alias(i.key(), i.value());
        if (!m_snapshot.children.empty())
            reload(); // the restored children show when their parent is loaded again
    }

private:
    qint64 m_id;
    Snapshot m_snapshot;
};

class RenameCommand : public TreeCommand
{
public:
    RenameCommand(ProjectTreeModel* m, qint64 id, const QString& from, const QString& to)
        : TreeCommand(m, ProjectTreeModel::tr("Rename \"%1\" to \"%2\"").arg(from, to)), m_id(id), m_from(from),
          m_to(to)
    {
    }
    void redo() override
    {
        if (!rename(resolve(m_id), m_to))
            setObsolete(true);
    }
    void undo() override { rename(resolve(m_id), m_from); }

private:
    qint64 m_id;
    QString m_from, m_to;
};

// An edit of an item's content (an environment's values, a data set, a
// scenario): consecutive edits of one item within a few seconds are one step.
class PayloadCommand : public TreeCommand
{
public:
    PayloadCommand(ProjectTreeModel* m, qint64 id, const QString& name, const QByteArray& from, const QByteArray& to)
        : TreeCommand(m, ProjectTreeModel::tr("Edit \"%1\"").arg(name)), m_id(id), m_from(from), m_to(to)
    {
        m_at.start();
    }
    int id() const override { return 1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = dynamic_cast<const PayloadCommand*>(other);
        if (!o || o->m_id != m_id || m_at.elapsed() > 3000)
            return false;
        m_to = o->m_to;
        m_at.restart();
        return true;
    }
    void redo() override
    {
        if (!payload(resolve(m_id), m_to, !m_first))
            setObsolete(true);
        m_first = false;
    }
    void undo() override { payload(resolve(m_id), m_from, true); }

private:
    qint64 m_id;
    QByteArray m_from, m_to;
    QElapsedTimer m_at;
    bool m_first = true;
};

class MoveCommand : public TreeCommand
{
public:
    MoveCommand(ProjectTreeModel* m, qint64 id, qint64 parent, int position, const QString& name)
        : TreeCommand(m, ProjectTreeModel::tr("Move \"%1\"").arg(name)), m_id(id), m_parent(parent),
          m_position(position)
    {
    }
    void redo() override
    {
        const auto it = store()->item(resolve(m_id));
        if (!it) {
            setObsolete(true);
            return;
        }
        m_oldParent = it->parentId;
        m_oldPosition = int(it->position);
        if (!move(it->id, resolve(m_parent), m_position))
            setObsolete(true);
    }
    void undo() override { move(resolve(m_id), resolve(m_oldParent), m_oldPosition); }

private:
    qint64 m_id, m_parent;
    int m_position;
    qint64 m_oldParent = 0;
    int m_oldPosition = 0;
};

} // namespace
