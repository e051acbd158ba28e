#include "views/chrome/export_actions.h"

#include "session/cluster_session.h"
#include "views/dialogs/export_dialog.h"
#include "views/map/topology_map_view.h"

#include <QAction>
#include <QFileDialog>
#include <QMenu>
#include <QMessageBox>

namespace topodeck {

ExportActions::ExportActions(ClusterSession* session, TopologyMapView* map, QWidget* window)
    : QObject(window), m_session(session), m_map(map), m_window(window) {}

void ExportActions::addToMenu(QMenu* menu) {
    QAction* exportMap = menu->addAction(tr("&Export Map View…"), this, &ExportActions::exportMapView);
    exportMap->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_E));
    exportMap->setToolTip(tr("Save the map as shown, as a PNG picture or an SVG drawing"));
    QAction* exportReview = menu->addAction(tr("Export for &Review…"), this, &ExportActions::exportForReview);
    exportReview->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_R));
    exportReview->setToolTip(tr("Write a review bundle of a change plan, or the hierarchy as Kueue, KAI, Volcano and "
                                "Slurm files, as topodeckctl export does"));
}

void ExportActions::exportMapView() {
    const QString path =
        QFileDialog::getSaveFileName(m_window, tr("Export Map View"), QStringLiteral("topodeck-map.png"),
                                     tr("PNG picture (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty()) return;
    QString error;
    if (!m_map->exportView(path, &error)) QMessageBox::warning(m_window, tr("Export Map View"), error);
}

void ExportActions::exportForReview() {
    auto* dialog = new ExportDialog(m_session, m_window);
    dialog->setObjectName(QStringLiteral("exportDialog"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    const ClusterSnapshotPtr shown = m_session->latestSnapshot();
    dialog->start(m_plannerFlags ? m_plannerFlags() : QString(), shown ? shown->title : QString());
    dialog->open();
}

} // namespace topodeck
