#pragma once

#include "core/live/live_target.h"
#include "core/result.h"
#include "net/kubeconfig.h"

#include <atomic>
#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace topodeck {

// What a client-go credential plugin printed: a token, or a client certificate and key.
struct ExecCredential {
    std::string token;
    std::string clientCertificateData; // PEM
    std::string clientKeyData;         // PEM
    // Reused until then; nullopt: for as long as the process runs (or the server rejects it).
    std::optional<std::chrono::system_clock::time_point> expiration;

    bool expired(std::chrono::system_clock::time_point now) const { return expiration && now >= *expiration; }
};

// How a plugin may run here.
struct ExecEnvironment {
    // Whether a person can answer the plugin on this process's standard input (a terminal).
    // interactiveMode IfAvailable hands stdin over only then; Always fails without it.
    bool terminalAvailable = false;
    // Each line the plugin writes to stderr (instructions such as a device-login code, or why it
    // failed). Called on the thread that runs the plugin.
    std::function<void(std::string_view line)> onMessage;
    std::chrono::milliseconds timeout{std::chrono::minutes(5)};
    // Output beyond this stops the plugin: an ExecCredential is a few KB (ReadLimits).
    std::size_t maxOutput = ReadLimits{}.credentialOutput;
    const std::atomic<bool>* cancelled = nullptr; // stops the plugin when set
};

// Runs the plugin once, as client-go does: command and args without a shell, the kubeconfig's env
// over this process's, KUBERNETES_EXEC_INFO holding the ExecCredential request (with spec.cluster
// when provideClusterInfo is set), stdin only when interactive. Errors say which plugin and why:
// not found (with its installHint), a non-zero exit (with the end of its stderr), a timeout, or
// output that is not an ExecCredential of the configured apiVersion with a token or a cert/key pair.
Result<ExecCredential> runExecPlugin(const KubeExecConfig& exec, std::string_view clusterInfo,
                                     const ExecEnvironment& environment);

// Parses a plugin's stdout (exposed for tests).
Result<ExecCredential> parseExecCredential(std::string_view json, std::string_view expectedApiVersion);

// RFC 3339 as Kubernetes writes times ("2026-12-01T09:30:00Z", fractions and offsets allowed).
// Times beyond the clock's range (before 1678, after 2261) are its first or last instant.
std::optional<std::chrono::system_clock::time_point> parseRfc3339(std::string_view text);

} // namespace topodeck
