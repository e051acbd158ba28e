#pragma once
// What a list widget shows, as the widget tests read it.

#include <QListWidget>
#include <QStringList>

#include <algorithm>

namespace topodeck::testing {

inline QStringList listed(const QListWidget* list) {
    QStringList out;
    for (int i = 0; i < list->count(); ++i) out << list->item(i)->text();
    return out;
}

inline bool anyContains(const QStringList& lines, const QString& what) {
    return std::any_of(lines.begin(), lines.end(), [&](const QString& line) { return line.contains(what); });
}

} // namespace topodeck::testing
