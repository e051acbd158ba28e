#include "views/pages/change_preview_tabs.h"

#include "models/label_changes_model.h"
#include "views/chrome/theme.h"
#include "views/pages/changes_page.h"
#include "views/pages/diff_highlighter.h"

#include <QEvent>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QTableView>
#include <QTableWidget>
#include <QVBoxLayout>

// The parts of the changes page speak in the page's translation context (ChangesPage::tr): the
// catalogue keeps the plural forms of its strings there, and a translator sees the page as one.

namespace topodeck {

namespace {

QString qs(const std::string& text) {
    return QString::fromStdString(text);
}

// At most `shown` names, then how many more: risks name nodes by the thousand.
QString someOf(const std::vector<std::string>& names, std::size_t shown = 5) {
    QStringList listed;
    for (std::size_t i = 0; i < names.size() && i < shown; ++i) listed << qs(names[i]);
    QString text = listed.join(QStringLiteral(", "));
    if (names.size() > shown) text += ChangesPage::tr(" and %n more", nullptr, int(names.size() - shown));
    return text;
}

QPlainTextEdit* makeDiffText(const QString& placeholder) {
    auto* text = new QPlainTextEdit;
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    if (!placeholder.isEmpty()) text->setPlaceholderText(placeholder);
    return text;
}

} // namespace

ChangePreviewTabs::DiffColours ChangePreviewTabs::diffColours(const QPalette& palette) {
    if (Theme::isDark(palette)) return {QColor(0xef, 0x6c, 0x6c), QColor(0x7c, 0xc8, 0x7f)};
    return {QColor(0xc6, 0x28, 0x28), QColor(0x2e, 0x7d, 0x32)};
}

ChangePreviewTabs::ChangePreviewTabs(QWidget* parent) : QTabWidget(parent) {
    m_model = new LabelChangesModel(this);
    m_changes = new QTableView;
    m_changes->setModel(m_model);
    m_changes->setSortingEnabled(false);
    m_changes->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_changes->verticalHeader()->hide();
    m_changes->horizontalHeader()->setStretchLastSection(true);
    m_changes->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    addTab(m_changes, ChangesPage::tr("&Labels"));
    m_topology = makeDiffText(ChangesPage::tr("What the plan does to the hierarchy shows here once it is previewed."));
    addTab(m_topology, ChangesPage::tr("&Topology"));
    m_risks = new QListWidget;
    m_risks->setWordWrap(true);
    addTab(m_risks, ChangesPage::tr("&Risks"));
    addTab(buildGangTab(), ChangesPage::tr("&Gang"));
    m_objects = makeDiffText(ChangesPage::tr("HyperNodes, Topologies and ResourceFlavors the plan creates, updates or "
                                             "deletes (Changes › Edit HyperNodes…, Edit Topology Levels…) show here."));
    m_objectColours = new DiffHighlighter(m_objects->document());
    addTab(m_objects, ChangesPage::tr("&Objects"));
    applyColours();
}

QWidget* ChangePreviewTabs::buildGangTab() {
    auto* gangTab = new QWidget;
    auto* gangLayout = new QVBoxLayout(gangTab);
    m_gangNote = new QLabel;
    m_gangNote->setWordWrap(true);
    m_gang = new QTableWidget(0, ChangesPage::GangColumnCount);
    m_gang->setHorizontalHeaderLabels(
        {ChangesPage::tr("Engine"), ChangesPage::tr("Now"), ChangesPage::tr("After the plan")});
    m_gang->verticalHeader()->hide();
    m_gang->setEditTriggers(QAbstractItemView::NoEditTriggers);
    // Verdicts are sentences: they wrap, whole, and each row is as tall as its longest one.
    m_gang->setWordWrap(true);
    m_gang->setTextElideMode(Qt::ElideNone);
    m_gang->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_gang->horizontalHeader()->setSectionResizeMode(ChangesPage::EngineColumn, QHeaderView::ResizeToContents);
    m_gang->horizontalHeader()->setSectionResizeMode(ChangesPage::BeforeColumn, QHeaderView::Stretch);
    m_gang->horizontalHeader()->setSectionResizeMode(ChangesPage::AfterColumn, QHeaderView::Stretch);
    gangLayout->addWidget(m_gangNote);
    gangLayout->addWidget(m_gang, 1);
    return gangTab;
}

void ChangePreviewTabs::changeEvent(QEvent* event) {
    QTabWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange) applyColours();
}

