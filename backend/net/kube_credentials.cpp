#include "net/kube_credentials.h"

#include "core/text/text_file.h"

#include <map>

namespace topodeck {

namespace {

// One plugin configuration's cached answer, shared by every connection that uses it.
struct ExecCacheEntry {
    std::mutex mutex; // held while the plugin runs, so concurrent callers wait for one answer
    std::optional<ExecCredential> credential;
    std::uint64_t version = 0;
};

std::shared_ptr<ExecCacheEntry> execCacheEntry(const KubeExecConfig& exec, const std::string& clusterInfo) {
    static std::mutex mutex;
    static std::map<std::string, std::shared_ptr<ExecCacheEntry>> cache;
    std::string key = exec.apiVersion + '\n' + exec.command + '\n' + exec.interactiveMode + '\n' + clusterInfo;
    for (const std::string& arg : exec.args) key += "\narg=" + arg;
    for (const auto& [name, value] : exec.env) key += "\nenv=" + name + '=' + value;
    std::lock_guard lock(mutex);
    std::shared_ptr<ExecCacheEntry>& entry = cache[key];
    if (!entry) entry = std::make_shared<ExecCacheEntry>();
    return entry;
}

} // namespace

KubeCredentials::KubeCredentials(KubeConnection connection, ExecEnvironment environment)
    : m_connection(std::move(connection)), m_environment(std::move(environment)),
      m_fileToken(m_connection.token), m_fileReadAt(std::chrono::steady_clock::now()) {}

Result<KubeAuth> KubeCredentials::current() {
    KubeAuth auth;
    if (m_connection.exec) {
        std::shared_ptr<ExecCacheEntry> entry = execCacheEntry(*m_connection.exec, m_connection.execClusterInfo);
        std::lock_guard lock(entry->mutex);
        if (!entry->credential || entry->credential->expired(std::chrono::system_clock::now())) {
            Result<ExecCredential> fresh = runExecPlugin(*m_connection.exec, m_connection.execClusterInfo, m_environment);
            if (!fresh) return fresh.error();
            entry->credential = std::move(*fresh);
            ++entry->version;
        }
        auth.bearerToken = entry->credential->token;
        auth.clientCertificateData = entry->credential->clientCertificateData;
        auth.clientKeyData = entry->credential->clientKeyData;
        auth.version = entry->version;
        // A plugin that gives no token leaves a kubeconfig token in place, as client-go does.
        if (!auth.bearerToken.empty()) return auth;
    }
    if (!m_connection.tokenFile.empty()) {
        std::lock_guard lock(m_mutex);
        const auto now = std::chrono::steady_clock::now();
        if (m_rereadFile || now - m_fileReadAt >= kTokenFileRefresh) {
            m_rereadFile = false;
            if (Result<std::string> token = readTokenFile(m_connection.tokenFile)) {
                if (*token != m_fileToken) ++m_fileVersion;
                m_fileToken = std::move(*token);
            }
            // An unreadable file keeps the last token: the server will say if it no longer works.
            m_fileReadAt = now;
        }
        auth.bearerToken = m_fileToken;
        if (!m_connection.exec) auth.version = m_fileVersion;
        return auth;
    }
    if (auth.bearerToken.empty()) auth.bearerToken = m_connection.token;
    return auth;
}

void KubeCredentials::rejected(const KubeAuth& used) {
    if (m_connection.exec) {
        std::shared_ptr<ExecCacheEntry> entry = execCacheEntry(*m_connection.exec, m_connection.execClusterInfo);
        std::lock_guard lock(entry->mutex);
        if (entry->version == used.version) entry->credential.reset();
    }
    if (!m_connection.tokenFile.empty()) {
        std::lock_guard lock(m_mutex);
        m_rereadFile = true; // read the file again at once
    }
}

} // namespace topodeck
