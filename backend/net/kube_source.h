#pragma once

#include "core/live/live_status.h"
#include "core/live/live_target.h"
#include "core/model/cluster_event.h"
#include "net/exec_credential.h"
#include "net/kubeconfig.h"
#include "net/live_source.h"

#include <chrono>
#include <functional>
#include <memory>
#include <vector>

namespace topodeck {

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
