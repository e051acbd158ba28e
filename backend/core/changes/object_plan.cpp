#include "core/changes/object_plan.h"

#include <algorithm>
#include <set>

namespace topodeck {

namespace {

void addChange(std::vector<ObjectChange>& changes, const ClusterState& state, ObjectKind kind, std::string name,
               std::optional<TopologyObject> desired, std::string_view version = {}) {
    if (std::optional<ObjectChange> change = objectChangeTo(state, kind, std::move(name), std::move(desired))) {
        change->version = version;
        changes.push_back(std::move(*change));
    }
}

} // namespace

Result<std::vector<ObjectChange>> objectPlanChanges(const ClusterState& state, const TopologyIndex& index,
                                                    const ObjectPlanRequest& request) {
    std::vector<ObjectChange> changes;
    if (request.format == "hypernodes") {
        std::vector<HyperNode> desired = hyperNodesFromIndex(state, index);
        if (desired.empty()) return Error{"HyperNodes: the hierarchy has no levels to make HyperNodes of"};
        std::stable_sort(desired.begin(), desired.end(),
                         [](const HyperNode& a, const HyperNode& b) { return a.tier < b.tier; });
        std::set<std::string, std::less<>> made;
        for (HyperNode& hyperNode : desired) {
            made.insert(hyperNode.name);
            std::string name = hyperNode.name;
            addChange(changes, state, ObjectKind::HyperNode, std::move(name), TopologyObject(std::move(hyperNode)));
        }
        if (request.prune) {
            std::vector<const HyperNode*> stale;
            for (const auto& [name, hyperNode] : state.hyperNodes())
                if (!made.contains(name)) stale.push_back(&hyperNode);
            std::stable_sort(stale.begin(), stale.end(),
                             [](const HyperNode* a, const HyperNode* b) { return a->tier > b->tier; });
            for (const HyperNode* hyperNode : stale)
                addChange(changes, state, ObjectKind::HyperNode, hyperNode->name, std::nullopt);
        }
        return changes;
    }
    if (request.format == "kueue") {
        Result<KueueTopologyObjects> objects = kueueTopologyObjects(state, index, request.kueue);
        if (!objects) return objects.error();
        std::string topologyName = objects->topology.name, flavorName = objects->flavor.name;
        addChange(changes, state, ObjectKind::KueueTopology, std::move(topologyName),
                  TopologyObject(std::move(objects->topology)), request.kueue.apiVersion);
        addChange(changes, state, ObjectKind::ResourceFlavor, std::move(flavorName),
                  TopologyObject(std::move(objects->flavor)), request.kueue.apiVersion);
        return changes;
    }
    if (request.format == "kai") {
        Result<TopologySpec> topology = kaiTopologyObject(index, request.kaiName);
        if (!topology) return topology.error();
        std::string name = topology->name;
        addChange(changes, state, ObjectKind::KaiTopology, std::move(name), TopologyObject(std::move(*topology)));
        return changes;
    }
    return Error{"expected hypernodes, kueue or kai, not \"" + request.format + '"'};
}

std::string objectPlanDescription(const ObjectPlanRequest& request, const TopologySpec& spec) {
    const std::string what = request.format == "hypernodes" ? "the cluster's Volcano HyperNodes"
                             : request.format == "kueue"    ? "a Kueue Topology, and the ResourceFlavor that names it,"
                                                            : "a KAI Topology";
    std::string levels;
    for (const TopologyLevel& level : spec.levels) levels += (levels.empty() ? "" : ", ") + level.name;
    return "Makes " + what + " as the hierarchy read from " +
           (spec.origin.empty() ? std::string("node labels") : spec.origin) + " (" + levels + ") says" +
           (request.prune ? "; HyperNodes it has no place for are deleted." : ".");
}

} // namespace topodeck
