#include "live_connection.h"

#include "cli_args.h"

#include "core/text/text_format.h"

#include <cstdio>
#include <cstdlib>
#include <unistd.h>

namespace topodeck::cli {

namespace {

ExecEnvironment terminalExecEnvironment() {
    ExecEnvironment exec;
    exec.terminalAvailable = ::isatty(STDIN_FILENO) == 1;
    // What a credential plugin says on stderr (a device-login code, say) is for the person here.
    exec.onMessage = [](std::string_view line) { std::fprintf(stderr, "%s\n", visibleText(line).c_str()); };
    return exec;
}

} // namespace

std::shared_ptr<KubeCredentials> kubeCredentials(const KubeConnection& connection) {
    return std::make_shared<KubeCredentials>(connection, terminalExecEnvironment());
}

Result<KubeConnection> LiveTarget::resolve() const {
    if (inCluster) return inClusterConnection();
    Result<Kubeconfig> config = loadKubeconfig(KubeconfigLocation::fromEnvironment(kubeconfig));
    if (!config) return config.error();
    for (const std::string& warning : config->warnings) printWarning(warning);
    // No kubeconfig anywhere, inside a pod: the service account, as kubectl does.
    if (config->files.empty() && context.empty() && std::getenv("KUBERNETES_SERVICE_HOST"))
        return inClusterConnection();
    return resolveKubeContext(*config, context);
}

LiveConnection::~LiveConnection() {
    if (m_source) m_source->stop();
}

Result<std::unique_ptr<LiveConnection>> LiveConnection::open(const LiveTarget& target) {
    std::unique_ptr<LiveConnection> live(new LiveConnection());
    if (target.slurm) {
        live->m_slurmTarget = target.slurm;
        SlurmSourceOptions options;
        options.pollInterval = target.slurmPoll;
        auto source = std::make_unique<SlurmSource>(*target.slurm, options);
        live->m_slurm = source.get();
        live->m_source = std::move(source);
    } else {
        Result<KubeConnection> connection = target.resolve();
        if (!connection) return connection.error();
        live->m_connection = std::move(*connection);
        live->m_source = std::make_unique<KubeSource>(live->m_connection, terminalExecEnvironment());
    }
    LiveConnection* self = live.get();
    live->m_source->start([self] {
        {
            std::lock_guard lock(self->m_mutex);
            self->m_news = true;
        }
        self->m_wake.notify_one();
    });
    return live;
}

std::string LiveConnection::describe(bool forPeople) const {
    if (m_slurmTarget) {
        if (forPeople) return m_slurmTarget->describe();
        return "slurm:" + (m_slurmTarget->kind == SlurmTarget::Kind::Cli ? std::string("cli") : redactUrl(m_slurmTarget->url));
    }
    return forPeople ? "context " + m_connection.contextName + " · " + m_connection.server
                     : "context:" + m_connection.contextName;
}

std::string LiveConnection::errorPrefix() const {
    return m_slurmTarget ? m_slurmTarget->describe() : "context \"" + m_connection.contextName + "\"";
}

bool LiveConnection::waitForNews(std::chrono::milliseconds timeout) {
    std::unique_lock lock(m_mutex);
    const bool news = m_wake.wait_for(lock, timeout, [this] { return m_news; });
    m_news = false;
    return news;
}

std::string LiveConnection::failureText(const LiveStatus& status) const {
    // Without the source's retry: this command gives up.
    if (!status.message.empty()) return status.message;
    std::string waiting;
    for (const ResourceHealth& resource : status.resources) {
        if (resource.state == ResourceHealth::State::Synced || resource.state == ResourceHealth::State::NotInstalled ||
            resource.state == ResourceHealth::State::Forbidden)
            continue;
        waiting += (waiting.empty() ? "" : ", ") + resource.title;
    }
    return (m_slurmTarget ? "still reading " : "still listing ") + (waiting.empty() ? std::string("objects") : waiting);
}

void LiveConnection::showProgress(const LiveStatus& status) {
    if (::isatty(STDERR_FILENO) != 1) return;
    std::string line = "connecting to " + status.origin + ":";
    for (const ResourceHealth& resource : status.resources) {
        if (resource.state == ResourceHealth::State::NotInstalled || resource.state == ResourceHealth::State::Waiting)
            continue;
        line += ' ' + resource.title + ' ' + groupThousands(static_cast<std::int64_t>(resource.objects));
        if (resource.state != ResourceHealth::State::Synced) line += '*';
    }
    std::fprintf(stderr, "\r%s\x1b[K", visibleText(line).c_str());
    m_progressShown = true;
}

void LiveConnection::endProgress() {
    if (m_progressShown) std::fputs("\r\x1b[K", stderr);
    m_progressShown = false;
}

} // namespace topodeck::cli
