#pragma once

#include "core/result.h"
#include "net/exec_credential.h"
#include "net/kubeconfig.h"

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

namespace topodeck {

// What one request carries to prove who it is, besides what the connection's TLS options hold.
struct KubeAuth {
    std::string bearerToken;
    std::string clientCertificateData; // PEM from an exec plugin; empty: the kubeconfig's, if any
    std::string clientKeyData;
    std::uint64_t version = 0; // which credential this is, for rejected()
};

// The credentials of one connection, shared by its watch threads: the static token, a tokenFile
// re-read once a minute (service-account tokens rotate), or an exec plugin's answer cached until
// its expirationTimestamp. Exec answers are cached per process and plugin configuration, so two
// windows on the same cluster run the plugin once. A 401 makes the next request fetch anew.
class KubeCredentials {
public:
    KubeCredentials(KubeConnection connection, ExecEnvironment environment);

    // May run the exec plugin (blocking; other threads wait for the same answer).
    Result<KubeAuth> current();
    // The server answered 401 to a request carrying `used`.
    void rejected(const KubeAuth& used);

    const KubeConnection& connection() const { return m_connection; }

    static constexpr std::chrono::seconds kTokenFileRefresh{60};

private:
    KubeConnection m_connection;
    ExecEnvironment m_environment;
    std::mutex m_mutex; // guards the token file state below
    std::string m_fileToken;
    std::chrono::steady_clock::time_point m_fileReadAt{};
    bool m_rereadFile = false; // after a 401
    std::uint64_t m_fileVersion = 1;
};

} // namespace topodeck
