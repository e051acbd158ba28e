#pragma once

#include <QObject>

class QMainWindow;

namespace topodeck {

// Puts a main window where it was last closed, with its docks and toolbars as they were, and
// saves them when it closes. Made for the application's first window only: further windows,
// screenshots and tests keep a layout of their own.
class WindowLayoutMemory : public QObject {
    Q_OBJECT
public:
    // Restores what was saved (nothing saved: the window stays as built) and watches for the close.
    explicit WindowLayoutMemory(QMainWindow* window);

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    QMainWindow* m_window;
};

} // namespace topodeck
