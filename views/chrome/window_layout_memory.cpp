#include "views/chrome/window_layout_memory.h"

#include "views/chrome/app_settings.h"

#include <QEvent>
#include <QMainWindow>

namespace topodeck {

WindowLayoutMemory::WindowLayoutMemory(QMainWindow* window) : QObject(window), m_window(window) {
    const AppSettings settings;
    const QByteArray geometry = settings.windowGeometry();
    // Qt puts a window saved on a screen that is gone back on one that is there.
    if (!geometry.isEmpty()) m_window->restoreGeometry(geometry);
    const QByteArray state = settings.windowState();
    if (!state.isEmpty()) m_window->restoreState(state);
    m_window->installEventFilter(this);
}

bool WindowLayoutMemory::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_window && event->type() == QEvent::Close) {
        AppSettings settings;
        settings.setWindowGeometry(m_window->saveGeometry());
        settings.setWindowState(m_window->saveState());
    }
    return QObject::eventFilter(watched, event);
}

} // namespace topodeck
