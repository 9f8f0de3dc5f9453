#include "reportwords.h"

#include "enginetext.h"

#include <QCoreApplication>

const QList<const char*>& reportWordList()
{
    static const QList<const char*> list{
        QT_TRANSLATE_NOOP("ReportHtml", "Capacity"),
        QT_TRANSLATE_NOOP("ReportHtml", "Checks"),
        QT_TRANSLATE_NOOP("ReportHtml", "Connections and users"),
        QT_TRANSLATE_NOOP("ReportHtml", "Dropped"),
        QT_TRANSLATE_NOOP("ReportHtml", "Error rate against the offered rate"),
        QT_TRANSLATE_NOOP("ReportHtml", "Error samples"),
        QT_TRANSLATE_NOOP("ReportHtml", "Errors"),
        QT_TRANSLATE_NOOP("ReportHtml", "Events"),
        QT_TRANSLATE_NOOP("ReportHtml", "FAIL"),
        QT_TRANSLATE_NOOP("ReportHtml", "Late"),
        QT_TRANSLATE_NOOP("ReportHtml", "Latency distribution"),
        QT_TRANSLATE_NOOP("ReportHtml", "Latency"),
        QT_TRANSLATE_NOOP("ReportHtml", "No failed request was sampled."),
        QT_TRANSLATE_NOOP("ReportHtml", "Not even the start rate met every SLO"),
        QT_TRANSLATE_NOOP("ReportHtml", "Not judged:"),
        QT_TRANSLATE_NOOP("ReportHtml", "PASS"),
        QT_TRANSLATE_NOOP("ReportHtml", "Percentiles over time"),
        QT_TRANSLATE_NOOP("ReportHtml", "Rate/s"),
        QT_TRANSLATE_NOOP("ReportHtml", "Requests"),
        QT_TRANSLATE_NOOP("ReportHtml", "Run"),
        QT_TRANSLATE_NOOP("ReportHtml", "Scenario as it ran"),
        QT_TRANSLATE_NOOP("ReportHtml", "Server"),
        QT_TRANSLATE_NOOP("ReportHtml", "Stampede report"),
        QT_TRANSLATE_NOOP("ReportHtml", "Step"),
        QT_TRANSLATE_NOOP("ReportHtml", "Summary per step"),
        QT_TRANSLATE_NOOP("ReportHtml", "Thresholds"),
        QT_TRANSLATE_NOOP("ReportHtml", "Throughput"),
        QT_TRANSLATE_NOOP("ReportHtml", "a sample"),
        QT_TRANSLATE_NOOP("ReportHtml", "achieved/s"),
        QT_TRANSLATE_NOOP("ReportHtml", "active users"),
        QT_TRANSLATE_NOOP("ReportHtml", "agent"),
        QT_TRANSLATE_NOOP("ReportHtml", "at s"),
        QT_TRANSLATE_NOOP("ReportHtml", "broke"),
        QT_TRANSLATE_NOOP("ReportHtml", "check"),
        QT_TRANSLATE_NOOP("ReportHtml", "completed/s"),
        QT_TRANSLATE_NOOP("ReportHtml", "count"),
        QT_TRANSLATE_NOOP("ReportHtml", "detail"),
        QT_TRANSLATE_NOOP("ReportHtml", "error"),
        QT_TRANSLATE_NOOP("ReportHtml", "errors %"),
        QT_TRANSLATE_NOOP("ReportHtml", "errors"),
        QT_TRANSLATE_NOOP("ReportHtml", "errors/s"),
        QT_TRANSLATE_NOOP("ReportHtml", "event"),
        QT_TRANSLATE_NOOP("ReportHtml", "failed"),
        QT_TRANSLATE_NOOP("ReportHtml", "frustrated"),
        QT_TRANSLATE_NOOP("ReportHtml", "group"),
        QT_TRANSLATE_NOOP("ReportHtml", "iterations/s met every SLO"),
        QT_TRANSLATE_NOOP("ReportHtml", "level"),
        QT_TRANSLATE_NOOP("ReportHtml", "max ms"),
        QT_TRANSLATE_NOOP("ReportHtml", "max"),
        QT_TRANSLATE_NOOP("ReportHtml", "measured"),
        QT_TRANSLATE_NOOP("ReportHtml", "messages/s"),
        QT_TRANSLATE_NOOP("ReportHtml", "met every SLO"),
        QT_TRANSLATE_NOOP("ReportHtml", "offered rate /s"),
        QT_TRANSLATE_NOOP("ReportHtml", "offered/s"),
        QT_TRANSLATE_NOOP("ReportHtml", "open connections"),
        QT_TRANSLATE_NOOP("ReportHtml", "p99 against the offered rate"),
        QT_TRANSLATE_NOOP("ReportHtml", "p99 against throughput (a dot a second)"),
        QT_TRANSLATE_NOOP("ReportHtml", "pass rate"),
        QT_TRANSLATE_NOOP("ReportHtml", "passed"),
        QT_TRANSLATE_NOOP("ReportHtml", "per second"),
        QT_TRANSLATE_NOOP("ReportHtml", "requests"),
        QT_TRANSLATE_NOOP("ReportHtml", "requests/s"),
        QT_TRANSLATE_NOOP("ReportHtml", "result"),
        QT_TRANSLATE_NOOP("ReportHtml", "satisfied"),
        QT_TRANSLATE_NOOP("ReportHtml", "scenario"),
        QT_TRANSLATE_NOOP("ReportHtml", "second"),
        QT_TRANSLATE_NOOP("ReportHtml", "seconds"),
        QT_TRANSLATE_NOOP("ReportHtml", "started"),
        QT_TRANSLATE_NOOP("ReportHtml", "threshold"),
        QT_TRANSLATE_NOOP("ReportHtml", "tolerating"),
        QT_TRANSLATE_NOOP("ReportHtml", "total"),
        QT_TRANSLATE_NOOP("ReportHtml", "value"),
        QT_TRANSLATE_NOOP("ReportHtml", "verdict"),
        QT_TRANSLATE_NOOP("ReportHtml", "why it failed (the first time)"),
        QT_TRANSLATE_NOOP("ReportHtml", "Group"),
        QT_TRANSLATE_NOOP("ReportHtml", "All steps"),
        QT_TRANSLATE_NOOP("ReportHtml", "Scenario"),
    };
    return list;
}

stampede::ReportWords reportWords()
{
    stampede::ReportWords w;
    //: the language of the exported HTML page (its lang attribute): zh-CN in Chinese
    w.lang = QCoreApplication::translate("ReportHtml", "en").toStdString();
    w.word = [](const char* english) { return QCoreApplication::translate("ReportHtml", english).toStdString(); };
    w.sentence = [](const std::string& english) { return engineText(QString::fromStdString(english)).toStdString(); };
    w.eventKind = [](const std::string& kind) { return eventKindText(QString::fromStdString(kind)).toStdString(); };
    return w;
}
