#pragma once
// Internal to the session: the cluster as the source worker had it at one moment, copied for the
// request thread, which runs dry-runs, previews, exports and applies' checks on it while the
// source goes on applying events to its own state.

#include "core/model/cluster_state.h"
#include "core/topology/topology_index.h"
#include "net/kubeconfig.h"
#include "session/cluster_snapshot.h"

#include <QMetaType>
#include <QString>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace topodeck {

struct FrozenCluster {
    bool hasSource = false;
    ClusterState state;
    TopologyIndex index;
    std::uint64_t changeCount = 0; // the source worker's count of changes when it was copied
    std::uint64_t sourceEpoch = 0; // as ClusterSnapshot::sourceEpoch
    SourceStatus status;
    QString title;
    std::optional<KubeConnection> kube; // a Kubernetes cluster's: where applies go
    std::string cannotApply;            // why no apply goes to this source ("a demo ..."), else ""
};
using FrozenClusterPtr = std::shared_ptr<const FrozenCluster>;

} // namespace topodeck

Q_DECLARE_METATYPE(topodeck::FrozenClusterPtr)
