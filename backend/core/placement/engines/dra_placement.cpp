#include "core/placement/engines/dra_placement.h"

#include "core/text/text_format.h"

#include <algorithm>
#include <map>
#include <memory>
#include <utility>

namespace topodeck {
namespace {

constexpr __int128 kNanosPerUnit = 1'000'000'000;

// Kueue's DRA quota (pkg/dra/claims.go) refuses these before any placement.
std::string kueueRefusal(const std::vector<PodClaimSpec>& claims) {
    for (const PodClaimSpec& claim : claims) {
        if (claim.shared) return "KueueDRAIntegration feature does not support use of resource claims";
        for (const DeviceRequest& request : claim.spec.requests) {
            if (!request.firstAvailable.empty()) return "FirstAvailable device selection is not supported";
            if (request.exactly && request.exactly->mode == DeviceSubRequest::Mode::All)
                return "AllocationMode 'All' is not supported";
        }
    }
    return {};
}

// Whether the order in which pods take devices can matter: more than one request, a constraint,
// alternatives or All.
bool orderMatters(const std::vector<PodClaimSpec>& claims) {
    std::size_t requests = 0;
    for (const PodClaimSpec& claim : claims) {
        if (!claim.spec.constraints.empty()) return true;
        for (const DeviceRequest& request : claim.spec.requests) {
            ++requests;
            if (!request.firstAvailable.empty()) return true;
            if (request.exactly && request.exactly->mode == DeviceSubRequest::Mode::All) return true;
        }
    }
    return requests > 1;
}

// KEP-5004: an extended resource a kind of pod asks for that a DeviceClass serves.
struct ExtendedResourceAsk {
    std::string resource;
    const DeviceClass* deviceClass = nullptr;
    std::int64_t count = 0;
};

// At most this many per kind of pod (a bit each in a node's mask); any further ones go by the
// nodes' allocatable, as a resource no class serves.
constexpr std::size_t kMaskedAsks = 32;

std::vector<ExtendedResourceAsk> extendedResourcesServedByClasses(const DeviceInventory& inventory,
                                                                  const ResourceList& perPod) {
    std::vector<ExtendedResourceAsk> asks;
    for (const auto& [resource, amount] : perPod)
        if (amount > Quantity() && asks.size() < kMaskedAsks)
            if (const DeviceClass* deviceClass = inventory.classForExtendedResource(resource))
                asks.push_back({resource, deviceClass, amount.value()});
    return asks;
}

// Bit i: the node has no device plugin for asks[i] (its allocatable does not list the resource),
// so the scheduler serves it through the class, with the gate on.
std::uint32_t resourcesLeftToDra(const Node& node, const std::vector<ExtendedResourceAsk>& asks) {
    std::uint32_t mask = 0;
    for (std::size_t i = 0; i < asks.size(); ++i)
        if (!node.allocatable.contains(asks[i].resource)) mask |= 1u << i;
    return mask;
}

// The claim the scheduler makes for a pod's extended resources on a node that leaves them to DRA:
// an ExactCount request of the resource's class per resource. (It makes one per container and
// resource; with no constraint between them, their sum asks for the same devices.)
PodClaimSpec extendedResourceClaim(const std::string& nameSpace, const std::vector<ExtendedResourceAsk>& asks,
                                   std::uint32_t mask) {
    PodClaimSpec claim;
    claim.name = "extended-resources";
    claim.claimKey = nameSpace + "/<pod>-extended-resources";
    for (std::size_t i = 0; i < asks.size(); ++i) {
        if ((mask >> i & 1u) == 0) continue;
        DeviceSubRequest exactly;
        exactly.deviceClassName = asks[i].deviceClass->name;
        exactly.count = asks[i].count;
        claim.spec.requests.push_back({"container-0-request-" + std::to_string(i), exactly, {}});
    }
    return claim;
}

// One kind of pod's claims, allocated on every usable node.
struct PartDevices {
    std::string resource;                 // its column (kDraPodsResource, #i for later parts)
    std::vector<std::int32_t> podsByNode; // pods it serves per node; empty: it asks for no claims
    std::map<std::string, int> stops;     // why nodes took no more, counted
    bool shared = false;
    bool orderMatters = false;
};

// `extended`: the kind of pod's extended resources that classes serve, when the scheduler lets
// DRA serve them (else empty). A node allocates the pod's claims plus, for the extended resources
// it has no device plugin for, the claim the scheduler makes.
Result<PartDevices> allocatePart(const PlacementCluster& cluster, const std::string& nameSpace,
                                 const std::vector<PodClaimSpec>& claims, const std::vector<ExtendedResourceAsk>& extended,
                                 std::int32_t pods, std::size_t index, const DraFeatures& features) {
    PartDevices devices;
    devices.resource = std::string(kDraPodsResource) + (index == 0 ? "" : "#" + std::to_string(index));
    devices.podsByNode.assign(cluster.nodeSlots(), 0);
    // One allocator (and its workspace) per set of extended resources left to DRA.
    struct NodeAllocator {
        DraPodAllocator allocator;
        std::shared_ptr<DraPodAllocator::Workspace> workspace;
    };
    std::map<std::uint32_t, NodeAllocator> allocators;
    // Nodes that took no pod, by verdict (and a selector error's text): the words are made once.
    std::map<std::pair<DraNodeVerdict, std::string>, int> stopped;
    for (NodeId id : cluster.nodesInOrder()) {
        if (!cluster.usable(id)) continue;
        const std::uint32_t mask = resourcesLeftToDra(cluster.node(id), extended);
        if (claims.empty() && mask == 0) {
            devices.podsByNode[id] = pods; // nothing for DRA to allocate here
            continue;
        }
        auto found = allocators.find(mask);
        if (found == allocators.end()) {
            std::vector<PodClaimSpec> all = claims;
            if (mask != 0) all.push_back(extendedResourceClaim(nameSpace, extended, mask));
            devices.orderMatters = devices.orderMatters || orderMatters(all);
            Result<DraPodAllocator> prepared =
                DraPodAllocator::prepare(cluster.state(), std::move(all), features, cluster.takenDevices());
            if (!prepared) return prepared.error();
            devices.shared = devices.shared || prepared->anyShared();
            auto workspace = prepared->workspace();
            found = allocators.emplace(mask, NodeAllocator{std::move(*prepared), std::move(workspace)}).first;
        }
        DraPodAllocator::NodeFit fit = found->second.allocator.podsThatFit(id, pods, *found->second.workspace);
        devices.podsByNode[id] = fit.pods;
        if (fit.stoppedBy != DraNodeVerdict::Fits && fit.pods == 0) {
            if (fit.stoppedBy != DraNodeVerdict::AllocationError) fit.detail.clear();
            ++stopped[{fit.stoppedBy, std::move(fit.detail)}];
        }
    }
    for (const auto& [verdict, nodes] : stopped) {
        std::string why = draVerdictText(verdict.first);
        if (verdict.first == DraNodeVerdict::AllocationError) why += ": " + verdict.second;
        devices.stops[why] += nodes;
    }
    return devices;
}

// Usable nodes that publish devices but no device plugin's `resource`: where a class serves it.
std::int64_t nodesLeavingToDra(const PlacementCluster& cluster, const std::string& resource) {
    std::int64_t nodes = 0;
    for (NodeId id : cluster.nodesInOrder())
        nodes += cluster.usable(id) && cluster.state().devices().node(id).devices > 0 &&
                 !cluster.node(id).allocatable.contains(resource);
    return nodes;
}

// How this scheduler treats the extended resources classes serve, for the result's notes, or ""
// when no node leaves them to DRA.
std::string extendedResourceNote(const PlacementCluster& cluster, DraTreatment treatment, bool served,
                                 const std::vector<ExtendedResourceAsk>& asks) {
    for (const ExtendedResourceAsk& ask : asks) {
        const std::int64_t nodes = nodesLeavingToDra(cluster, ask.resource);
        if (nodes == 0) continue;
        const std::string where = ask.resource + " on " + plural(nodes, "node", "nodes") +
                                  " without its device plugin is DeviceClass " + ask.deviceClass->name +
                                  "'s devices (KEP-5004)";
        if (served) return where + ": each pod there gets a claim for them, as kube-scheduler's DRAExtendedResource gate does";
        if (treatment == DraTreatment::StableAllocator)
            return where + ", but KAI's allocator serves no extended resource through DRA: they count none";
        if (treatment == DraTreatment::AdmitThenBind)
            return where + ", but Kueue TAS counts " + ask.resource + " from nodes' allocatable only: they count none";
        return where + " only with kube-scheduler's DRAExtendedResource gate (alpha in 1.34 and 1.35; "
                       "--dra-gates DRAExtendedResource=true): they count none";
    }
    return {};
}

std::string stopsText(const std::map<std::string, int>& stops) {
    std::string text;
    for (const auto& [why, nodes] : stops) text += (text.empty() ? "" : ", ") + std::to_string(nodes) + " " + why;
    return text;
}

PlacementResult refused(const PlacementEngine& engine, std::string message) {
    PlacementResult result;
    result.engine = std::string(engine.name());
    result.message = std::move(message);
    return result;
}

// The nodes of one domain of a TopologyAssignment: those carrying its value on every level.
std::vector<NodeId> assignmentNodes(const PlacementCluster& cluster, const TopologyAssignment& assignment,
                                    const TopologyAssignment::Domain& domain) {
    std::vector<NodeId> nodes;
    for (NodeId id : cluster.nodesInOrder()) {
        bool inside = true;
        for (std::size_t level = 0; inside && level < assignment.levels.size(); ++level) {
            const std::string* value = cluster.node(id).label(assignment.levels[level]);
            inside = value != nullptr && level < domain.values.size() && *value == domain.values[level];
        }
        if (inside) nodes.push_back(id);
    }
    return nodes;
}

// Kueue admitted: the kube-scheduler now binds each pod on the node TAS chose for it, or on any
// node of the lowest domain TAS chose when the hierarchy does not end at hostnames.
void bindAfterAdmission(const PlacementCluster& cluster, const std::vector<GangPart>& parts,
                        const std::vector<PartDevices>& devices, PlacementResult& result) {
    std::int32_t pending = 0;
    std::int32_t pods = 0;
    std::map<std::string, int> stops;
    if (result.nodes.empty() && parts.size() == 1 && !devices.front().podsByNode.empty())
        for (const TopologyAssignment::Domain& domain : result.assignment.domains) {
            std::int64_t served = 0;
            for (NodeId id : assignmentNodes(cluster, result.assignment, domain)) served += devices.front().podsByNode[id];
            pods += domain.count;
            if (served >= domain.count) continue;
            pending += domain.count - static_cast<std::int32_t>(served);
            std::string name;
            for (const std::string& value : domain.values) name += (name.empty() ? "" : "/") + value;
            ++stops[name + " serves " + std::to_string(served) + " of its " + std::to_string(domain.count)];
        }
    for (const NodePods& placed : result.nodes) {
        pods += placed.pods;
        std::size_t part = 0;
        for (std::size_t i = 0; i < parts.size(); ++i)
            if (parts[i].name == placed.part) part = i;
        if (devices[part].podsByNode.empty()) continue; // this kind of pod asks for no claims
        const std::optional<NodeId> id = cluster.state().findNode(placed.node);
        const std::int32_t served = id ? devices[part].podsByNode[*id] : 0;
        if (served >= placed.pods) continue;
        pending += placed.pods - served;
        ++stops[placed.node + " serves " + std::to_string(served) + " of its " + std::to_string(placed.pods)];
    }
    if (pending == 0) return;
    result.feasible = false;
    constexpr std::size_t kNamed = 4; // a few nodes say enough; the rest are counted
    std::string where;
    std::size_t named = 0;
    for (const auto& [text, count] : stops)
        if (named++ < kNamed) where += (where.empty() ? "" : "; ") + text;
    if (stops.size() > kNamed) where += "; " + plural(static_cast<std::int64_t>(stops.size() - kNamed), "more node", "more nodes");
    result.message = "Kueue admits the workload (TAS counts no DRA devices), but kube-scheduler leaves " +
                     std::to_string(pending) + " of " + std::to_string(pods) +
                     " pods Pending: cannot allocate all claims (" + where + ")";
}

// On a node that leaves an extended resource to DRA, NodeResourcesFit lets it pass and the claim
// made for it decides (the pods column): its column there holds enough for the whole gang.
// (Volcano then reads that column as the node's allocatable too, for its binpack score.)
void passExtendedResourcesLeftToDra(const PlacementCluster& cluster, const std::vector<GangPart>& parts,
                                    const std::vector<std::vector<ExtendedResourceAsk>>& extended,
                                    PlacementCluster& withDevices) {
    std::int64_t pods = 0;
    for (const GangPart& part : parts) pods += part.pods;
    std::map<std::string, std::int64_t> largest; // per resource, the most one pod asks
    for (const auto& asks : extended)
        for (const ExtendedResourceAsk& ask : asks) largest[ask.resource] = std::max(largest[ask.resource], ask.count);
    for (const auto& [resource, count] : largest) {
        const PlacementCluster::FreeColumn native = cluster.freeColumn(resource);
        const __int128 enough = __int128(pods) * count * kNanosPerUnit;
        std::vector<__int128> free(cluster.nodeSlots(), 0);
        for (NodeId id : cluster.nodesInOrder())
            free[id] = cluster.node(id).allocatable.contains(resource) ? native.nanos(id) : enough;
        withDevices.setFreeColumn(resource, std::move(free));
    }
}

DraFeatures featuresOf(DraTreatment treatment, const EngineOptions& options) {
    return treatment == DraTreatment::StableAllocator ? DraFeatures::stableOnly() : options.draFeatures;
}

// The allocated claim `spec` becomes for `pod`: made anew (from a template, or a shared claim
// the manifest brings), or the existing shared one, allocated unless it was and reserved for it.
ResourceClaim placedClaim(const PodClaimSpec& spec, const DraPodAllocator::PodAllocation::Claim& allocation,
                          const Pod& pod) {
    ResourceClaim claim;
    if (spec.existing) {
        claim = *spec.existing;
    } else {
        claim.nameSpace = pod.nameSpace;
        claim.name = spec.claimKey.substr(spec.claimKey.find('/') + 1);
        claim.spec = spec.spec;
        if (!spec.shared) claim.podClaimName = spec.name;
    }
    if (!claim.allocated) {
        claim.allocated = true;
        claim.devices = allocation.devices;
        // As the scheduler writes it when a device is node-local (else null: usable everywhere).
        if (allocation.nodeLocal)
            claim.allocationNodeSelector = {
                {{}, {{"metadata.name", NodeSelectorRequirement::Operator::In, {pod.nodeName}}}}};
    }
    claim.reservedFor.push_back({"pods", pod.name, ""});
    return claim;
}

// The pod's claims allocated on its node, after every claim the state holds and every device the
// what-if took, as placeGang allocates. Claims from templates are named "<pod>-<claim>" (the
// claim controller adds a random suffix). Errors are placeGang's refusals.
Result<PlacedPodClaims> allocatePlacedPodClaims(const PlacementCluster& cluster, const PlacementEngine& engine,
                                                const GangRequest& gang, const GangPart& part, const Pod& pod,
                                                const EngineOptions& options) {
    const ClusterState& state = cluster.state();
    PlacedPodClaims out;
    const DraTreatment treatment = engine.draTreatment();
    if (treatment == DraTreatment::None) return out;
    const DraFeatures features = featuresOf(treatment, options);
    Result<std::vector<PodClaimSpec>> resolved = resolveGangClaims(state, gang.nameSpace, part.claims);
    if (!resolved) return resolved.error();
    std::vector<PodClaimSpec> claims = std::move(*resolved);
    for (PodClaimSpec& claim : claims)
        if (!claim.shared) claim.claimKey = gang.nameSpace + '/' + pod.name + '-' + claim.name;
    const std::optional<NodeId> node = state.findNode(pod.nodeName);
    if (!node) return Error{"node " + pod.nodeName + " not found"};
    if (treatment == DraTreatment::KubeScheduler && features.extendedResource) {
        const std::vector<ExtendedResourceAsk> asks = extendedResourcesServedByClasses(state.devices(), part.perPod);
        if (const std::uint32_t mask = resourcesLeftToDra(*state.record(*node).node, asks); mask != 0) {
            claims.push_back(extendedResourceClaim(gang.nameSpace, asks, mask));
            claims.back().claimKey = gang.nameSpace + '/' + pod.name + "-extended-resources";
        }
    }
    if (claims.empty()) return out;
    Result<DraPodAllocator> allocator = DraPodAllocator::prepare(state, claims, features, cluster.takenDevices());
    if (!allocator) return allocator.error();
    const DraPodAllocator::PodAllocation allocation = allocator->allocateOnePod(*node);
    out.verdict = allocation.verdict;
    out.detail = allocation.detail;
    if (allocation.verdict != DraNodeVerdict::Fits) return out;
    out.inUse = allocation.inUse;
    for (std::size_t i = 0; i < claims.size(); ++i) {
        const PodClaimSpec& spec = claims[i];
        out.claims.push_back(placedClaim(spec, allocation.claims[i], pod));
        const std::string& claimName = out.claims.back().name;
        if (i >= part.claims.size()) {
            out.extendedResourceClaim = claimName;
        } else if (spec.shared) {
            out.podClaims.push_back({spec.name, claimName, ""});
        } else {
            out.podClaims.push_back({spec.name, "", part.claims[i].templateName});
            out.claimStatuses.emplace_back(spec.name, claimName);
        }
    }
    return out;
}

} // namespace

Result<std::vector<PodClaimSpec>> resolveGangClaims(const ClusterState& state, const std::string& nameSpace,
                                                    const std::vector<GangClaim>& claims) {
    std::vector<PodClaimSpec> resolved;
    const DeviceInventory& inventory = state.devices();
    for (const GangClaim& claim : claims) {
        PodClaimSpec spec;
        spec.name = claim.name;
        spec.shared = claim.shared();
        if (spec.shared) {
            spec.claimKey = nameSpace + '/' + claim.claimName;
            const auto found = inventory.claims().find(spec.claimKey);
            if (found != inventory.claims().end()) spec.existing = found->second;
            if (claim.spec)
                spec.spec = *claim.spec;
            else if (spec.existing)
                spec.spec = spec.existing->spec;
            else
                return Error{"resourceclaim \"" + claim.claimName + "\" not found in namespace " + nameSpace +
                             " (the pods name it in spec.resourceClaims[" + claim.name + "])"};
        } else {
            spec.claimKey = nameSpace + "/<pod>-" + claim.name;
            if (claim.spec) {
                spec.spec = *claim.spec;
            } else {
                const auto found = inventory.claimTemplates().find(nameSpace + '/' + claim.templateName);
                if (found == inventory.claimTemplates().end())
                    return Error{"ResourceClaimTemplate " + nameSpace + '/' + claim.templateName +
                                 " not found: the pods' claims cannot be made (the scheduler waits: "
                                 "ResourceClaim not created yet)"};
                spec.spec = found->second.spec;
            }
        }
        resolved.push_back(std::move(spec));
    }
    return resolved;
}

PlacementResult placeGang(const PlacementEngine& engine, const PlacementCluster& cluster, const GangRequest& gang,
                          const EngineOptions& options) {
    const DraTreatment treatment = engine.draTreatment();
    if (treatment == DraTreatment::None) {
        PlacementResult result = engine.place(cluster, gang, options);
        if (gang.usesClaims())
            result.notes.push_back(std::string(engine.name()) + " has no DRA: the pods' resource claims are not looked at");
        return result;
    }
    const DraFeatures features = featuresOf(treatment, options);
    const std::vector<GangPart> parts = gang.partsOrWhole();
    // Extended resources a class serves (KEP-5004) are DRA's only where kube-scheduler itself
    // filters with the gate on; elsewhere they go by the nodes' allocatable, as any resource.
    const bool draServesExtended = treatment == DraTreatment::KubeScheduler && features.extendedResource;
    std::vector<std::vector<ExtendedResourceAsk>> extended(parts.size());
    std::string extendedNote;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        extended[i] = extendedResourcesServedByClasses(cluster.state().devices(), parts[i].perPod);
        if (extendedNote.empty()) extendedNote = extendedResourceNote(cluster, treatment, draServesExtended, extended[i]);
        if (!draServesExtended) extended[i].clear();
    }
    const bool anyExtended = std::any_of(extended.begin(), extended.end(), [](const auto& asks) { return !asks.empty(); });
    if (!gang.usesClaims() && !anyExtended) {
        PlacementResult result = engine.place(cluster, gang, options);
        if (!extendedNote.empty()) result.notes.push_back(extendedNote);
        return result;
    }
    std::vector<PartDevices> devices(parts.size());
    bool orderNote = false;
    bool shared = false;
    for (std::size_t i = 0; i < parts.size(); ++i) {
        if (parts[i].claims.empty() && extended[i].empty()) continue;
        // A claim that cannot be made: the pods never reach the scheduler.
        Result<std::vector<PodClaimSpec>> resolved = resolveGangClaims(cluster.state(), gang.nameSpace, parts[i].claims);
        if (!resolved) return refused(engine, resolved.error().message);
        if (treatment == DraTreatment::AdmitThenBind)
            if (std::string refusal = kueueRefusal(*resolved); !refusal.empty()) return refused(engine, refusal);
        Result<PartDevices> part =
            allocatePart(cluster, gang.nameSpace, *resolved, extended[i], parts[i].pods, i, features);
        if (!part) {
            // PreFilter's verdict: the whole pod is unschedulable, on every node.
            return refused(engine, "0/" + std::to_string(cluster.nodesInOrder().size()) +
                                       " nodes are available: " + part.error().message + ".");
        }
        orderNote = orderNote || part->orderMatters;
        shared = shared || part->shared;
        devices[i] = std::move(*part);
    }

