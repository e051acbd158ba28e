#pragma once
// Nodes and pods for the unit tests of the index, the history and the capacity per level:
// `example.com/block` / `example.com/rack` labels, an optional NVLink clique, GPUs as whole units;
// and clusters read from the test data.

#include "core/formats/snapshot_reader.h"
#include "core/model/cluster_state.h"
#include "core/model/node.h"
#include "core/model/pod.h"

#include <QtGlobal>

#include <cstdint>
#include <string>

namespace topodeck::testing {

inline Node makeNode(std::string name, std::string block, std::string rack, std::int64_t gpus, bool ready = true,
                     bool cordoned = false, std::string clique = {}) {
    Node node;
    node.name = std::move(name);
    if (!block.empty()) node.setLabel("example.com/block", block);
    if (!rack.empty()) node.setLabel("example.com/rack", rack);
    if (!clique.empty()) node.setLabel("nvidia.com/gpu.clique", clique);
    node.ready = ready;
    node.unschedulable = cordoned;
    node.allocatable.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    node.allocatable.set("pods", Quantity::fromUnits(110));
    return node;
}

// A running pod in namespace "team"; pods hold half a CPU besides their GPUs, as real ones do.
inline Pod makePod(std::string name, std::string nodeName, std::int64_t gpus, PodPhase phase = PodPhase::Running) {
    Pod pod;
    pod.nameSpace = "team";
    pod.name = std::move(name);
    pod.nodeName = std::move(nodeName);
    pod.phase = phase;
    if (gpus > 0) pod.requests.set("nvidia.com/gpu", Quantity::fromUnits(gpus));
    pod.requests.set("cpu", Quantity::fromMillis(500));
    return pod;
}

// A snapshot file of tests/data as a cluster; the test stops if it does not read.
inline ClusterState stateFromDataFile(const std::string& file) {
    ClusterState state;
    Result<Snapshot> snapshot = readSnapshotFile(std::string(TOPODECK_TEST_DATA_DIR) + "/" + file);
    if (!snapshot) qFatal("%s", snapshot.error().message.c_str());
    std::move(*snapshot).applyTo(state);
    return state;
}

} // namespace topodeck::testing
