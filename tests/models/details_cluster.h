#pragma once
// A small cluster for the details panel's model tests, blocks over racks with NVLink cliques:
//   b1/r1: n1 (4 GPUs, clique c1; pods p1 with 2 GPUs and p2 with 1), n2 (4 GPUs, not ready, c1)
//   b1/r2: n3 (4 GPUs, cordoned)
//   b2/r3: n4 (8 GPUs, clique c2; pod p3 with 8)
//   no block, no rack: n5 (4 GPUs)

#include "core/model/cluster_state.h"
#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/topology/topology_index.h"
#include "session/cluster_snapshot.h"

#include <cstdint>
#include <string>

namespace topodeck::testing {

inline Node detailsNode(std::string name, std::string block, std::string rack, std::int64_t gpus,
                        std::string clique = {}) {
    Node node;
    node.name = std::move(name);
    if (!block.empty()) node.setLabel("example.com/block", block);
    if (!rack.empty()) node.setLabel("example.com/rack", rack);
    if (!clique.empty()) node.setLabel("nvidia.com/gpu.clique", clique);
    node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    node.allocatable.set("pods", Quantity::fromUnits(110));
    return node;
}

inline Pod detailsPod(std::string name, std::string nodeName, std::int64_t gpus) {
    Pod pod;
    pod.nameSpace = "team";
    pod.name = std::move(name);
    pod.nodeName = std::move(nodeName);
    pod.phase = PodPhase::Running;
    pod.workload = "trainer";
    pod.workloadKind = WorkloadKind::JobSet;
    if (gpus > 0) pod.requests.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    return pod;
}

inline ClusterState detailsState() {
    ClusterState state;
    Node n2 = detailsNode("n2", "b1", "r1", 4, "c1");
    n2.ready = false;
    Node n3 = detailsNode("n3", "b1", "r2", 4);
    n3.unschedulable = true;
    for (const Node& node : {detailsNode("n1", "b1", "r1", 4, "c1"), n2, n3, detailsNode("n4", "b2", "r3", 8, "c2"),
                             detailsNode("n5", "", "", 4)})
        state.apply(NodeUpserted{node});
    state.apply(PodUpserted{detailsPod("p1", "n1", 2)});
    state.apply(PodUpserted{detailsPod("p2", "n1", 1)});
    state.apply(PodUpserted{detailsPod("p3", "n4", 8)});
    return state;
}

// The cluster under the block/rack hierarchy; origin "slurm" makes it read as a Slurm cluster.
inline ClusterSnapshotPtr detailsSnapshot(const std::string& origin = "demo") {
    const ClusterState state = detailsState();
    TopologySpec spec = TopologySpec::fromLabelKeys({"example.com/block", "example.com/rack"});
    spec.nvlinkLabel = "nvidia.com/gpu.clique";
    spec.origin = origin;
    return makeClusterSnapshot(state, TopologyIndex::build(state, std::move(spec)));
}

inline NodeId nodeNamed(const ClusterSnapshot& snapshot, const std::string& name) {
    for (NodeId id = 0; id < snapshot.nodes.size(); ++id)
        if (snapshot.node(id) && snapshot.node(id)->name == name) return id;
    return NodeId(-1);
}

// The domain at a path of values ("b1/r1"); the root for "".
inline DomainId domainAt(const TopologyIndex& index, const std::string& path) {
    DomainId id = kRootDomain;
    std::size_t start = 0;
    while (start < path.size()) {
        const std::size_t slash = path.find('/', start);
        const std::size_t end = slash == std::string::npos ? path.size() : slash;
        id = index.findChild(id, path.substr(start, end - start));
        start = end + 1;
    }
    return id;
}

} // namespace topodeck::testing
