#include "session/cluster_snapshot.h"

#include <utility>

namespace topodeck {

QString SourceStatus::occupancyProblem() const {
    for (const ResourceHealth& resource : resources)
        if (resource.resource == "pods" && !resource.everSynced)
            return QString::fromStdString(resource.message.empty() ? std::string("pods not listed yet")
                                                                   : resource.message);
    return {};
}

ClusterSnapshotPtr makeClusterSnapshot(const ClusterState& state, const TopologyIndex& index, SourceStatus status,
                                       QString title, std::uint64_t sourceEpoch) {
    auto snapshot = std::make_shared<ClusterSnapshot>();
    snapshot->generation = state.generation();
    snapshot->sourceEpoch = sourceEpoch;
    snapshot->title = std::move(title);
    snapshot->index = index;
    snapshot->nodes.resize(state.nodeSlots());
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (record.present) snapshot->nodes[id] = record.node;
    }
    snapshot->podCount = state.podCount();
    // O(pods) when the cluster has ComputeDomains, nothing otherwise.
    snapshot->computeDomains = computeDomainUsage(state, &index);
    snapshot->status = std::move(status);
    return snapshot;
}

} // namespace topodeck
