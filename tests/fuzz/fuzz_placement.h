#pragma once

// What `topodeckctl plan` does with the gangs a reader produced: describe each, and ask every
// engine that can run on a small fixed cluster (four GPU nodes under two racks, with a Kueue
// Topology and Volcano HyperNodes) to place it.

#include "fuzz_support.h"

#include "core/formats/snapshot_reader.h"
#include "core/model/cluster_state.h"
#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/placement_engine.h"
#include "core/placement/reports/placement_report.h"
#include "core/placement/requests/gang_request.h"
#include "core/topology/topology_index.h"
#include "core/topology/topology_presets.h"

#include <memory>
#include <vector>

namespace topodeck::fuzz {

inline constexpr std::string_view kSmallCluster = R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Node, metadata: {name: gpu-1, labels: {rack: r1, block: b1, kubernetes.io/hostname: gpu-1}},
   status: {allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "8", pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Node, metadata: {name: gpu-2, labels: {rack: r1, block: b1, kubernetes.io/hostname: gpu-2}},
   status: {allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "8", pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Node, metadata: {name: gpu-3, labels: {rack: r2, block: b1, kubernetes.io/hostname: gpu-3}},
   status: {allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "8", pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: v1, kind: Node, metadata: {name: gpu-4, labels: {rack: r2, block: b1, kubernetes.io/hostname: gpu-4}},
   status: {allocatable: {cpu: "64", memory: 512Gi, nvidia.com/gpu: "8", pods: "110"}, conditions: [{type: Ready, status: "True"}]}}
- {apiVersion: kueue.x-k8s.io/v1alpha1, kind: Topology, metadata: {name: default},
   spec: {levels: [{nodeLabel: block}, {nodeLabel: rack}, {nodeLabel: kubernetes.io/hostname}]}}
- {apiVersion: topology.volcano.sh/v1alpha1, kind: HyperNode, metadata: {name: rack-1},
   spec: {tier: 1, members: [{type: Node, selector: {exactMatch: {name: gpu-1}}}, {type: Node, selector: {exactMatch: {name: gpu-2}}}]}}
- {apiVersion: topology.volcano.sh/v1alpha1, kind: HyperNode, metadata: {name: rack-2},
   spec: {tier: 1, members: [{type: Node, selector: {regexMatch: {pattern: "gpu-[34]"}}}]}}
- {apiVersion: topology.volcano.sh/v1alpha1, kind: HyperNode, metadata: {name: spine},
   spec: {tier: 2, members: [{type: HyperNode, selector: {exactMatch: {name: rack-1}}}, {type: HyperNode, selector: {exactMatch: {name: rack-2}}}]}}
)";

struct SmallCluster {
    ClusterState state;
    TopologyIndex index;
    std::unique_ptr<PlacementCluster> cluster;
};

inline const SmallCluster& smallCluster() {
    static const SmallCluster* small = [] {
        auto* made = new SmallCluster;
        Result<Snapshot> snapshot = readSnapshotText(kSmallCluster, "small cluster");
        TOPODECK_FUZZ_CHECK(snapshot.ok(), "the fixed cluster reads");
        std::move(*snapshot).applyTo(made->state);
        Result<TopologyIndex> index = HierarchyChoice{}.buildIndex(made->state);
        TOPODECK_FUZZ_CHECK(index.ok(), "the fixed cluster has a hierarchy");
        made->index = std::move(*index);
        made->cluster = std::make_unique<PlacementCluster>(made->state, made->index);
        return made;
    }();
    return *small;
}

inline void planGang(const GangRequest& gang) {
    (void)describeGang(gang);
    const std::vector<GangPart> parts = gang.partsOrWhole();
    TOPODECK_FUZZ_CHECK(!parts.empty(), "a gang has at least one part");
    if (gang.heterogeneous())
        for (std::size_t i = 0; i < parts.size(); ++i) (void)describeGang(gang.onlyPart(i));
    const SmallCluster& small = smallCluster();
    for (const PlacementEngine* engine : placementEngines()) {
        if (!engine->unavailableReason(*small.cluster, gang).empty()) continue;
        EngineOptions options;
        const PlacementResult result = engine->place(*small.cluster, gang, options);
        (void)renderPlacementTable(result, gang, *small.cluster, PlacementRenderOptions{});
    }
}

} // namespace topodeck::fuzz
