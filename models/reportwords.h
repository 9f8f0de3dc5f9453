#pragma once
// The HTML exports' words (engine/report/reportwords.h) in the workbench's language: its fixed words and phrases
// translated in context "ReportHtml", what the engine composed through engineText, events' kinds through
// eventKindText; the page's lang attribute the translation of "en".
#include "report/reportwords.h"

#include <QList>

stampede::ReportWords reportWords();
// Every word and phrase the HTML exports ask for (a test holds the exports to this list).
const QList<const char*>& reportWordList();
