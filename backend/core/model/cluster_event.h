#pragma once

#include "core/model/compute_domain.h"
#include "core/model/dra.h"
#include "core/model/hypernode.h"
#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/model/resource_flavor.h"
#include "core/model/topology_spec.h"

#include <memory>
#include <string>
#include <variant>

namespace topodeck {

struct SlurmTopology; // core/slurm/slurm_topology.h

struct NodeUpserted {
    Node node;
    friend bool operator==(const NodeUpserted&, const NodeUpserted&) = default;
};
struct NodeDeleted {
    std::string name;
    friend bool operator==(const NodeDeleted&, const NodeDeleted&) = default;
};
struct PodUpserted {
    Pod pod;
    friend bool operator==(const PodUpserted&, const PodUpserted&) = default;
};
struct PodDeleted {
    std::string nameSpace;
    std::string name;
    friend bool operator==(const PodDeleted&, const PodDeleted&) = default;
};
struct TopologyUpserted {
    TopologySpec spec;
    friend bool operator==(const TopologyUpserted&, const TopologyUpserted&) = default;
};
struct TopologyDeleted {
    std::string name;
    std::string origin{}; // "kueue" or "kai" (a Kueue and a KAI Topology may share a name); empty: either
    friend bool operator==(const TopologyDeleted&, const TopologyDeleted&) = default;
};
struct HyperNodeUpserted {
    HyperNode hyperNode;
    friend bool operator==(const HyperNodeUpserted&, const HyperNodeUpserted&) = default;
};
struct HyperNodeDeleted {
    std::string name;
    friend bool operator==(const HyperNodeDeleted&, const HyperNodeDeleted&) = default;
};
struct ResourceFlavorUpserted {
    ResourceFlavor flavor;
    friend bool operator==(const ResourceFlavorUpserted&, const ResourceFlavorUpserted&) = default;
};
struct ResourceFlavorDeleted {
    std::string name;
    friend bool operator==(const ResourceFlavorDeleted&, const ResourceFlavorDeleted&) = default;
};

// Dynamic Resource Allocation (resource.k8s.io).
struct ResourceSliceUpserted {
    ResourceSlice slice;
    friend bool operator==(const ResourceSliceUpserted&, const ResourceSliceUpserted&) = default;
};
struct ResourceSliceDeleted {
    std::string name;
    friend bool operator==(const ResourceSliceDeleted&, const ResourceSliceDeleted&) = default;
};
struct ResourceClaimUpserted {
    ResourceClaim claim;
    friend bool operator==(const ResourceClaimUpserted&, const ResourceClaimUpserted&) = default;
};
struct ResourceClaimDeleted {
    std::string nameSpace;
    std::string name;
    friend bool operator==(const ResourceClaimDeleted&, const ResourceClaimDeleted&) = default;
};
struct ResourceClaimTemplateUpserted {
    ResourceClaimTemplate claimTemplate;
    friend bool operator==(const ResourceClaimTemplateUpserted&, const ResourceClaimTemplateUpserted&) = default;
};
struct ResourceClaimTemplateDeleted {
    std::string nameSpace;
    std::string name;
    friend bool operator==(const ResourceClaimTemplateDeleted&, const ResourceClaimTemplateDeleted&) = default;
};
struct DeviceClassUpserted {
    DeviceClass deviceClass;
    friend bool operator==(const DeviceClassUpserted&, const DeviceClassUpserted&) = default;
};
struct DeviceClassDeleted {
    std::string name;
    friend bool operator==(const DeviceClassDeleted&, const DeviceClassDeleted&) = default;
};

// NVIDIA's ComputeDomains (resource.nvidia.com).
struct ComputeDomainUpserted {
    ComputeDomain domain;
    friend bool operator==(const ComputeDomainUpserted&, const ComputeDomainUpserted&) = default;
};
struct ComputeDomainDeleted {
    std::string nameSpace;
    std::string name;
    friend bool operator==(const ComputeDomainDeleted&, const ComputeDomainDeleted&) = default;
};

// The Slurm topology (topology.conf / topology.yaml / `scontrol show topology`) the Slurm
// placement engines read; nullptr when the source has none.
struct SlurmTopologySet {
    std::shared_ptr<const SlurmTopology> topology;
    friend bool operator==(const SlurmTopologySet&, const SlurmTopologySet&) = default;
};
// What every source (API watch, Slurm poll, snapshot file, demo simulator) turns the world into.
using ClusterEvent = std::variant<NodeUpserted, NodeDeleted, PodUpserted, PodDeleted, TopologyUpserted, TopologyDeleted,
                                  HyperNodeUpserted, HyperNodeDeleted, ResourceFlavorUpserted, ResourceFlavorDeleted,
                                  SlurmTopologySet, ResourceSliceUpserted, ResourceSliceDeleted, ResourceClaimUpserted,
                                  ResourceClaimDeleted, ResourceClaimTemplateUpserted, ResourceClaimTemplateDeleted,
                                  DeviceClassUpserted, DeviceClassDeleted, ComputeDomainUpserted, ComputeDomainDeleted>;

} // namespace topodeck
