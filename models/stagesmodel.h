#pragma once
// The load profile's stages as a table (kind, duration, target, steps) and the
// planned level over time that they make, computed by the engine's own
// StageProfile so that the preview is exactly what a run will do.
#include <QAbstractTableModel>
#include <QJsonArray>
#include <QPointF>

class StagesModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column
    {
        KindColumn,
        DurationColumn,
        TargetColumn,
        StepsColumn,
        ColumnCount
    };
    enum Kind
    {
        Hold,
        Ramp,
        Step,
        Spike
    };
    struct Stage
    {
        Kind kind = Hold;
        double durationS = 10;
        double target = 0;
        bool hasTarget = true;
        int steps = 5;
    };

    explicit StagesModel(QObject* parent = nullptr);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
    Qt::ItemFlags flags(const QModelIndex& index) const override;
    QVariant headerData(int section, Qt::Orientation o, int role = Qt::DisplayRole) const override;
    bool insertRows(int row, int count, const QModelIndex& parent = {}) override;
    bool removeRows(int row, int count, const QModelIndex& parent = {}) override;

    void setStages(const QList<Stage>& stages);
    QList<Stage> stages() const { return m_stages; }
    // proto3 JSON of stampede.v1.Stage, and back.
    QJsonArray toJson() const;
    void fromJson(const QJsonArray& stages);
    double totalSeconds() const;

    static QString kindName(Kind k);
    // The planned level (rate or users) over [0, duration]: the corners of
    // the piecewise-linear profile, as (seconds, level) points.
    QList<QPointF> preview(double initialLevel, double durationS) const;

private:
    QList<Stage> m_stages;
};
