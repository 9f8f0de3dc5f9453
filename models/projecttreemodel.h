#pragma once
// The project tree: collections, folders, requests, scenarios, data sets and
// environments of one project, straight from its store. Every edit made
// through the model (rename, add, remove, duplicate, move by drag and drop) is
// written to the store at once; there is no separate save.
#include <QAbstractItemModel>

#include "store/projectstore.h" // the project file the model shows, and its kinds of item
#include <QHash>

#include <memory>
#include <vector>

namespace stampede {
class ProjectStore;
enum class ItemKind;
} // namespace stampede

class QUndoStack;

class ProjectTreeModel : public QAbstractItemModel
{
    Q_OBJECT
public:
    // A run's status in words of the interface's language ("completed" ...).
    static QString statusText(const std::string& status);
    // A run's status with its stored verdict: "passed" or "failed" for a completed run, else its status.
    static QString verdictText(const std::string& status, int passed);
    enum Role
    {
        IdRole = Qt::UserRole + 1,
        KindRole, // the item's ItemKind; -1 for the Runs branch and its runs
        PayloadRole,
        RunRole // a run's row id in the project (the branch "Runs" lists them); 0 for items
    };

    explicit ProjectTreeModel(QObject* parent = nullptr);
    ~ProjectTreeModel() override;

    // The model does not own the store; nullptr shows an empty tree.
    void setStore(stampede::ProjectStore* store);
    stampede::ProjectStore* store() const { return m_store; }

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;

    Qt::DropActions supportedDropActions() const override;
    QStringList mimeTypes() const override;
    QMimeData* mimeData(const QModelIndexList& indexes) const override;
    bool canDropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                         const QModelIndex& parent) const override;
    bool dropMimeData(const QMimeData* data, Qt::DropAction action, int row, int column,
                      const QModelIndex& parent) override;

    // `base`, or "base 2", "base 3"…: a name no item of the project has yet.
    QString uniqueName(const QString& base) const;
    // Edits; each returns the new item's index (or an invalid one, with lastError()).
    QModelIndex addItem(const QModelIndex& parent, stampede::ItemKind kind, const QString& name,
                        const QByteArray& payload = QByteArrayLiteral("{}"));
    QModelIndex duplicateItem(const QModelIndex& index);
    bool removeItem(const QModelIndex& index);
    bool moveItem(const QModelIndex& index, const QModelIndex& newParent, int row);
    bool setPayload(const QModelIndex& index, const QByteArray& payload);
    // The same as an undoable step (Edit → Undo): an environment's, a data
    // set's or a scenario's content as its editor changes it.
    bool editPayload(const QModelIndex& index, const QByteArray& payload);
    QModelIndex indexForId(qint64 id) const;
    QString lastError() const { return m_error; }
    // Reads the project's runs again (after a run ended) into the Runs branch,
    // the tree's last row: newest first, not editable, opened as reports.
    void refreshRuns();
    // Reads the items again after something else added to the store (an import).
    void refreshItems() { reload(); }
    QModelIndex runsIndex() const;
    // Structure edits (add, rename, duplicate, delete, move) of this session,
    // undoable; cleared when another project is opened.
    QUndoStack* undoStack() const { return m_undo; }

Q_SIGNALS:
    void editFailed(const QString& message);
    // An undo or redo put this content back: an open editor of the item shows it.
    void payloadRestored(qint64 id, const QByteArray& payload);

private:
    friend class TreeCommand;
    struct Node;
    // The edits themselves, by item id; the undo commands call these.
    qint64 applyAdd(qint64 parentId, stampede::ItemKind kind, const QString& name, const QByteArray& payload,
                    int position);
    bool applyRemove(qint64 id);
    bool applyRename(qint64 id, const QString& name);
    bool applyMove(qint64 id, qint64 parentId, int position);
    // `restored`: an undo or redo, which open editors must be told of.
    bool applyPayload(qint64 id, const QByteArray& payload, bool restored);
    // An undone delete gives items new ids: later commands find them through this.
    qint64 resolve(qint64 id) const;
    void alias(qint64 from, qint64 to) { m_aliases[from] = to; }
    Node* nodeOf(const QModelIndex& index) const;
    void loadChildren(Node* node) const;
    QVariant syntheticData(const Node* n, int role) const;
    void reload();
    QModelIndex indexOf(Node* node) const;
    Node* find(Node* from, qint64 id) const;
    bool fail(const QString& message);

    stampede::ProjectStore* m_store = nullptr;
    std::unique_ptr<Node> m_root;
    std::unique_ptr<Node> m_runs; // the Runs branch, shown after the root's items
    QString m_error;
    QUndoStack* m_undo;
    QHash<qint64, qint64> m_aliases;
};
