#pragma once

#include "core/result.h"
#include "net/http_client.h"

#include <QString>

#include <map>
#include <memory>
#include <string>
#include <vector>

// A real kube-apiserver + etcd for one test program, from kube-fixture.sh: started on creation
// (with a watchdog that takes it down if the program dies), stopped on destruction. Requests go
// in as the fixture's admin over TLS.
class KubeTestCluster {
public:
    // nullptr, with `why`, when no server can be started here (no etcd, no apiserver binary).
    static std::unique_ptr<KubeTestCluster> start(QString& why);
    ~KubeTestCluster();

    // TOPODECK_KUBE_* values from the fixture's env file: SERVER, CA, ADMIN_TOKEN, VIEWER_TOKEN,
    // NOBODY_TOKEN, CLIENT_CERT, CLIENT_KEY, SERVER_CERT, SERVER_KEY, ETCD, and KUBECONFIG.
    std::string value(const std::string& name) const;
    int port() const;

    // An admin request; the body is JSON unless contentType says otherwise.
    topodeck::Result<topodeck::HttpResponse> call(const std::string& method, const std::string& path,
                                                  const std::string& body = {},
                                                  const std::string& contentType = "application/json");
    // call() that must answer 2xx (else the error names the request and the answer).
    topodeck::Status expect(const std::string& method, const std::string& path, const std::string& body = {},
                            const std::string& contentType = "application/json");
    topodeck::Status patch(const std::string& path, const std::string& mergePatch) {
        return expect("PATCH", path, mergePatch, "application/merge-patch+json");
    }

    // A cluster-scoped CRD served in `versions` (the first stores); returns once the API server
    // serves it. Kueue's Topology and ResourceFlavor, KAI's Topology and Volcano's HyperNode get a
    // structural schema written from their CRDs' rules (types, required fields, enums, bounds,
    // patterns: what a 1.20 server checks; their CEL rules it cannot, and topodeck checks those
    // itself), so the server prunes a field they do not have and refuses what they refuse. Other
    // kinds keep every field.
    // `namespaced`: a namespaced CRD with a status subresource (NVIDIA's ComputeDomain), whose
    // schema is the chart's.
    topodeck::Status installCrd(const std::string& group, const std::string& plural, const std::string& kind,
                                const std::vector<std::string>& versions, bool namespaced = false);
    topodeck::Status removeCrd(const std::string& group, const std::string& plural);

    // etcd compacted up to its current revision: older resourceVersions are gone (410).
    topodeck::Status compact();

    // Many requests at once on `threads` connections of their own, for loading a big cluster or
    // changing much of it. A POST of what exists already (409) or a DELETE of what is gone (404)
    // counts as done.
    topodeck::Status sendMany(const std::string& method,
                              const std::vector<std::pair<std::string, std::string>>& pathsAndBodies, int threads);

    // A kubeconfig in `directory` with one context `name` for `user`'s token ("admin", "viewer",
    // "nobody") at `server` (another URL, e.g. a proxy, or the server itself when empty).
    std::string writeKubeconfig(const std::string& directory, const std::string& name, const std::string& user,
                                const std::string& server = {}) const;

private:
    KubeTestCluster() = default;
    QString m_directory;
    QString m_fixture;
    std::map<std::string, std::string> m_env;
    std::unique_ptr<topodeck::HttpClient> m_http;
};

// Kubernetes objects as JSON, for tests and the scale benchmark.
std::string nodeJson(const std::string& name, const std::map<std::string, std::string>& labels, int gpus,
                     bool ready = true, bool unschedulable = false);
// The API server makes every new pod Pending whatever its status says; a bound Pending pod holds
// its resources all the same. PATCH .../status to change the phase.
std::string podJson(const std::string& nameSpace, const std::string& name, const std::string& nodeName, int gpus,
                    const std::string& jobName = {});

// Whether CI demands the Kubernetes integration tests (TOPODECK_REQUIRE_KUBE=1): then a server
// that cannot start is a failure, not a skip.
bool kubeTestsRequired();
