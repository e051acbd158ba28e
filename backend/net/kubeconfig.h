#pragma once

#include "core/result.h"
#include "net/http_client.h"

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace topodeck {

// users[].user.exec of a kubeconfig: a client-go credential plugin.
struct KubeExecConfig {
    std::string command;
    std::vector<std::string> args;
    std::vector<std::pair<std::string, std::string>> env;
    std::string apiVersion;      // client.authentication.k8s.io/v1 or /v1beta1
    std::string interactiveMode; // Never, IfAvailable or Always (v1beta1 without one: IfAvailable)
    bool provideClusterInfo = false;
    std::string installHint;
    friend bool operator==(const KubeExecConfig&, const KubeExecConfig&) = default;
};

// clusters[].cluster. Paths are absolute: relative ones are resolved against the file's directory.
struct KubeconfigCluster {
    std::string server;
    std::string certificateAuthority;     // a file
    std::string certificateAuthorityData; // PEM, decoded from the base64 in the file
    bool insecureSkipTlsVerify = false;
    std::string tlsServerName;
    std::string proxyUrl;
    std::string execExtension; // extensions[client.authentication.k8s.io/exec], as JSON, for exec plugins
    std::string origin;        // the file it came from
};

// users[].user.
struct KubeconfigUser {
    std::string token;
    std::string tokenFile;
    std::string clientCertificate; // a file
    std::string clientCertificateData;
    std::string clientKey; // a file
    std::string clientKeyData;
    std::string username;
    std::string password;
    std::string impersonate; // as
    std::vector<std::string> impersonateGroups;
    std::optional<KubeExecConfig> exec;
    std::string authProvider; // the name of a legacy auth-provider (gcp, azure, oidc), which topodeck refuses
    std::string origin;
};

struct KubeconfigContext {
    std::string cluster;
    std::string user;
    std::string nameSpace;
    std::string origin;
};

// Several kubeconfig files merged as kubectl merges them: the first file to define a cluster, user
// or context name wins that name whole, and the first file to set current-context wins it.
struct Kubeconfig {
    std::map<std::string, KubeconfigCluster> clusters;
    std::map<std::string, KubeconfigUser> users;
    std::map<std::string, KubeconfigContext> contexts;
    std::string currentContext;
    std::vector<std::string> files;    // the files read, first (winning) first
    std::vector<std::string> warnings; // files named in KUBECONFIG that do not exist, names given twice

    std::vector<std::string> contextNames() const;
};

// Where the kubeconfig comes from, by kubectl's rules: --kubeconfig names exactly one file, which
// must exist; otherwise $KUBECONFIG lists files (separated by ':', missing ones skipped); otherwise
// ~/.kube/config.
struct KubeconfigLocation {
    std::string explicitPath; // --kubeconfig
    std::string environment;  // the value of KUBECONFIG
    std::string home;         // the home directory

    // The process's KUBECONFIG and HOME.
    static KubeconfigLocation fromEnvironment(std::string explicitPath = {});
    // The files to read, in precedence order, without repeats.
    std::vector<std::string> files() const;
};

// One file's content. Errors name the file, line and field.
Result<Kubeconfig> parseKubeconfig(std::string_view yaml, const std::string& path);
// Reads and merges the files of `location`. No file at all is not an error: the result is empty.
Result<Kubeconfig> loadKubeconfig(const KubeconfigLocation& location);

// What topodeck needs to talk to one cluster as one user: one context resolved and checked.
struct KubeConnection {
    std::string contextName; // "in-cluster" for the service account
    std::string clusterName;
    std::string userName;
    std::string server; // scheme://host[:port][/path], no trailing slash
    TlsOptions tls;     // CA, client certificate and key, server name, insecure
    std::string proxy;  // proxy-url; empty: the usual proxy environment variables
    std::string token;
    std::string tokenFile; // re-read while connected (service-account tokens rotate)
    std::string username;
    std::string password;
    std::string impersonate;
    std::vector<std::string> impersonateGroups;
    std::optional<KubeExecConfig> exec;
    std::string execClusterInfo; // spec.cluster for an exec plugin with provideClusterInfo, as JSON
    std::string nameSpace;

    // Credentials go only over TLS, as client-go does: an http:// server gets none.
    bool secure() const;
};

// The named context (empty: current-context), checked the way kubectl checks it: a missing context,
// cluster, user or server, both data and file given, a client certificate without its key, two ways
// of logging in, an exec entry without command or with an unknown apiVersion or interactiveMode, or
// a legacy auth-provider, are errors that name the context and the field.
Result<KubeConnection> resolveKubeContext(const Kubeconfig& config, std::string_view contextName);

// The service-account configuration of a pod (KUBERNETES_SERVICE_HOST/PORT and the mounted token,
// CA and namespace), as client-go's rest.InClusterConfig reads it.
inline constexpr std::string_view kServiceAccountDirectory = "/var/run/secrets/kubernetes.io/serviceaccount";
Result<KubeConnection> inClusterConnection(std::string_view serviceAccountDirectory = kServiceAccountDirectory);

} // namespace topodeck
