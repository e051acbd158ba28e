#include "app/gui/launch_actions.h"

#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "app/gui/screenshot_capture.h"
#include "core/placement/reports/plan_query.h"
#include "models/topology_tree_model.h"
#include "views/map/topology_map_view.h"
#include "views/pages/planner_panel.h"
#include "views/pages/what_if_panel.h"

#include <QTextStream>

#include <functional>
#include <optional>

namespace topodeck {

namespace {

// Once: the first data of the source the window opens next.
void onceShown(MainWindow& window, std::function<void()> action) {
    QObject::connect(&window, &MainWindow::dataShown, &window, std::move(action), Qt::SingleShotConnection);
}

} // namespace

ScreenshotCapture* LaunchActions::apply(MainWindow& window, const LaunchOptions& options) {
    ScreenshotCapture* capture = nullptr;
    if (!options.screenshot.isEmpty()) {
        capture = new ScreenshotCapture(&window, options.screenshot, CommandLine::kScreenshotSize);
        // The capture selects the path itself: one that is not there fails the screenshot.
        capture->start(options.select);
        if (!options.plan.isEmpty()) capture->waitFor(window.plannerPanel(), &PlannerPanel::answerShown);
        if (!options.whatIf.isEmpty()) capture->waitFor(window.whatIfPanel(), &WhatIfPanel::answerShown);
    } else if (!options.select.isEmpty()) {
        selectOnceShown(window, options.select);
    }
    if (!options.page.isEmpty()) window.showPage(options.page);
    if (!options.plan.isEmpty()) planOnceShown(window, options.plan);
    window.setMapView(options.zoom, options.freeCapacity);
    if (!options.whatIf.isEmpty()) whatIfOnceShown(window, options.whatIf);
    return capture;
}

void LaunchActions::selectOnceShown(MainWindow& window, const QString& path) {
    onceShown(window, [&window, path] {
        if (!window.selectPath(path))
            QTextStream(stderr) << "topodeck: nothing at path '" << path << "' to select" << Qt::endl;
    });
}

void LaunchActions::planOnceShown(MainWindow& window, const QString& flags) {
    window.showPage(QStringLiteral("planner"));
    PlannerPanel* planner = window.plannerPanel();
    // --manifest FILE: the planner reads the file into its paste area, as if it were dropped
    // there, and runs once it is read (a file is the GUI's to read, not the flags line's).
    const auto manifest = planFlagValues(flags.toStdString(), "manifest");
    if (manifest && !manifest->empty() && manifest->back() != "-") {
        const QString path = QString::fromStdString(manifest->back());
        const auto rest = withPlanFlag(flags.toStdString(), "manifest", {});
        planner->setFlags(rest ? QString::fromStdString(*rest) : flags);
        QObject::connect(planner, &PlannerPanel::manifestLoaded, planner, [planner](bool ok) {
            if (ok) planner->run();
        }, Qt::SingleShotConnection);
        onceShown(window, [planner, path] { planner->loadManifestFile(path); });
        return;
    }
    planner->setFlags(flags);
    onceShown(window, [planner] { planner->run(); });
}

void LaunchActions::zoomOnceShown(MainWindow& window, const QString& path) {
    if (path.isEmpty()) return;
    onceShown(window, [&window, path] {
        const std::optional<QModelIndex> index = window.treeModel()->indexForPath(path);
        const QVariant domain = index ? index->data(TopologyTreeModel::DomainIdRole) : QVariant();
        if (domain.isValid())
            window.mapView()->zoomToDomain(domain.value<DomainId>());
        else
            qWarning("topodeck: no domain at path '%s' to zoom to", qPrintable(path));
    });
}

void LaunchActions::whatIfOnceShown(MainWindow& window, const QString& steps) {
    window.showPage(QStringLiteral("what-if"));
    if (window.whatIfPanel()->addSteps(steps)) onceShown(window, [&window] { window.whatIfPanel()->apply(); });
}

} // namespace topodeck
