#pragma once
// The lower half of the request builder's editors: a status line above
// read-only tabs with the answer's body and its headers (an editor may add
// more tables, as gRPC's trailers).
#include <QCoreApplication>
#include <QString>

class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QWidget;
class KeyValueTable;

struct ResponseView
{
    Q_DECLARE_TR_FUNCTIONS(ResponseView)
public:
    QWidget* widget = nullptr; // holds the rest
    QLabel* status = nullptr;
    QPlainTextEdit* body = nullptr;
    KeyValueTable* headers = nullptr;
    QTabWidget* tabs = nullptr;

    // `bodyTab` names the first tab ("Response body", "Response message").
    static ResponseView make(const QString& bodyTab);
    // A further read-only table, in a tab of its own.
    KeyValueTable* addTable(const QString& tab, const QString& nameLabel);
};
