#include "views/chrome/app_settings.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <optional>

namespace topodeck {

namespace {

// Each setting's key and default, declared once.
template <typename T>
struct Setting {
    const char* key;
    T fallback;
};

const Setting<QByteArray> kWindowGeometry{"window/geometry", QByteArray()};
const Setting<QByteArray> kWindowState{"window/state", QByteArray()};
const Setting<QString> kTheme{"appearance/theme", QStringLiteral("system")};
const Setting<QString> kPlannerInputs{"planner/lastInputs", QString()};
// An array of groups with the three fields below.
constexpr const char* kRecentClusters = "recentClusters";
constexpr const char* kRecentKind = "kind";
constexpr const char* kRecentTarget = "target";
constexpr const char* kRecentKubeconfig = "kubeconfig";

template <typename T>
T read(const QSettings& settings, const Setting<T>& setting) {
    return settings.value(QLatin1String(setting.key), QVariant::fromValue(setting.fallback)).template value<T>();
}

template <typename T>
void write(QSettings& settings, const Setting<T>& setting, const T& value) {
    settings.setValue(QLatin1String(setting.key), QVariant::fromValue(value));
}

QString kindKey(RecentCluster::Kind kind) {
    switch (kind) {
    case RecentCluster::Kind::File:
        return QStringLiteral("file");
    case RecentCluster::Kind::Context:
        return QStringLiteral("context");
    case RecentCluster::Kind::Slurm:
        return QStringLiteral("slurm");
    case RecentCluster::Kind::Demo:
        break;
    }
    return QStringLiteral("demo");
}

std::optional<RecentCluster::Kind> kindFromKey(const QString& key) {
    for (RecentCluster::Kind kind : {RecentCluster::Kind::Demo, RecentCluster::Kind::File, RecentCluster::Kind::Context,
                                     RecentCluster::Kind::Slurm})
        if (kindKey(kind) == key) return kind;
    return std::nullopt;
}

} // namespace

QString RecentCluster::label() const {
    switch (kind) {
    case Kind::Demo:
        return QCoreApplication::translate("RecentCluster", "Demo %1").arg(target);
    case Kind::File:
        return QCoreApplication::translate("RecentCluster", "File %1").arg(QDir::toNativeSeparators(target));
    case Kind::Context: {
        const QString context =
            target.isEmpty() ? QCoreApplication::translate("RecentCluster", "current context") : target;
        return kubeconfig.isEmpty()
                   ? QCoreApplication::translate("RecentCluster", "Context %1").arg(context)
                   : QCoreApplication::translate("RecentCluster", "Context %1 (%2)")
                         .arg(context, QFileInfo(kubeconfig).fileName());
    }
    case Kind::Slurm:
        return target == QLatin1String("cli") ? QCoreApplication::translate("RecentCluster", "Slurm (local commands)")
                                              : QCoreApplication::translate("RecentCluster", "Slurm %1").arg(target);
    }
    return target;
}

void AppSettings::useIniFormat() { QSettings::setDefaultFormat(QSettings::IniFormat); }

void AppSettings::useLocationForTests(const QString& dir) {
    useIniFormat();
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, dir);
}

AppSettings::AppSettings() = default;

QByteArray AppSettings::windowGeometry() const { return read(m_settings, kWindowGeometry); }
void AppSettings::setWindowGeometry(const QByteArray& geometry) { write(m_settings, kWindowGeometry, geometry); }
QByteArray AppSettings::windowState() const { return read(m_settings, kWindowState); }
void AppSettings::setWindowState(const QByteArray& state) { write(m_settings, kWindowState, state); }

ThemeChoice AppSettings::theme() const { return Theme::fromKey(read(m_settings, kTheme)); }
void AppSettings::setTheme(ThemeChoice theme) { write(m_settings, kTheme, Theme::key(theme)); }

QString AppSettings::plannerInputs() const { return read(m_settings, kPlannerInputs); }
void AppSettings::setPlannerInputs(const QString& flags) { write(m_settings, kPlannerInputs, flags); }

QList<RecentCluster> AppSettings::recentClusters() const {
    QList<RecentCluster> clusters;
    QSettings& settings = m_settings;
    const int count = settings.beginReadArray(QLatin1String(kRecentClusters));
    for (int i = 0; i < count && clusters.size() < kMaxRecentClusters; ++i) {
        settings.setArrayIndex(i);
        const std::optional<RecentCluster::Kind> kind = kindFromKey(settings.value(QLatin1String(kRecentKind)).toString());
        if (!kind) continue; // written by a newer topodeck, or edited by hand
        clusters.append(RecentCluster{*kind, settings.value(QLatin1String(kRecentTarget)).toString(),
                                      settings.value(QLatin1String(kRecentKubeconfig)).toString()});
    }
    settings.endArray();
    return clusters;
}

void AppSettings::addRecentCluster(const RecentCluster& cluster) {
    QList<RecentCluster> clusters = recentClusters();
    clusters.removeAll(cluster);
    clusters.prepend(cluster);
    while (clusters.size() > kMaxRecentClusters) clusters.removeLast();
    m_settings.remove(QLatin1String(kRecentClusters));
    m_settings.beginWriteArray(QLatin1String(kRecentClusters), int(clusters.size()));
    for (int i = 0; i < clusters.size(); ++i) {
        m_settings.setArrayIndex(i);
        m_settings.setValue(QLatin1String(kRecentKind), kindKey(clusters[i].kind));
        m_settings.setValue(QLatin1String(kRecentTarget), clusters[i].target);
        if (!clusters[i].kubeconfig.isEmpty())
            m_settings.setValue(QLatin1String(kRecentKubeconfig), clusters[i].kubeconfig);
    }
    m_settings.endArray();
}

void AppSettings::clearRecentClusters() { m_settings.remove(QLatin1String(kRecentClusters)); }

} // namespace topodeck
