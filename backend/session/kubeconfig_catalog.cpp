#include "session/kubeconfig_catalog.h"

#include "net/kubeconfig.h"

#include <QCoreApplication>
#include <QPointer>
#include <QThreadPool>

#include <cstdlib>

namespace topodeck {

namespace {

QString q(const std::string& text) {
    return QString::fromStdString(text);
}

QString loginOf(const KubeconfigUser& user) {
    if (user.exec) {
        const std::string& command = user.exec->command;
        return KubeconfigCatalog::tr("exec plugin %1").arg(q(command.substr(command.rfind('/') + 1)));
    }
    if (!user.authProvider.empty())
        return KubeconfigCatalog::tr("auth-provider %1 (not supported)").arg(q(user.authProvider));
    if (!user.clientCertificate.empty() || !user.clientCertificateData.empty())
        return KubeconfigCatalog::tr("client certificate");
    if (!user.token.empty()) return KubeconfigCatalog::tr("token");
    if (!user.tokenFile.empty()) return KubeconfigCatalog::tr("token file");
    if (!user.username.empty()) return KubeconfigCatalog::tr("username and password");
    return KubeconfigCatalog::tr("none");
}

} // namespace

KubeconfigCatalog::KubeconfigCatalog(QObject* parent) : QObject(parent) {
    qRegisterMetaType<KubeconfigListing>("topodeck::KubeconfigListing");
}

KubeconfigListing KubeconfigCatalog::read(const QString& explicitPath) {
    KubeconfigListing listing;
    Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation::fromEnvironment(explicitPath.toStdString()));
    if (!config) {
        listing.error = q(config.error().message);
        return listing;
    }
    listing.currentContext = q(config->currentContext);
    for (const std::string& file : config->files) listing.files << q(file);
    for (const std::string& warning : config->warnings) listing.warnings << q(warning);
    for (const auto& [name, context] : config->contexts) {
        KubeContextInfo info;
        info.name = q(name);
        info.cluster = q(context.cluster);
        info.user = q(context.user);
        info.nameSpace = q(context.nameSpace);
        if (auto cluster = config->clusters.find(context.cluster); cluster != config->clusters.end())
            info.server = q(cluster->second.server);
        if (auto user = config->users.find(context.user); user != config->users.end())
            info.login = loginOf(user->second);
        listing.contexts << info;
    }
    if (std::getenv("KUBERNETES_SERVICE_HOST")) {
        KubeContextInfo info;
        info.name = tr("in-cluster");
        info.login = tr("service account");
        info.inCluster = true;
        listing.contexts << info;
    }
    return listing;
}

void KubeconfigCatalog::load(const QString& explicitPath) {
    const std::uint64_t request = ++m_latest;
    QPointer<KubeconfigCatalog> self(this);
    QThreadPool::globalInstance()->start([self, request, explicitPath] {
        KubeconfigListing listing = read(explicitPath);
        // Delivered through the application object, which outlives the catalog: the QPointer is
        // only looked at on the application's (the catalog's) thread.
        QMetaObject::invokeMethod(
            QCoreApplication::instance(),
            [self, request, listing = std::move(listing)] {
                if (self && request == self->m_latest) Q_EMIT self->loaded(listing);
            },
            Qt::QueuedConnection);
    });
}

} // namespace topodeck
