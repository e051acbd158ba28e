#pragma once

#include <QString>

namespace topodeck {

class MainWindow;
class ScreenshotCapture;
struct LaunchOptions;

// The command line's one-shot actions on a window: --select, --page, --plan, --zoom,
// --map-colours, --what-if and --screenshot. Each is set up before the window opens its source;
// what needs data is done once, when the first data of that source is shown.
class LaunchActions {
public:
    // Sets up every one-shot action of the options. With --screenshot it returns the capture,
    // whose finished() says when to exit; otherwise null.
    static ScreenshotCapture* apply(MainWindow& window, const LaunchOptions& options);

    // Selects the domain or node at path; a path that is not there is reported on stderr.
    static void selectOnceShown(MainWindow& window, const QString& path);
    // Puts topodeckctl plan's flags in the planner now and runs them.
    static void planOnceShown(MainWindow& window, const QString& flags);
    // Zooms the map to the domain at path; a path that is not there is reported on stderr.
    static void zoomOnceShown(MainWindow& window, const QString& path);
    // Adds the what-if steps now and applies them.
    static void whatIfOnceShown(MainWindow& window, const QString& steps);
};

} // namespace topodeck