void ChangePreviewTabs::applyColours() {
    const DiffColours colours = diffColours(palette());
    m_model->setDiffColours(colours.problem, colours.good);
    m_objectColours->setColours(colours.problem, colours.good);
}

void ChangePreviewTabs::clear() {
    m_model->setPreview(nullptr);
    m_topology->clear();
    m_objects->clear();
    m_risks->clear();
    m_gang->setRowCount(0);
    m_gangNote->clear();
}

void ChangePreviewTabs::showPreview(const ChangePreviewPtr& preview, const QString& gangFlags) {
    m_model->setPreview(preview);
    m_changes->resizeColumnsToContents();
    m_topology->setPlainText(qs(preview->text));
    showObjects(*preview);
    showRisks(*preview);
    showGang(*preview, gangFlags);
}

void ChangePreviewTabs::showObjects(const ChangePreview& preview) {
    QStringList objectDiffs;
    for (const ObjectChange& change : preview.plan.objectChanges) objectDiffs << qs(objectDiffText(change, false));
    m_objects->setPlainText(objectDiffs.join(QLatin1Char('\n')));
    setTabText(indexOf(m_objects), preview.plan.objectChanges.empty()
                                       ? ChangesPage::tr("&Objects")
                                       : ChangesPage::tr("&Objects (%1)").arg(preview.plan.objectChanges.size()));
    if (preview.plan.labelChanges.empty() && !preview.plan.objectChanges.empty() && currentIndex() == 0)
        setCurrentWidget(m_objects); // nothing on the Labels tab to look at
}

void ChangePreviewTabs::showRisks(const ChangePreview& preview) {
    m_risks->clear();
    const DiffColours colours = diffColours(palette());
    const auto risk = [&](const QString& text, bool severe) {
        auto* item = new QListWidgetItem(text, m_risks);
        if (severe) item->setForeground(colours.problem);
    };
    for (const std::string& drift : preview.drift)
        risk(ChangesPage::tr("Drift: %1 (an apply is refused until the plan is previewed again)").arg(qs(drift)), true);
    const TopologyDiff& diff = preview.diff;
    for (const std::string& problem : diff.objectProblems)
        risk(ChangesPage::tr("Refused: %1 (an apply is refused until the plan is changed)").arg(qs(problem)), true);
    for (const std::string& objectRisk : diff.objectRisks) risk(qs(objectRisk), false);
    for (const TopologyDiff::Stranded& stranded : diff.stranded)
        risk(ChangesPage::tr("Strands %1: %n running pod(s) no longer match their nodeSelector or node affinity (%2)",
                             nullptr, int(stranded.pods))
                 .arg(qs(stranded.workload), qs(stranded.example)),
             true);
    for (const TopologyDiff::OwnedElsewhere& owned : diff.ownedElsewhere)
        risk(ChangesPage::tr("Label %1 on %n node(s) is managed by %2, which is likely to put it back (node %3)",
                             nullptr, int(owned.nodes))
                 .arg(qs(owned.key), qs(owned.manager), qs(owned.example)),
             true);
    if (!preview.relabelFaithful) risk(qs(preview.relabelCheck), true);
    for (const std::string& domain : diff.nvlinkSplit)
        risk(ChangesPage::tr("NVLink domain %1 would span more than one rack").arg(qs(domain)), true);
    if (!diff.leftLevelCapacity.empty())
        risk(ChangesPage::tr("%n node(s) lose a level label and leave Kueue TAS capacity: %1", nullptr,
                             int(diff.leftLevelCapacity.size()))
                 .arg(someOf(diff.leftLevelCapacity)),
             true);
    if (!diff.domainsSplit.empty())
        risk(ChangesPage::tr("%n domain(s) split: %1", nullptr, int(diff.domainsSplit.size()))
                 .arg(someOf(diff.domainsSplit)),
             false);
    if (!diff.domainsMerged.empty())
        risk(ChangesPage::tr("%n domain(s) merged: %1", nullptr, int(diff.domainsMerged.size()))
                 .arg(someOf(diff.domainsMerged)),
             false);
    if (preview.gang)
        for (const PlacementResult& before : preview.gang->before)
            if (const PlacementResult* after = preview.gang->afterOf(before.engine);
                after && before.feasible && !after->feasible)
                risk(ChangesPage::tr("The planner's gang fits now under %1 and would not after the plan")
                         .arg(qs(before.engine)),
                     true);
    if (m_risks->count() == 0)
        risk(ChangesPage::tr(
                 "No risk found: no running workload loses its nodes' labels, no label another manager owns is "
                 "changed, no NVLink domain crosses racks, no node leaves Kueue TAS capacity."),
             false);
    const auto risks = int(diff.objectProblems.size() + diff.objectRisks.size() + preview.drift.size() +
                           diff.stranded.size() + diff.ownedElsewhere.size() + diff.nvlinkSplit.size()) +
                       (diff.leftLevelCapacity.empty() ? 0 : 1) + (preview.relabelFaithful ? 0 : 1);
    setTabText(indexOf(m_risks), risks ? ChangesPage::tr("&Risks (%1)").arg(risks) : ChangesPage::tr("&Risks"));
}

