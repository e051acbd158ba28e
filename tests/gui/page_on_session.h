#pragma once
// A page built as MainWindow builds it, on a ClusterSession of its own that shows a demo or a
// snapshot file, without the window: what the page, panel and editor tests build. A test of the
// window's wiring between pages builds the window instead (gui_test_window.h).

#include "session/cluster_session.h"

#include <QApplication>
#include <QSignalSpy>
#include <QTest>
#include <QWidget>

#include <memory>

namespace topodeck::testing {

constexpr int kSessionShownMs = 60000; // sanitizer builds make the demos slowly

// A session once it has published its first snapshot, where a window would say dataShown; null
// when none came within a minute. open: ClusterSession::openDemo or openFile, given source.
inline std::unique_ptr<ClusterSession> shownSession(void (ClusterSession::*open)(const QString&),
                                                    const QString& source) {
    auto session = std::make_unique<ClusterSession>();
    QSignalSpy published(session.get(), &ClusterSession::snapshotPublished);
    (session.get()->*open)(source);
    if (!published.wait(kSessionShownMs)) return nullptr;
    return session;
}

inline std::unique_ptr<ClusterSession> demoSession(const QString& demo = QStringLiteral("gb200")) {
    return shownSession(&ClusterSession::openDemo, demo);
}

inline std::unique_ptr<ClusterSession> fileSession(const QString& path) {
    return shownSession(&ClusterSession::openFile, path);
}

// Page(session), as MainWindow makes its pages, on a session showing the demo. No page when the
// demo was not shown in time. The page goes before the session it asks.
template <class Page> class PageOnDemo {
public:
    explicit PageOnDemo(const QString& demo = QStringLiteral("gb200")) : m_session(demoSession(demo)) {
        if (m_session) m_page = std::make_unique<Page>(m_session.get());
    }
    PageOnDemo(const PageOnDemo&) = delete;
    PageOnDemo& operator=(const PageOnDemo&) = delete;

    ClusterSession* session() const { return m_session.get(); }
    Page* page() const { return m_page.get(); }

private:
    std::unique_ptr<ClusterSession> m_session;
    std::unique_ptr<Page> m_page; // declared after the session: destroyed before it
};

// Shows a page as a window of its own, active, with the keyboard in it: where a window's dock
// leaves its page when F2, F3, … open it. False when it did not become active.
inline bool showWithKeyboard(QWidget& page, const QSize& size = QSize(1000, 800)) {
    page.resize(size);
    page.show();
    QApplication::setActiveWindow(&page);
    page.setFocus();
    return QTest::qWaitForWindowActive(&page);
}

} // namespace topodeck::testing
