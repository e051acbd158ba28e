// Volcano HyperNodes and their member selectors (exactMatch, regexMatch, labelMatch with
// matchLabels and matchExpressions): the input is read by readSnapshotText beside a fixed set of
// labelled nodes, and its HyperNodes are resolved against them (resolveHyperNodes) and made a
// hierarchy (hyperNodeHierarchy), as `show` and the Volcano engine do.
#include "fuzz_cluster.h"
#include "fuzz_support.h"

#include "core/formats/snapshot_reader.h"
#include "core/topology/hypernode_tree.h"

namespace {

constexpr std::string_view kNodes = R"({"apiVersion":"v1","kind":"NodeList","items":[
{"metadata":{"name":"gpu-001","labels":{"rack":"r1","zone":"a","gpu":"h100"}},"status":{"allocatable":{"cpu":"64","nvidia.com/gpu":"8"}}},
{"metadata":{"name":"gpu-002","labels":{"rack":"r1","zone":"a"}},"status":{"allocatable":{"cpu":"64","nvidia.com/gpu":"8"}}},
{"metadata":{"name":"gpu-003","labels":{"rack":"r2","zone":"a","gpu":"h100"}},"status":{"allocatable":{"cpu":"64","nvidia.com/gpu":"8"}}},
{"metadata":{"name":"gpu-004","labels":{"rack":"r2","zone":"b"}},"status":{"allocatable":{"cpu":"64","nvidia.com/gpu":"8"}}},
{"metadata":{"name":"cpu-1","labels":{"zone":"b"}},"status":{"allocatable":{"cpu":"16"}}}]})";

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    topodeck::Result<topodeck::Snapshot> hyperNodes = topodeck::readSnapshotText(topodeck::fuzz::text(data, size), "fuzz");
    if (!hyperNodes) return 0;
    topodeck::Result<topodeck::Snapshot> nodes = topodeck::readSnapshotText(kNodes, "nodes");
    TOPODECK_FUZZ_CHECK(nodes.ok(), "the fixed nodes read");
    topodeck::ClusterState state;
    std::move(*nodes).applyTo(state);
    const std::vector<topodeck::HyperNode> objects = hyperNodes->hyperNodes;
    std::move(*hyperNodes).applyTo(state);
    topodeck::Result<topodeck::HyperNodeTree> tree = topodeck::resolveHyperNodes(objects, state);
    if (tree) {
        TOPODECK_FUZZ_CHECK(tree->top != topodeck::HyperNodeTree::kNone, "a resolved tree has its top");
        for (const auto& entry : tree->entries) (void)tree->tierLabel(entry.tier);
    }
    topodeck::fuzz::showState(state);
    return 0;
}
