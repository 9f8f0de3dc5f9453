#pragma once
// An environment: names and values for ${name}, saved as they are typed;
// rows removed with Remove, the Delete key or the context menu; a value
// marked secret is drawn as dots and kept out of bundles and exports (the
// payload lists such names under "$secrets").
#include <QWidget>

class KeyValueTable;

class EnvironmentEditor : public QWidget
{
    Q_OBJECT
public:
    explicit EnvironmentEditor(QWidget* parent = nullptr);
    void setJson(const QByteArray& payload);
    QByteArray json() const;
    KeyValueTable* table() const { return m_table; }

Q_SIGNALS:
    void changed(const QByteArray& payload);

private:
    KeyValueTable* m_table;
    bool m_loading = false;
};