void ChangePreviewTabs::showGang(const ChangePreview& preview, const QString& gangFlags) {
    m_gang->setRowCount(0);
    if (!preview.gang) {
        m_gangNote->setText(
            preview.gangError.empty()
                ? ChangesPage::tr("Plan a gang in the Planner (F2) to see its placement before and after the plan.")
                : ChangesPage::tr("The planner's gang does not run: %1").arg(qs(preview.gangError)));
        return;
    }
    m_gangNote->setText(
        ChangesPage::tr("The planner's gang (%1), dry-run on the cluster now and with the plan made:").arg(gangFlags));
    const DiffColours colours = diffColours(palette());
    for (const PlacementResult& before : preview.gang->before) {
        const int row = m_gang->rowCount();
        m_gang->insertRow(row);
        const PlacementResult* after = preview.gang->afterOf(before.engine);
        m_gang->setItem(row, ChangesPage::EngineColumn, new QTableWidgetItem(qs(before.engine)));
        auto* beforeItem = new QTableWidgetItem(qs(placementVerdict(&before)));
        beforeItem->setToolTip(beforeItem->text());
        m_gang->setItem(row, ChangesPage::BeforeColumn, beforeItem);
        auto* afterItem = new QTableWidgetItem(qs(placementVerdict(after)));
        afterItem->setToolTip(afterItem->text());
        if (after && before.feasible != after->feasible)
            afterItem->setForeground(after->feasible ? colours.good : colours.problem);
        m_gang->setItem(row, ChangesPage::AfterColumn, afterItem);
    }
    for (const auto& [engine, why] : preview.gang->skipped) {
        const int row = m_gang->rowCount();
        m_gang->insertRow(row);
        m_gang->setItem(row, ChangesPage::EngineColumn, new QTableWidgetItem(qs(engine)));
        m_gang->setItem(row, ChangesPage::BeforeColumn,
                        new QTableWidgetItem(ChangesPage::tr("not run: %1").arg(qs(why))));
        m_gang->setItem(row, ChangesPage::AfterColumn, new QTableWidgetItem(QString()));
    }
}

} // namespace topodeck
