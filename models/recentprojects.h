#pragma once
// The projects opened lately (newest first, at most 10), as the welcome page
// lists them: name, path, and their newest run read without opening them.
#include <QList>
#include <QString>
#include <QStringList>

struct RecentProject
{
    QString path;
    QString name;    // the file's name without .stampede
    QString lastRun; // "Checkout, 2026-12-01 14:13, completed", "no run yet", or why it cannot be read
    bool exists = false;
};

namespace RecentProjects {
constexpr int kMax = 10;
QStringList paths();
// Puts `path` first.
void remember(const QString& path);
QList<RecentProject> list();
} // namespace RecentProjects
