#pragma once

#include "views/chrome/theme.h"

#include <QByteArray>
#include <QList>
#include <QSettings>
#include <QString>

namespace topodeck {

// A cluster opened before, as File › Recent Clusters lists it.
struct RecentCluster {
    enum class Kind { Demo, File, Context, Slurm };
    Kind kind = Kind::Demo;
    QString target;     // the demo's name, the file's path, the context (empty: the current one), a slurmrestd URL or "cli"
    QString kubeconfig; // for a context: its kubeconfig (empty: the usual one)

    QString label() const; // for the menu, e.g. "Demo gb200", "Context prod (~/k/lab.yaml)"
    friend bool operator==(const RecentCluster&, const RecentCluster&) = default;
};

// The one place the GUI's settings are read and written: every key and its default is declared
// once, in app_settings.cpp, and widgets see only these typed accessors. An INI file underneath
// (QSettings, organisation and application names from QCoreApplication).
class AppSettings {
public:
    static constexpr int kMaxRecentClusters = 8;

    // INI files on every platform (readable, and what the tests point elsewhere); call in main()
    // before the first AppSettings.
    static void useIniFormat();
    // Tests: the settings live under dir, not in the user's configuration.
    static void useLocationForTests(const QString& dir);

    AppSettings();

    QByteArray windowGeometry() const;
    void setWindowGeometry(const QByteArray& geometry);
    QByteArray windowState() const; // QMainWindow::saveState: toolbars and docks
    void setWindowState(const QByteArray& state);

    ThemeChoice theme() const;
    void setTheme(ThemeChoice theme);

    // Newest first, at most kMaxRecentClusters; adding one already there moves it to the front.
    QList<RecentCluster> recentClusters() const;
    void addRecentCluster(const RecentCluster& cluster);
    void clearRecentClusters();

    // The planner's last inputs, as the flags of `topodeckctl plan` (the planner parses them).
    QString plannerInputs() const;
    void setPlannerInputs(const QString& flags);

    void sync() { m_settings.sync(); }
    QString fileName() const { return m_settings.fileName(); }

private:
    mutable QSettings m_settings; // reading an array takes begin/end calls
};

} // namespace topodeck
