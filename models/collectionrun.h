#pragma once
// The workbench's collection runner's choices (Postman's Runner: an
// environment, iterations, a data file, a delay, stop at the first failure)
// made into the scenario a run takes: the collection or folder as the command
// line's `run P@COLLECTION` runs it (bundle/newmanrun.h), newman's semantics.
#include <QByteArray>
#include <QString>
#include <QStringList>

namespace stampede {
class ProjectStore;
struct IterationData;
} // namespace stampede

struct CollectionRunChoice
{
    QString environment; // one of the project's environments; empty: the collection's variables alone
    int iterations = 0;  // per run; 0: one per row of the data file, or one
    QString dataFile;    // a CSV (header row) or JSON (array of objects) file: a row an iteration
    int delayMs = 0;     // a pause between two requests
    bool bail = false;   // stop at the first failure
};

// Reads an iteration data file as a collection run takes it; false with `error` in the user's words.
bool readIterationDataFile(const QString& path, stampede::IterationData& out, QString& error);
// The same, told as its rows and columns (the runner's dialog says what it read).
bool describeIterationDataFile(const QString& path, int& rows, QStringList& columns, QString& error);

// The scenario (its JSON) that runs the collection or folder `item` of `store` as `choice` says; `warnings`
// are values left out. False with `error`.
bool collectionRunScenario(stampede::ProjectStore& store, qint64 item, const CollectionRunChoice& choice,
                           QByteArray& json, QStringList& warnings, QString& error);
