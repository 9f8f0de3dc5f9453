#pragma once
// An environment: names and values for ${name}, saved as they are typed.
#include <QWidget>

class KeyValueTable;

class EnvironmentEditor : public QWidget
{
    Q_OBJECT
public:
    explicit EnvironmentEditor(QWidget* parent = nullptr);
    void setJson(const QByteArray& payload);
    QByteArray json() const;

Q_SIGNALS:
    void changed(const QByteArray& payload);

private:
    KeyValueTable* m_table;
    bool m_loading = false;
};