    PlacementResult result;
    if (treatment == DraTreatment::AdmitThenBind) {
        result = engine.place(cluster, gang, options);
        if (result.feasible) bindAfterAdmission(cluster, parts, devices, result);
        result.notes.push_back("Kueue TAS counts no DRA devices (KEP-2941): the assignment is made by the other "
                               "resources, then kube-scheduler allocates each pod's claims on its node");
    } else {
        PlacementCluster withDevices = cluster;
        GangRequest asked = gang;
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (devices[i].podsByNode.empty()) continue;
            std::vector<__int128> served(devices[i].podsByNode.begin(), devices[i].podsByNode.end());
            for (__int128& pods : served) pods *= kNanosPerUnit;
            withDevices.setFreeColumn(devices[i].resource, std::move(served));
            ResourceList& perPod = asked.parts.empty() ? asked.perPod : asked.parts[i].perPod;
            perPod.set(devices[i].resource, Quantity::fromUnits(1));
            if (i == 0 && !asked.parts.empty()) asked.perPod.set(devices[i].resource, Quantity::fromUnits(1));
        }
        passExtendedResourcesLeftToDra(cluster, parts, extended, withDevices);
        result = engine.place(withDevices, asked, options);
        result.notes.push_back(treatment == DraTreatment::StableAllocator
                                   ? "KAI allocates claims with the stable allocator (no firstAvailable, partitionable "
                                     "devices, admin access or device taints); DRA needs its DynamicResourceAllocation gate"
                                   : "Volcano runs kube-scheduler's DynamicResources filter per node "
                                     "(predicate.DynamicResourceAllocationEnable)");
        if (!result.feasible)
            for (const PartDevices& part : devices)
                if (!part.stops.empty())
                    result.notes.push_back("nodes serving no pod's claims: " + stopsText(part.stops));
    }
    if (shared && result.feasible && result.nodes.size() > 1) {
        result.feasible = false;
        result.message = "one resource claim is shared by every pod: allocated with the first pod, it is available "
                         "on that node only, and pods placed on " +
                         plural(static_cast<std::int64_t>(result.nodes.size() - 1), "other node", "other nodes") +
                         " fail: resourceclaim not available on the node";
    }
    if (!extendedNote.empty()) result.notes.push_back(extendedNote);
    if (orderNote)
        result.notes.push_back("pods take their devices one at a time, in the scheduler's order: a joint assignment "
                               "that order misses is not looked for, as the scheduler does not");
    return result;
}

