#pragma once
// JSON for a person to read, as it was written: indented two spaces a level,
// keys in the author's (or the server's) order, every string and number byte
// for byte. Qt's QJsonDocument sorts an object's keys; a view must not.
#include <QByteArray>
#include <QString>

// `json` indented; a null QString when it is not one JSON value (then show it as it is).
QString indentedJson(const QByteArray& json);
