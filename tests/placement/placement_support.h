#pragma once
// Small clusters for the placement engine tests: nodes with level labels, GPUs and usage, built
// straight into a ClusterState so each test reads as a table.

#include "core/model/cluster_state.h"
#include "core/placement/engines/placement_cluster.h"
#include "core/placement/engines/placement_result.h"
#include "core/topology/topology_index.h"

#include <memory>
#include <string>
#include <vector>

namespace topodeck::testing {

struct TestNode {
    std::string name;
    std::vector<std::string> levelValues; // one per level key, top first; "" = label missing
    int gpus = 8;
    int usedGpus = 0;
    bool ready = true;
    bool cordoned = false;
    std::vector<Taint> taints;
    std::vector<std::pair<std::string, std::string>> extraLabels;
    int cpus = 64;
    int usedCpus = 0;
    int podSlots = 110;
};

// A node with these level values and GPUs; the other fields keep their defaults.
inline TestNode testNode(std::string name, std::vector<std::string> levelValues = {}, int gpus = 8, int usedGpus = 0) {
    TestNode node;
    node.name = std::move(name);
    node.levelValues = std::move(levelValues);
    node.gpus = gpus;
    node.usedGpus = usedGpus;
    return node;
}

// A state, its index and the engines' view of both, kept together so the borrowed references live.
struct TestCluster {
    ClusterState state;
    std::unique_ptr<TopologyIndex> index;
    std::unique_ptr<PlacementCluster> cluster;
};

inline std::unique_ptr<TestCluster> makeTestCluster(const std::vector<std::string>& levelKeys,
                                                    const std::vector<TestNode>& nodes) {
    auto result = std::make_unique<TestCluster>();
    for (const TestNode& spec : nodes) {
        Node node;
        node.name = spec.name;
        for (std::size_t i = 0; i < levelKeys.size() && i < spec.levelValues.size(); ++i)
            if (!spec.levelValues[i].empty()) node.setLabel(levelKeys[i], spec.levelValues[i]);
        node.setLabel("kubernetes.io/hostname", spec.name);
        for (const auto& [key, value] : spec.extraLabels) node.setLabel(key, value);
        node.ready = spec.ready;
        node.unschedulable = spec.cordoned;
        node.taints = spec.taints;
        node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(spec.gpus));
        node.allocatable.set("cpu", Quantity::fromUnits(spec.cpus));
        node.allocatable.set("memory", *Quantity::parse("1Ti"));
        node.allocatable.set("pods", Quantity::fromUnits(spec.podSlots));
        (void)result->state.apply(NodeUpserted{std::move(node)});
        if (spec.usedGpus > 0 || spec.usedCpus > 0) {
            Pod pod;
            pod.nameSpace = "busy";
            pod.name = spec.name + "-load";
            pod.nodeName = spec.name;
            pod.phase = PodPhase::Running;
            if (spec.usedGpus > 0) pod.requests.set("nvidia.com/gpu", Quantity::fromUnits(spec.usedGpus));
            if (spec.usedCpus > 0) pod.requests.set("cpu", Quantity::fromUnits(spec.usedCpus));
            (void)result->state.apply(PodUpserted{std::move(pod)});
        }
    }
    result->index =
        std::make_unique<TopologyIndex>(TopologyIndex::build(result->state, TopologySpec::fromLabelKeys(levelKeys)));
    result->cluster = std::make_unique<PlacementCluster>(result->state, *result->index);
    return result;
}

inline ResourceList gpus(int count) {
    ResourceList list;
    list.set("nvidia.com/gpu", Quantity::fromUnits(count));
    return list;
}

// The nodes of a result, comma-separated, as the Slurm tests compare them.
inline std::string joinNodes(const PlacementResult& result) {
    std::string out;
    for (const NodePods& n : result.nodes) out += (out.empty() ? "" : ",") + n.node;
    return out;
}

// A result's message, trace and notes, for a failing check's message.
inline std::string dump(const PlacementResult& result) {
    std::string out = "message: " + result.message + "\n";
    for (const TraceEntry& e : result.trace)
        out += "  [" + e.level + "] " + e.domain + (e.taken ? " + " : " - ") + e.reason + "\n";
    for (const std::string& note : result.notes) out += "  note: " + note + "\n";
    return out;
}

} // namespace topodeck::testing
