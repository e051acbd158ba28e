#include "app/gui/screenshot_capture.h"

#include "app/gui/main_window.h"
#include "session/cluster_session.h"

#include <QImage>
#include <QPixmap>

namespace topodeck {

namespace {
// Lets queued layout requests and the first paints run after the data is shown.
constexpr int kSettleMs = 150;
} // namespace

ScreenshotCapture::ScreenshotCapture(MainWindow* window, QString path, QSize size, int timeoutMs)
    : QObject(window), m_window(window), m_path(std::move(path)), m_size(size) {
    m_timeout.setSingleShot(true);
    m_timeout.setInterval(timeoutMs);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        // What the source is still waiting for (a live cluster that keeps failing says why).
        const SourceStatus status = m_window->session()->status();
        QString message = tr("no cluster data within %1 s").arg(m_timeout.interval() / 1000);
        if (!status.detail.isEmpty()) message += QStringLiteral(": ") % status.sourceName % QStringLiteral(": ") % status.detail;
        fail(message);
    });
}

void ScreenshotCapture::start(const QString& selectPath) {
    m_select = selectPath;
    m_window->setAttribute(Qt::WA_DontShowOnScreen);
    m_window->resize(m_size);
    m_window->show();
    connect(m_window, &MainWindow::dataShown, this, [this] {
        if (!m_select.isEmpty() && !m_window->selectPath(m_select))
            return fail(tr("nothing at path '%1' to select").arg(m_select));
        m_dataShown = true;
        if (m_waiting == 0) settleThenCapture();
    });
    connect(m_window->session(), &ClusterSession::statusChanged, this, [this](const SourceStatus& status) {
        if (status.health == SourceHealth::Error && !m_window->shownSnapshot())
            fail(status.sourceName % QStringLiteral(": ") % status.detail);
    });
    m_timeout.start();
}

void ScreenshotCapture::settleThenCapture() {
    QTimer::singleShot(kSettleMs, this, &ScreenshotCapture::capture);
}

void ScreenshotCapture::capture() {
    if (m_done) return;
    m_window->resize(m_size);
    const QImage image = m_window->grab().toImage();
    if (image.isNull() || !image.save(m_path)) return fail(tr("cannot write the screenshot to %1").arg(m_path));
    m_done = true;
    m_timeout.stop();
    Q_EMIT finished(0, QString());
}

void ScreenshotCapture::fail(const QString& message) {
    if (m_done) return;
    m_done = true;
    m_timeout.stop();
    Q_EMIT finished(1, message);
}

} // namespace topodeck
