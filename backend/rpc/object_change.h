#pragma once
// A ClusterEvent as it travels between the daemon and its consoles (topodeck.v1.ObjectChange):
// the object's kind and key, and for an upsert its Kubernetes JSON as topodeck's snapshot files
// hold it (a Slurm topology: its topology.yaml). Plain C++, so the journal and the tests need no
// protobuf; rpc/wire_messages.h converts to and from the generated messages.

#include "core/model/cluster_event.h"
#include "core/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace topodeck::rpc {

// The values of topodeck.v1.ObjectKind.
enum class ObjectKind : std::uint8_t {
    Unspecified = 0,
    Node = 1,
    Pod = 2,
    KueueTopology = 3,
    KaiTopology = 4,
    HyperNode = 5,
    ResourceFlavor = 6,
    SlurmTopology = 7,
    ResourceSlice = 8,
    ResourceClaim = 9,
    ResourceClaimTemplate = 10,
    DeviceClass = 11,
    ComputeDomain = 12,
};
inline constexpr int kObjectKindCount = 13;

struct ObjectChange {
    ObjectKind kind = ObjectKind::Unspecified;
    bool deleted = false;
    std::string nameSpace;
    std::string name;
    std::string object; // upserted: the JSON (SlurmTopology: topology.yaml; empty: none)
    // The key the journal coalesces on: one entry per object.
    std::string key() const;
    friend bool operator==(const ObjectChange&, const ObjectChange&) = default;
};
using ObjectChangePtr = std::shared_ptr<const ObjectChange>;

// The change an event makes. A TopologyDeleted without its origin (a source that does not know
// whether the Kueue or the KAI Topology went) becomes a Kueue one; no source sends it so today.
ObjectChange encodeEvent(const ClusterEvent& event);

// The events that bring a state up to date with these changes, deletions first, then the upserts
// as the snapshot reader reads them (nodes, pods, then the topology and DRA objects). A change
// that does not read is an error naming it; none of the batch is applied then.
Result<std::vector<ClusterEvent>> decodeChanges(const std::vector<ObjectChangePtr>& changes);

} // namespace topodeck::rpc
