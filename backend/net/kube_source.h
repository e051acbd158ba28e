#pragma once

#include "core/cluster_event.h"
#include "core/live_status.h"
#include "net/exec_credential.h"
#include "net/kubeconfig.h"
#include "net/live_source.h"

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace topodeck {

struct KubeSourceOptions {
    // Objects per list page. The API server spends tens of ms on a request before its first
    // object, so pages larger than client-go's 500 list a big cluster faster (50,000 pods: 3.5 s
    // instead of 4.4 s on the test server), and more so over a WAN; 2,000 pods are some 5 MB of
    // JSON (a few hundred KB gzipped). Larger pages cost memory and gained nothing more.
    std::size_t pageSize = 2000;
    std::chrono::milliseconds requestTimeout{60000}; // one list page or discovery request
    // Each watch asks the server to end it after a time drawn from [watchTimeout, 2 * watchTimeout),
    // as client-go's reflector does, so reconnects spread out.
    std::chrono::seconds watchTimeout{300};
    std::chrono::milliseconds backoffInitial{500};
    std::chrono::milliseconds backoffMax{30000};
    // Reconnecting longer than this makes the data stale.
    std::chrono::milliseconds staleAfter{15000};
    // How often a CRD that is not installed is looked for again.
    std::chrono::milliseconds rediscoverEvery{60000};
    // How often a list that was forbidden (403) is tried again, in case RBAC changed.
    std::chrono::milliseconds forbiddenRetry{60000};
};

// A live Kubernetes cluster as ClusterEvents: nodes, the pods that hold resources (field selector
// spec.nodeName!=,status.phase!=Succeeded,status.phase!=Failed), Kueue Topologies and
// ResourceFlavors, KAI Topologies and Volcano HyperNodes. One thread per resource lists it in
// pages (limit/continue, restarting on 410 for an expired continue token), then watches from the
// list's resourceVersion with bookmarks; a watch that ends is resumed from the last version seen,
// a 410 Gone relists, failures back off exponentially with jitter. Every object's resourceVersion
// is remembered, so a reconnect or relist neither repeats an event nor loses one: a relist emits
// only what changed and deletes what vanished. CRDs that are not installed are absent, not errors;
// 401 and 403 become per-resource states.
//
// Plain C++: the CLI drives it directly; the GUI's session runs it beside its worker thread.
class KubeSource : public LiveSource {
public:
    KubeSource(KubeConnection connection, ExecEnvironment exec, KubeSourceOptions options = {});
    ~KubeSource() override; // stops
    KubeSource(const KubeSource&) = delete;
    KubeSource& operator=(const KubeSource&) = delete;

    void start(std::function<void()> notify) override; // a thread per resource
    void stop() override;
    std::vector<ClusterEvent> takeEvents() override; // in order per resource
    LiveStatus status() const override;

private:
    class Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace topodeck
