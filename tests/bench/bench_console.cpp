// The console on scale:65536 (65,536 nodes, 524,288 GPUs, 4 network layers), offscreen, in the
// real main window (issue: the console). Targets in brackets.
//  - BM_MapFrame/{whole,block,agg}: one frame of the map at 1600 x 1000, fitted, zoomed to one
//    spine block, and to one agg, with a dry-run's nodes outlined [<= 16 ms];
//  - BM_DryRunToOverlay: from the planner's request (kueue-tas, 64 pods x 8 GPUs, required agg)
//    to the map's next frame drawn with its placement [<= 100 ms];
//  - BM_PaletteKeystroke: one more character typed in the command palette over every node,
//    domain and action [<= 10 ms];
//  - BM_GuiStallWhileSimulating: the simulator changes the cluster every second and the planner
//    re-runs its dry-run on each update, for 20 s; a 5 ms timer on the GUI thread measures the
//    longest event-loop stall [<= 50 ms].
#include "app/gui/command_line.h"
#include "app/gui/main_window.h"
#include "session/cluster_session.h"
#include "views/chrome/command_palette.h"
#include "views/map/topology_map_view.h"
#include "views/pages/planner_panel.h"

#include <benchmark/benchmark.h>

#include <QApplication>
#include <QElapsedTimer>
#include <QImage>
#include <QLineEdit>
#include <QPainter>
#include <QTimer>

#include <chrono>
#include <functional>
#include <stdexcept>

using namespace topodeck;

namespace {

const QString kPlan = QStringLiteral("--pods 64 -r nvidia.com/gpu=8 --required agg --engine kueue-tas");

bool spin(const std::function<bool()>& done, int limitMs = 120000) {
    QElapsedTimer timer;
    timer.start();
    while (!done()) {
        if (timer.elapsed() > limitMs) return false;
        QCoreApplication::processEvents(QEventLoop::AllEvents, 5);
    }
    return true;
}

// One window on scale:65536 for the whole run, shown offscreen at the screenshot size.
MainWindow& window() {
    static MainWindow* shown = [] {
        auto* w = new MainWindow;
        w->resize(CommandLine::kScreenshotSize);
        w->setAttribute(Qt::WA_DontShowOnScreen);
        w->show();
        bool data = false;
        QObject::connect(w, &MainWindow::dataShown, [&data] { data = true; });
        LaunchOptions options;
        options.demo = QStringLiteral("scale:65536");
        w->open(options);
        if (!spin([&] { return data; })) throw std::runtime_error("scale:65536 was not shown in time");
        return w;
    }();
    return *shown;
}

bool planAndWait(MainWindow& w, const QString& flags) {
    bool answered = false;
    const auto connection =
        QObject::connect(w.plannerPanel(), &PlannerPanel::answerShown, [&answered] { answered = true; });
    w.plannerPanel()->setFlags(flags);
    w.plannerPanel()->run();
    const bool ok = spin([&] { return answered; });
    QObject::disconnect(connection);
    return ok;
}

// What the map draws for one frame of its current view, at its current size.
void drawFrame(const TopologyMapView& map, QImage& into) {
    QPainter painter(&into);
    map.paintView(painter, map.rect());
}

void BM_MapFrame(benchmark::State& state, const QString& zoom) {
    MainWindow& w = window();
    TopologyMapView* map = w.mapView();
    map->setParent(nullptr); // the map alone at the size the target names
    map->resize(1600, 1000);
    map->zoomToFit();
    if (!planAndWait(w, kPlan)) state.SkipWithError("no dry-run answer");
    if (!zoom.isEmpty() && !w.selectPath(zoom)) state.SkipWithError("no such domain");
    if (!zoom.isEmpty()) map->zoomToDomain(map->selectedDomain());
    QImage frame(map->size(), QImage::Format_ARGB32_Premultiplied);
    for (auto _ : state) {
        drawFrame(*map, frame);
        benchmark::DoNotOptimize(frame.constBits());
    }
    state.counters["scale_px_per_gpu"] = map->scale();
}

void BM_DryRunToOverlay(benchmark::State& state) {
    MainWindow& w = window();
    TopologyMapView* map = w.mapView();
    QImage frame(map->size(), QImage::Format_ARGB32_Premultiplied);
    int round = 0;
    for (auto _ : state) {
        // Alternate two requests so each one is a new answer, not a repeat of the shown one.
        const QString flags = kPlan + (round++ % 2 ? QStringLiteral(" --preferred rack") : QString());
        const auto started = std::chrono::steady_clock::now();
        if (!planAndWait(w, flags)) {
            state.SkipWithError("no dry-run answer");
            break;
        }
        drawFrame(*map, frame);
        state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
    }
    const PlanAnswerPtr& answer = w.plannerPanel()->answer();
    state.counters["nodes_outlined"] = answer && !answer->nodePods.empty() ? double(answer->nodePods.front().size()) : 0;
}

void BM_PaletteKeystroke(benchmark::State& state) {
    MainWindow& w = window();
    CommandPalette* palette = w.commandPalette();
    palette->popup();
    auto* query = palette->findChild<QLineEdit*>();
    // A node name typed one character at a time: each keystroke re-filters every entry.
    const QString typed = QStringLiteral("node-04321");
    int length = 0;
    for (auto _ : state) {
        length = length % int(typed.size()) + 1;
        query->setText(typed.left(length));
        QCoreApplication::processEvents();
    }
    palette->hide();
}

void BM_GuiStallWhileSimulating(benchmark::State& state) {
    MainWindow& w = window();
    if (!planAndWait(w, kPlan)) state.SkipWithError("no dry-run answer");
    for (auto _ : state) {
        int answers = 0, snapshots = 0;
        const auto answered = QObject::connect(w.plannerPanel(), &PlannerPanel::answerShown, [&answers] { ++answers; });
        const auto shown = QObject::connect(&w, &MainWindow::snapshotShown, [&snapshots] { ++snapshots; });
        w.session()->setSimulationInterval(1000);
        w.session()->setSimulationEnabled(true);
        QTimer probe;
        QElapsedTimer sinceTick;
        qint64 worst = 0;
        probe.setInterval(5);
        QObject::connect(&probe, &QTimer::timeout, [&] { worst = std::max(worst, sinceTick.restart() - 5); });
        sinceTick.start();
        probe.start();
        QElapsedTimer run;
        run.start();
        spin([&] { return run.elapsed() > 20000; }, 30000);
        probe.stop();
        w.session()->setSimulationEnabled(false);
        QObject::disconnect(answered);
        QObject::disconnect(shown);
        state.SetIterationTime(double(worst) / 1000.0);
        state.counters["worst_stall_ms"] = double(worst);
        state.counters["snapshots"] = snapshots;
        state.counters["dry_runs_rerun"] = answers;
    }
}

} // namespace

int main(int argc, char** argv) {
    if (!qEnvironmentVariableIsSet("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RegisterBenchmark("BM_PaletteKeystroke", BM_PaletteKeystroke)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_DryRunToOverlay", BM_DryRunToOverlay)
        ->Iterations(10)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_GuiStallWhileSimulating", BM_GuiStallWhileSimulating)
        ->Iterations(1)
        ->UseManualTime()
        ->Unit(benchmark::kMillisecond);
    // Last: they take the map out of the window.
    benchmark::RegisterBenchmark("BM_MapFrame/whole", BM_MapFrame, QString())->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_MapFrame/block", BM_MapFrame, QStringLiteral("core-2/spine-13"))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("BM_MapFrame/agg", BM_MapFrame, QStringLiteral("core-2/spine-13/agg-100"))
        ->Unit(benchmark::kMillisecond);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