Result<BoundPod> bindPlacedPod(const PlacementCluster& cluster, const PlacementEngine& engine, const GangRequest& gang,
                              const PlacedPods& entry, Pod pod, const std::map<NodeId, std::int64_t>& boundOn,
                              const EngineOptions& options) {
    const std::vector<GangPart> parts = gang.partsOrWhole();
    const auto part = std::find_if(parts.begin(), parts.end(),
                                   [&](const GangPart& p) { return parts.size() == 1 || p.name == entry.part; });
    std::vector<NodeId> candidates{entry.node};
    if (entry.domain != kNoDomain)
        for (NodeId id : nodesUnder(cluster.index(), entry.domain))
            if (id != entry.node && cluster.usable(id)) candidates.push_back(id);
    BoundPod bound;
    for (NodeId id : candidates) {
        const auto already = boundOn.find(id);
        if (entry.domain != kNoDomain &&
            cluster.podsThatFit(id, entry.perPod, true) <= (already == boundOn.end() ? 0 : already->second))
            continue;
        pod.nodeName = cluster.node(id).name;
        if (part == parts.end()) {
            bound.node = id;
            return bound;
        }
        Result<PlacedPodClaims> claims = allocatePlacedPodClaims(cluster, engine, gang, *part, pod, options);
        if (!claims) return claims.error();
        if (claims->verdict == DraNodeVerdict::Fits) {
            bound.node = id;
            bound.claims = std::move(*claims);
            return bound;
        }
        if (bound.why.empty()) bound.why = claims->detail.empty() ? draVerdictText(claims->verdict) : claims->detail;
    }
    return bound;
}

void assumePlacedClaims(PlacementCluster& cluster, const PlacementEngine& engine, const GangRequest& gang,
                        const PlacementResult& result, const EngineOptions& options) {
    if (engine.draTreatment() == DraTreatment::None) return;
    std::map<NodeId, std::int64_t> boundOn;
    Pod pod;
    pod.nameSpace = gang.nameSpace;
    std::size_t podNumber = 0;
    for (const PlacedPods& entry : placedPods(cluster, gang, result))
        for (std::int32_t i = 0; i < entry.pods; ++i) {
            pod.name = gang.name + "-" + std::to_string(podNumber++);
            Result<BoundPod> bound = bindPlacedPod(cluster, engine, gang, entry, pod, boundOn, options);
            if (!bound || !bound->node) continue;
            ++boundOn[*bound->node];
            cluster.takeDevices(bound->claims.inUse);
        }
}

} // namespace topodeck
