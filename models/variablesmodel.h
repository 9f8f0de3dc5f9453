#pragma once
// A scenario's variables: each name bound to a parameter source, with the
// source's settings written as short text, and where the variable is used.
//   constant       value
//   increment      1..1000 step 1
//   random integer 1..100
//   random string  16            (length)
//   UUID           (nothing)
//   data set       wrap | stop | per-user   (the project data set of the same name)
#include <QAbstractTableModel>
#include <QJsonArray>

#include <functional>

class VariablesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        NameColumn,
        SourceColumn,
        SettingsColumn,
        UsedColumn,
        ColumnCount
    };
    enum Source
    {
        Constant,
        Increment,
        RandomInt,
        RandomString,
        Uuid,
        DataSet
    };
    struct Variable
    {
        QString name;
        Source source = Constant;
        QString settings;
    };

    explicit VariablesModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

    // From and to the proto3 JSON of the scenario's variables. For data sets,
    // `csvOf(name)` gives the project data set's CSV text (inlined into the scenario).
    void fromJson(const QJsonArray& variables);
    QJsonArray toJson(const std::function<QString(const QString&)>& csvOf) const;
    // The text of the steps, to list where each variable is used.
    void setUsageText(const QList<QPair<QString, QString>>& stepTexts);
    QStringList usedBy(const QString& name) const;

    static QString sourceName(Source s);
    // Checks `settings` for `source`; returns an empty string when it is valid.
    static QString checkSettings(Source source, const QString& settings);

private:
    QList<Variable> m_vars;
    QList<QPair<QString, QString>> m_steps; // (step name, its request text)
};
