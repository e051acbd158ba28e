#include "core/changes/slinky_plan.h"

#include "core/exports/slurm_topology_from_index.h"
#include "core/exports/topology_exports.h"

#include <algorithm>
#include <unordered_map>

namespace topodeck {

namespace {

std::vector<SlurmTopology> requestedTopologies(const ClusterState& state, const TopologyIndex& index,
                                               const SlinkyRequest& request) {
    std::vector<SlurmTopology> out;
    if (!request.treeTopology.empty()) {
        out.push_back(slurmTreeFromIndex(state, index));
        out.back().name = request.treeTopology;
    }
    if (!request.blockTopology.empty()) {
        out.push_back(slurmBlocksFromIndex(state, index, request.blockPerRack));
        out.back().name = request.blockTopology;
    }
    for (std::size_t i = 0; i < out.size(); ++i) out[i].clusterDefault = i == 0;
    return out;
}

// A topology.yaml name: Slurm reads it up to ':' and ',' in the annotation, so plain characters.
std::string topologyNameProblem(const std::string& name) {
    if (name.size() > 63 ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
            std::string::npos)
        return "a topology name is up to 63 letters, digits, '-', '_' and '.', not \"" + name + '"';
    return {};
}

} // namespace

Result<std::vector<LabelChange>> slinkyAnnotationChanges(const ClusterState& state, const TopologyIndex& index,
                                                         const SlinkyRequest& request) {
    if (request.treeTopology.empty() && request.blockTopology.empty())
        return Error{"name the topology.yaml topologies the annotation refers to: --tree NAME, --block NAME or both"};
    if (request.treeTopology == request.blockTopology)
        return Error{"the tree and block topologies need different names"};
    for (const std::string* name : {&request.treeTopology, &request.blockTopology})
        if (!name->empty())
            if (std::string problem = topologyNameProblem(*name); !problem.empty()) return Error{problem};
    if (index.spec().depth() == 0) return Error{"the hierarchy has no levels to make switches or blocks of"};

    // node -> "tree:leaf,block:b" in the order of the topologies.
    std::unordered_map<std::string, std::string> value;
    for (const SlurmTopology& topology : requestedTopologies(state, index, request)) {
        const auto add = [&](const std::string& node, const std::string& holder) {
            std::string& text = value[node];
            text += (text.empty() ? "" : ",") + topology.name + ":" + holder;
        };
        for (const SlurmSwitch& sw : topology.switches)
            for (const std::string& node : sw.nodes) add(node, sw.name);
        for (const SlurmBlock& block : topology.blocks)
            for (const std::string& node : block.nodes) add(node, block.name);
    }
    std::vector<LabelChange> changes;
    for (NodeId id = 0; id < state.nodeSlots(); ++id) {
        const NodeRecord& record = state.record(id);
        if (!record.present) continue;
        const std::string* now = record.node->annotation(kSlinkyTopologyAnnotation);
        const auto found = value.find(record.node->name);
        std::optional<std::string> before = now ? std::optional<std::string>(*now) : std::nullopt;
        std::optional<std::string> after =
            found != value.end() ? std::optional<std::string>(found->second) : std::nullopt;
        if (before != after)
            changes.push_back(
                {record.node->name, std::string(kSlinkyTopologyAnnotation), std::move(before), std::move(after), true});
    }
    std::sort(changes.begin(), changes.end(), labelChangeBefore);
    return changes;
}

std::string slinkyTopologyYaml(const ClusterState& state, const TopologyIndex& index, const SlinkyRequest& request) {
    return writeTopologyYaml(requestedTopologies(state, index, request));
}

} // namespace topodeck
