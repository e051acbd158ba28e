#pragma once

#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <cstdint>

namespace topodeck {

// One context of a kubeconfig, as a person chooses among them.
struct KubeContextInfo {
    QString name;
    QString cluster;
    QString server;
    QString user;
    QString nameSpace;
    QString login; // "token", "exec plugin aws", "client certificate", ...
    bool inCluster = false;
};

struct KubeconfigListing {
    QList<KubeContextInfo> contexts;
    QString currentContext;
    QStringList files;    // read, first first
    QStringList warnings; // files in KUBECONFIG that do not exist, ...
    QString error;        // the kubeconfig could not be read; contexts is then empty
};

// Reads the contexts of a kubeconfig off the GUI thread (file reading and YAML parsing), by
// kubectl's rules for finding and merging kubeconfig files; the pod's service account is
// offered too when the process runs in a cluster.
class KubeconfigCatalog : public QObject {
    Q_OBJECT
public:
    explicit KubeconfigCatalog(QObject* parent = nullptr);

    // Asynchronous; `explicitPath` empty: KUBECONFIG, else ~/.kube/config. A newer call
    // supersedes one still running.
    void load(const QString& explicitPath);

    // The same, on the caller's thread (for tests and the worker).
    static KubeconfigListing read(const QString& explicitPath);

Q_SIGNALS:
    void loaded(const topodeck::KubeconfigListing& listing);

private:
    std::atomic<std::uint64_t> m_latest{0};
};

} // namespace topodeck

Q_DECLARE_METATYPE(topodeck::KubeconfigListing)
