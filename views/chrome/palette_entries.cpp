#include "views/chrome/palette_entries.h"

#include <QAction>
#include <QCoreApplication>
#include <QMenu>
#include <QMenuBar>

namespace topodeck {

namespace {

struct PaletteEntries {
    Q_DECLARE_TR_FUNCTIONS(PaletteEntries)
};

void collect(const QMenu* menu, QList<QAction*>& actions) {
    for (QAction* action : menu->actions()) {
        if (action->menu())
            collect(action->menu(), actions);
        else if (!action->isSeparator())
            actions << action;
    }
}

} // namespace

QList<QAction*> menuBarActions(const QMenuBar* menuBar) {
    QList<QAction*> actions;
    for (QAction* menu : menuBar->actions())
        if (menu->menu()) collect(menu->menu(), actions);
    return actions;
}

std::vector<CommandPalette::Entry> actionEntries(const QList<QAction*>& actions, const QAction* skip) {
    std::vector<CommandPalette::Entry> entries;
    for (QAction* action : actions) {
        if (action == skip) continue;
        QString text = action->text().remove(QLatin1Char('&'));
        if (!action->shortcut().isEmpty())
            text += QStringLiteral("  (%1)").arg(action->shortcut().toString(QKeySequence::NativeText));
        entries.push_back({text, QString(), [action] { action->trigger(); }});
    }
    return entries;
}

std::vector<CommandPalette::Entry> domainEntries(const TopologyIndex& index, const std::function<void(DomainId)>& go) {
    std::vector<CommandPalette::Entry> entries;
    for (DomainId id = 1; id < index.domainSlots(); ++id) {
        const Domain& domain = index.domain(id);
        if (!domain.alive || domain.level < 0) continue;
        const QString level = QString::fromStdString(index.spec().levels[std::size_t(domain.level)].name);
        entries.push_back({QStringLiteral("%1 %2").arg(level, QString::fromStdString(index.pathName(id))), QString(),
                           [go, id] { go(id); }});
    }
    return entries;
}

std::vector<CommandPalette::Entry> nodeEntries(const ClusterSnapshot& snapshot, const std::function<void(NodeId)>& go) {
    std::vector<CommandPalette::Entry> entries;
    entries.reserve(snapshot.nodes.size());
    for (NodeId id = 0; id < snapshot.nodes.size(); ++id)
        if (const Node* node = snapshot.node(id))
            entries.push_back({QString::fromStdString(node->name), QString(), [go, id] { go(id); }});
    return entries;
}

std::vector<CommandPalette::Entry> gangEntries(const GangsReport& report,
                                               const std::function<void(const QString&)>& go) {
    std::vector<CommandPalette::Entry> entries;
    entries.reserve(report.gangs.size());
    for (const Gang& gang : report.gangs) {
        const QString name = QString::fromStdString(gang.qualifiedName());
        entries.push_back(
            {PaletteEntries::tr("%1 (%n pod(s))", nullptr, gang.pods).arg(name), QString(), [go, name] { go(name); }});
    }
    return entries;
}

QString shortcutsTable(const QList<QAction*>& actions) {
    QStringList rows;
    for (const QAction* action : actions)
        if (!action->shortcut().isEmpty())
            rows << QStringLiteral("<tr><td><b>%1</b></td><td>%2</td></tr>")
                        .arg(action->shortcut().toString(QKeySequence::NativeText).toHtmlEscaped(),
                             action->text().remove(QLatin1Char('&')).toHtmlEscaped());
    rows << PaletteEntries::tr("<tr><td><b>Enter</b></td><td>Planner: run the dry-run</td></tr>")
         << PaletteEntries::tr("<tr><td><b>Arrows</b></td><td>Map: select the sibling in that direction</td></tr>")
         << PaletteEntries::tr("<tr><td><b>Enter / Backspace</b></td><td>Map: zoom into the selection / out of the "
                               "zoomed domain</td></tr>")
         << PaletteEntries::tr("<tr><td><b>Home</b></td><td>Map: fit the whole cluster</td></tr>")
         << PaletteEntries::tr("<tr><td><b>Ctrl+arrows, drag</b></td><td>Map: pan</td></tr>")
         << PaletteEntries::tr("<tr><td><b>+ / − / wheel</b></td><td>Map: zoom</td></tr>");
    return QStringLiteral("<table cellspacing=6>%1</table>").arg(rows.join(QString()));
}

} // namespace topodeck
