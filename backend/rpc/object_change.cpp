#include "rpc/object_change.h"

#include "core/exports/topology_exports.h"
#include "core/formats/snapshot_reader.h"
#include "core/formats/snapshot_writer.h"
#include "core/slurm/slurm_topology.h"

#include <type_traits>
#include <variant>

namespace topodeck::rpc {
namespace {

ObjectChange deletion(ObjectKind kind, std::string nameSpace, std::string name) {
    return {kind, true, std::move(nameSpace), std::move(name), {}};
}

ObjectChange upsert(ObjectKind kind, std::string nameSpace, std::string name, const ClusterEvent& event) {
    return {kind, false, std::move(nameSpace), std::move(name), writeObjectJson(event)};
}

std::string_view kindName(ObjectKind kind) {
    switch (kind) {
    case ObjectKind::Node: return "Node";
    case ObjectKind::Pod: return "Pod";
    case ObjectKind::KueueTopology: return "Topology (kueue)";
    case ObjectKind::KaiTopology: return "Topology (kai)";
    case ObjectKind::HyperNode: return "HyperNode";
    case ObjectKind::ResourceFlavor: return "ResourceFlavor";
    case ObjectKind::SlurmTopology: return "Slurm topology";
    case ObjectKind::ResourceSlice: return "ResourceSlice";
    case ObjectKind::ResourceClaim: return "ResourceClaim";
    case ObjectKind::ResourceClaimTemplate: return "ResourceClaimTemplate";
    case ObjectKind::DeviceClass: return "DeviceClass";
    case ObjectKind::ComputeDomain: return "ComputeDomain";
    case ObjectKind::Unspecified: break;
    }
    return "object of no known kind";
}

std::string describe(const ObjectChange& change) {
    std::string text(kindName(change.kind));
    text += ' ';
    if (!change.nameSpace.empty()) text += change.nameSpace + '/';
    return text + change.name;
}

Result<ClusterEvent> deletionEvent(const ObjectChange& change) {
    switch (change.kind) {
    case ObjectKind::Node: return ClusterEvent{NodeDeleted{change.name}};
    case ObjectKind::Pod: return ClusterEvent{PodDeleted{change.nameSpace, change.name}};
    case ObjectKind::KueueTopology: return ClusterEvent{TopologyDeleted{change.name, "kueue"}};
    case ObjectKind::KaiTopology: return ClusterEvent{TopologyDeleted{change.name, "kai"}};
    case ObjectKind::HyperNode: return ClusterEvent{HyperNodeDeleted{change.name}};
    case ObjectKind::ResourceFlavor: return ClusterEvent{ResourceFlavorDeleted{change.name}};
    case ObjectKind::SlurmTopology: return ClusterEvent{SlurmTopologySet{nullptr}};
    case ObjectKind::ResourceSlice: return ClusterEvent{ResourceSliceDeleted{change.name}};
    case ObjectKind::ResourceClaim: return ClusterEvent{ResourceClaimDeleted{change.nameSpace, change.name}};
    case ObjectKind::ResourceClaimTemplate:
        return ClusterEvent{ResourceClaimTemplateDeleted{change.nameSpace, change.name}};
    case ObjectKind::DeviceClass: return ClusterEvent{DeviceClassDeleted{change.name}};
    case ObjectKind::ComputeDomain: return ClusterEvent{ComputeDomainDeleted{change.nameSpace, change.name}};
    case ObjectKind::Unspecified: break;
    }
    return Error{"a change of an unknown kind of object (" + change.name + ")"};
}

} // namespace

std::string ObjectChange::key() const {
    std::string text(1, static_cast<char>('A' + static_cast<int>(kind)));
    text += nameSpace;
    text += '/';
    text += name;
    return text;
}

ObjectChange encodeEvent(const ClusterEvent& event) {
    return std::visit(
        [&]<class Event>(const Event& e) -> ObjectChange {
            using K = ObjectKind;
            if constexpr (std::is_same_v<Event, NodeUpserted>) return upsert(K::Node, {}, e.node.name, event);
            else if constexpr (std::is_same_v<Event, NodeDeleted>) return deletion(K::Node, {}, e.name);
            else if constexpr (std::is_same_v<Event, PodUpserted>) return upsert(K::Pod, e.pod.nameSpace, e.pod.name, event);
            else if constexpr (std::is_same_v<Event, PodDeleted>) return deletion(K::Pod, e.nameSpace, e.name);
            else if constexpr (std::is_same_v<Event, TopologyUpserted>)
                return upsert(e.spec.origin == "kai" ? K::KaiTopology : K::KueueTopology, {}, e.spec.name, event);
            else if constexpr (std::is_same_v<Event, TopologyDeleted>)
                return deletion(e.origin == "kai" ? K::KaiTopology : K::KueueTopology, {}, e.name);
            else if constexpr (std::is_same_v<Event, HyperNodeUpserted>) return upsert(K::HyperNode, {}, e.hyperNode.name, event);
            else if constexpr (std::is_same_v<Event, HyperNodeDeleted>) return deletion(K::HyperNode, {}, e.name);
            else if constexpr (std::is_same_v<Event, ResourceFlavorUpserted>)
                return upsert(K::ResourceFlavor, {}, e.flavor.name, event);
            else if constexpr (std::is_same_v<Event, ResourceFlavorDeleted>) return deletion(K::ResourceFlavor, {}, e.name);
            else if constexpr (std::is_same_v<Event, SlurmTopologySet>) {
                if (!e.topology) return deletion(K::SlurmTopology, {}, {});
                return {K::SlurmTopology, false, {}, {}, writeTopologyYaml({*e.topology})};
            } else if constexpr (std::is_same_v<Event, ResourceSliceUpserted>)
                return upsert(K::ResourceSlice, {}, e.slice.name, event);
            else if constexpr (std::is_same_v<Event, ResourceSliceDeleted>) return deletion(K::ResourceSlice, {}, e.name);
            else if constexpr (std::is_same_v<Event, ResourceClaimUpserted>)
                return upsert(K::ResourceClaim, e.claim.nameSpace, e.claim.name, event);
            else if constexpr (std::is_same_v<Event, ResourceClaimDeleted>)
                return deletion(K::ResourceClaim, e.nameSpace, e.name);
            else if constexpr (std::is_same_v<Event, ResourceClaimTemplateUpserted>)
                return upsert(K::ResourceClaimTemplate, e.claimTemplate.nameSpace, e.claimTemplate.name, event);
            else if constexpr (std::is_same_v<Event, ResourceClaimTemplateDeleted>)
                return deletion(K::ResourceClaimTemplate, e.nameSpace, e.name);
            else if constexpr (std::is_same_v<Event, DeviceClassUpserted>)
                return upsert(K::DeviceClass, {}, e.deviceClass.name, event);
            else if constexpr (std::is_same_v<Event, DeviceClassDeleted>) return deletion(K::DeviceClass, {}, e.name);
            else if constexpr (std::is_same_v<Event, ComputeDomainUpserted>)
                return upsert(K::ComputeDomain, e.domain.nameSpace, e.domain.name, event);
            else {
                static_assert(std::is_same_v<Event, ComputeDomainDeleted>);
                return deletion(K::ComputeDomain, e.nameSpace, e.name);
            }
        },
        event);
}

Result<std::vector<ClusterEvent>> decodeChanges(const std::vector<ObjectChangePtr>& changes) {
    std::vector<ClusterEvent> events;
    std::string list = R"({"apiVersion":"v1","kind":"List","items":[)";
    std::size_t objects = 0;
    std::shared_ptr<const SlurmTopology> slurm;
    bool slurmSet = false;
    for (const ObjectChangePtr& change : changes) {
        if (change->deleted) {
            Result<ClusterEvent> event = deletionEvent(*change);
            if (!event) return event.error();
            events.push_back(std::move(*event));
        } else if (change->kind == ObjectKind::SlurmTopology) {
            auto topologies = parseTopologyYaml(change->object, "the daemon's Slurm topology");
            if (!topologies) return topologies.error();
            if (topologies->empty()) return Error{"the daemon's Slurm topology lists no topology"};
            slurm = std::make_shared<const SlurmTopology>(std::move(topologies->front()));
            slurmSet = true;
        } else if (change->kind == ObjectKind::Unspecified || static_cast<int>(change->kind) >= kObjectKindCount) {
            return Error{"a change of an unknown kind of object (" + change->name + ")"};
        } else {
            if (change->object.empty()) return Error{describe(*change) + ": the change carries no object"};
            if (objects++ > 0) list += ',';
            list += change->object;
        }
    }
    list += "]}";
    if (objects > 0) {
        Result<Snapshot> snapshot = readSnapshotText(list, "the daemon's changes");
        if (!snapshot) return snapshot.error();
        // Each change is one object: JSON that reads as more or fewer is not the daemon's.
        const std::size_t read = snapshot->nodes.size() + snapshot->pods.size() + snapshot->topologies.size() +
                                 snapshot->hyperNodes.size() + snapshot->resourceFlavors.size() +
                                 snapshot->resourceSlices.size() + snapshot->resourceClaims.size() +
                                 snapshot->resourceClaimTemplates.size() + snapshot->deviceClasses.size() +
                                 snapshot->computeDomains.size();
        if (read != objects)
            return Error{"the daemon's changes carry " + std::to_string(objects) + " objects, which read as " +
                         std::to_string(read)};
        for (ClusterEvent& event : snapshot->takeEvents()) events.push_back(std::move(event));
    }
    if (slurmSet) events.emplace_back(SlurmTopologySet{std::move(slurm)});
    return events;
}

} // namespace topodeck::rpc
