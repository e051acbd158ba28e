#include "core/model/snapshot.h"

#include "core/model/cluster_state.h"

#include <utility>

namespace topodeck {

void Snapshot::applyTo(ClusterState& state) && {
    state.reserve(state.nodeSlots() + nodes.size(), state.podCount() + pods.size());
    for (Node& node : nodes) (void)state.apply(NodeUpserted{std::move(node)});
    state.upsertPods(std::move(pods));
    // In takeTopologyEvents()' order, each object moved once into its event: a list of every
    // slice's and claim's event would be written in full before the first is applied.
    std::size_t devices = 0;
    for (const ResourceSlice& slice : resourceSlices) devices += slice.devices.size();
    state.reserveDevices(resourceSlices.size(), devices);
    const auto applyEach = [&state]<class Event, class T>(std::vector<T>& objects) {
        for (T& object : objects) (void)state.apply(Event{std::move(object)});
        std::vector<T>().swap(objects);
    };
    applyEach.operator()<TopologyUpserted>(topologies);
    applyEach.operator()<HyperNodeUpserted>(hyperNodes);
    applyEach.operator()<ResourceFlavorUpserted>(resourceFlavors);
    applyEach.operator()<DeviceClassUpserted>(deviceClasses);
    applyEach.operator()<ResourceSliceUpserted>(resourceSlices);
    applyEach.operator()<ResourceClaimTemplateUpserted>(resourceClaimTemplates);
    applyEach.operator()<ResourceClaimUpserted>(resourceClaims);
    applyEach.operator()<ComputeDomainUpserted>(computeDomains);
    if (slurmTopology) (void)state.apply(SlurmTopologySet{std::move(slurmTopology)});
    nodes.clear();
    pods.clear();
}

std::vector<ClusterEvent> Snapshot::takeTopologyEvents() {
    std::vector<ClusterEvent> events;
    events.reserve(topologies.size() + hyperNodes.size() + resourceFlavors.size() + deviceClasses.size() +
                   resourceSlices.size() + resourceClaimTemplates.size() + resourceClaims.size() +
                   computeDomains.size());
    for (TopologySpec& spec : topologies) events.emplace_back(TopologyUpserted{std::move(spec)});
    for (HyperNode& hyperNode : hyperNodes) events.emplace_back(HyperNodeUpserted{std::move(hyperNode)});
    for (ResourceFlavor& flavor : resourceFlavors) events.emplace_back(ResourceFlavorUpserted{std::move(flavor)});
    // Classes before the devices they select, slices before the claims that allocate them.
    for (DeviceClass& deviceClass : deviceClasses) events.emplace_back(DeviceClassUpserted{std::move(deviceClass)});
    for (ResourceSlice& slice : resourceSlices) events.emplace_back(ResourceSliceUpserted{std::move(slice)});
    for (ResourceClaimTemplate& claimTemplate : resourceClaimTemplates)
        events.emplace_back(ResourceClaimTemplateUpserted{std::move(claimTemplate)});
    for (ResourceClaim& claim : resourceClaims) events.emplace_back(ResourceClaimUpserted{std::move(claim)});
    for (ComputeDomain& domain : computeDomains) events.emplace_back(ComputeDomainUpserted{std::move(domain)});
    if (slurmTopology) events.emplace_back(SlurmTopologySet{std::move(slurmTopology)});
    topologies.clear();
    hyperNodes.clear();
    resourceFlavors.clear();
    std::vector<DeviceClass>().swap(deviceClasses);
    std::vector<ResourceSlice>().swap(resourceSlices);
    std::vector<ResourceClaimTemplate>().swap(resourceClaimTemplates);
    std::vector<ResourceClaim>().swap(resourceClaims);
    std::vector<ComputeDomain>().swap(computeDomains);
    return events;
}

std::vector<ClusterEvent> Snapshot::takeEvents() {
    std::vector<ClusterEvent> events;
    events.reserve(nodes.size() + pods.size() + topologies.size() + hyperNodes.size() + resourceFlavors.size());
    for (Node& node : nodes) events.emplace_back(NodeUpserted{std::move(node)});
    for (Pod& pod : pods) events.emplace_back(PodUpserted{std::move(pod)});
    for (ClusterEvent& event : takeTopologyEvents()) events.push_back(std::move(event));
    // Release the moved-from storage now: at cluster size it is a few hundred MB.
    std::vector<Node>().swap(nodes);
    std::vector<Pod>().swap(pods);
    return events;
}

} // namespace topodeck
