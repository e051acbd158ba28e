#pragma once
// The main window on a demo, shown (offscreen) and active, as the widget tests drive it.

#include "app/gui/command_line.h"
#include "app/gui/main_window.h"

#include <QApplication>
#include <QSignalSpy>

#include <memory>

namespace topodeck::testing {

// Null when the demo was not shown within a minute.
inline std::unique_ptr<MainWindow> shownDemoWindow(const QString& demo = QStringLiteral("gb200")) {
    auto window = std::make_unique<MainWindow>();
    QSignalSpy shown(window.get(), &MainWindow::dataShown);
    LaunchOptions options;
    options.demo = demo;
    window->resize(1600, 1000);
    window->show();
    QApplication::setActiveWindow(window.get());
    window->open(options);
    if (!shown.wait(60000)) return nullptr;
    return window;
}

} // namespace topodeck::testing
