#pragma once

#include <QObject>
#include <QSize>
#include <QString>
#include <QTimer>

namespace topodeck {

class MainWindow;

// Renders a MainWindow offscreen once its first data is shown and laid out, and writes the image:
// what `topodeck --screenshot` and the GUI tests use. Fails when the source reports an error, when
// the path to select does not exist, or when no data arrives in time.
class ScreenshotCapture : public QObject {
    Q_OBJECT
public:
    ScreenshotCapture(MainWindow* window, QString path, QSize size, int timeoutMs = 60000);

    // Call before the window opens its source; shows the window without putting it on screen.
    void start(const QString& selectPath = QString());
    // Also waits, after the data is shown, for this signal once (a dry-run's answer, say).
    template <class Sender, class Signal>
    void waitFor(Sender* sender, Signal signal) {
        ++m_waiting;
        connect(sender, signal, this, [this] {
            if (--m_waiting == 0 && m_dataShown) settleThenCapture();
        }, Qt::SingleShotConnection);
    }

Q_SIGNALS:
    void finished(int exitCode, const QString& message);

private:
    void capture();
    void settleThenCapture();
    void fail(const QString& message);

    MainWindow* m_window;
    QString m_path;
    QSize m_size;
    QString m_select;
    QTimer m_timeout;
    bool m_done = false;
    bool m_dataShown = false;
    int m_waiting = 0;
};

} // namespace topodeck
