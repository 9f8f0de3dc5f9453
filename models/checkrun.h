#pragma once
// The builder's Tests: a request item's checks and extractions (the scenario
// contract's `checks` and `extract`, as JSON) judged on the answer Send got,
// by the engine's own checks (engine/check/checks.h), so that what passes in
// the builder passes under load.
#include <QJsonArray>
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

struct CheckRun
{
    struct Check
    {
        QString name;
        bool passed = false;
        QString why; // what was seen, when it failed
    };
    struct Extracted
    {
        QString name;
        bool found = false;
        QString value;
    };
    QList<Check> checks;
    QList<Extracted> extracted;
    QStringList errors; // checks or extractions that do not compile, by field: "checks[1].jsonPath: ..."
};

// The answer the builder got: status (gRPC: the status code), headers as
// received, the body (gRPC: the answer message as JSON), the time it took.
struct CheckAnswer
{
    int status = 0;
    bool grpc = false;
    QList<QPair<QString, QString>> headers;
    QByteArray body;
    double elapsedMs = 0;
};

CheckRun runChecks(const QJsonArray& checks, const QJsonArray& extract, const CheckAnswer& answer);
