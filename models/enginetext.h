#pragma once
// What the engine says, in the user's language. The engine speaks English in
// stable forms (its tests pin them); each form the workbench shows - compile
// faults of a scenario, why a Send or a run failed, a run's verdict - has a
// code here and a translated template, its parts (a field, a name, a host)
// carried over as they are. A text of no known form is shown as it came.
#include <QString>

// `text` translated; a "field: message" keeps its field (a JSON path) as it is.
QString engineText(const QString& text);
// The code of the form `text` is of ("unknown-variable", ...), or empty.
QString engineTextCode(const QString& text);
// A run event's kind ("agent_lost", "breaker", ...) in the user's words; an unknown kind as it came.
QString eventKindText(const QString& kind);
