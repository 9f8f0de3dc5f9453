#pragma once
// Splitters that remember where the user left them: each one's sizes are kept in the user's settings under a key of
// its own and given back to the next one of that key (the next request opened, the next run's dashboard, the next
// start of the workbench).
#include <QSettings>
#include <QSplitter>

namespace splitterstate {

inline QString settingOf(const QString& key)
{
    return QStringLiteral("splitters/") + key;
}

// Gives `splitter` the sizes last left under `key` (its own until then), and keeps each move of it there.
inline void remember(QSplitter* splitter, const QString& key)
{
    const QByteArray state = QSettings().value(settingOf(key)).toByteArray();
    if (!state.isEmpty())
        splitter->restoreState(state);
    QObject::connect(splitter, &QSplitter::splitterMoved, splitter,
                     [splitter, key] { QSettings().setValue(settingOf(key), splitter->saveState()); });
}

} // namespace splitterstate
