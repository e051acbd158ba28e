#include "usecases/topology_objects.h"

#include "core/exports/topology_exports.h"

#include <set>

namespace topodeck {

TopologyObjects topologyObjectsOf(const ClusterState& state, const TopologyIndex& index) {
    TopologyObjects out;
    for (const auto& [name, hyperNode] : state.hyperNodes()) out.objects.apply(HyperNodeUpserted{hyperNode});
    for (const auto& [name, spec] : state.topologies()) out.objects.apply(TopologyUpserted{spec});
    for (const auto& [name, flavor] : state.resourceFlavors()) out.objects.apply(ResourceFlavorUpserted{flavor});
    out.fromHierarchy = hyperNodesFromIndex(state, index);
    std::set<std::string, std::less<>> keys;
    for (NodeId id = 0; id < state.nodeSlots(); ++id)
        if (const NodeRecord& record = state.record(id); record.present)
            for (const auto& label : record.node->labels) keys.insert(std::string(label.first));
    out.labelKeys.assign(keys.begin(), keys.end());
    return out;
}

} // namespace topodeck
