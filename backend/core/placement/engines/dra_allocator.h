#pragma once
// The kube-scheduler's DRA allocation (plugin DynamicResources, k8s.io/dynamic-resource-allocation
// structured allocator) as a dry-run needs it: on one node, whether a pod's claims can all be
// allocated, and how many pods of a gang can, one after another, each taking its devices before
// the next comes (../shared/reference/dra.md section 6).
//
// Per pod: every unallocated claim of the pod at once, all or nothing; depth-first search with
// backtracking, claim by claim, request by request, device by device in slice and device order;
// a device is skipped when it is in use (any claim's allocation holds it, or picked earlier in
// this dry-run), its class's or its request's selectors fail, the node cannot reach it, it draws
// on counters that are short (or PartitionableDevices is off), it has a NoSchedule/NoExecute
// taint none of its request's (or alternative's) tolerations tolerates (DeviceTaints on), or a
// matchAttribute constraint breaks. Pools the scheduler holds invalid (a device name twice,
// counters that do not exist: DeviceInventory::poolInvalidReason) give no devices; a node that
// finds no solution and reached one says so. The first complete solution wins. `All` takes every
// matching device of the node's pools and fails when any is taken, and stops with an error when
// a pool lacks slices or is invalid. firstAvailable alternatives are tried in order. A claim
// holds at most 32 results.
// The search is bounded: past its step budget the node answers as the scheduler's filter timeout
// does ("timed out trying to allocate devices").

#include "core/cel/device_selector.h"
#include "core/model/cluster_state.h"
#include "core/model/dra.h"
#include "core/placement/engines/taken_devices.h"
#include "core/result.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace topodeck {

// The DRA feature gates the allocator reads, as one scheduler runs them.
struct DraFeatures {
    bool prioritizedList = true;       // firstAvailable (beta, on from 1.34)
    bool adminAccess = true;           // adminAccess requests (beta, on from 1.34)
    bool partitionableDevices = false; // devices consuming shared counters (alpha in 1.35)
    bool deviceTaints = false;         // device taints (alpha in 1.35)
    bool extendedResource = false;     // DRAExtendedResource, KEP-5004 (alpha in 1.34 and 1.35)
    // The kube-scheduler of 1.35 with its default gates (Volcano's predicates wrap it; it binds
    // what Kueue admits).
    static DraFeatures kubeScheduler() { return {}; }
    // structured.NewAllocator(..., structured.Features{}, ...): KAI's dynamicresources plugin,
    // the "stable" allocator with every optional feature off.
    static DraFeatures stableOnly() { return {false, false, false, false, false}; }
    friend bool operator==(const DraFeatures&, const DraFeatures&) = default;
};

// One claim a pod uses, resolved: its spec and, for a claim that exists already, its state.
struct PodClaimSpec {
    std::string name;                            // the pod's name for it (spec.resourceClaims[].name)
    std::string claimKey;                        // "namespace/name" of the claim (made or shared)
    ResourceClaimSpec spec;
    bool shared = false;                         // one claim every pod of the gang uses
    std::shared_ptr<const ResourceClaim> existing; // an existing shared claim (allocated or not)
};

// Why a node takes no (more) pods.
enum class DraNodeVerdict : std::uint8_t {
    Fits,
    CannotAllocate,   // "cannot allocate all claims"
    NotAvailable,     // an allocated claim's node selector excludes the node
    TimedOut,         // the search ran out of its budget
    InvalidPools,     // no solution, and a pool the node reaches is invalid (its devices are skipped)
    AllocationError,  // the allocator stopped with an error (a selector failed on a device, `All`
                      // met a pool being updated or invalid): its message says which
};
// The kube-scheduler's Filter status for a verdict.
std::string draVerdictText(DraNodeVerdict verdict);

// The claims of one kind of pod of a gang, prepared once (selectors compiled, the cluster's
// devices grouped by node) for many nodes. Thread-compatible: const calls may run concurrently.
class DraPodAllocator {
public:
    // Search steps a node may take per pod before it times out. The kube-scheduler's filter stops
    // after 10 s (1.34+); this bound keeps a dry-run of 100,000 nodes under a second per pod shape.
    static constexpr std::int64_t kStepBudget = 200'000;

    // Errors are PreFilter's, for the whole pod: a class that does not exist ("request gpu:
    // device class gpu.example.com does not exist"), a selector that does not compile, firstAvailable
    // without the PrioritizedList feature, a claim being deleted.
    // `taken`: devices what-if steps took, in use as if allocated.
    static Result<DraPodAllocator> prepare(const ClusterState& state, std::vector<PodClaimSpec> claims,
                                           DraFeatures features, std::shared_ptr<const TakenDevices> taken = nullptr,
                                           std::int64_t stepBudget = kStepBudget);

    struct NodeFit {
        std::int32_t pods = 0;     // pods whose claims were allocated on the node, in turn
        DraNodeVerdict stoppedBy = DraNodeVerdict::Fits; // why not one more (Fits: the limit was reached)
        std::string detail;        // for AllocationError: the error
    };
    // Pods, one after another, whose claims can be allocated on the node, at most `limit`. A shared
    // claim is allocated with the first pod only.
    NodeFit podsThatFit(NodeId node, std::int32_t limit) const;
    // The same, reusing a workspace from node to node: its buffers, and the selector results it
    // remembers by the values the selectors read (cel/selector_memo.h), which hold on every node.
    // A workspace serves one thread at a time; one made for another allocator is made anew.
    class Workspace;
    std::shared_ptr<Workspace> workspace() const;
    NodeFit podsThatFit(NodeId node, std::int32_t limit, Workspace& workspace) const;

    // The devices one more pod takes on the node, after the claims the state holds, as
    // podsThatFit's search picks them: per claim (claims() order), its allocation results (none
    // for a claim allocated already). For what-if steps, which make these claims, so that the
    // gangs placed after see the devices in use.
    struct PodAllocation {
        DraNodeVerdict verdict = DraNodeVerdict::Fits;
        std::string detail; // for AllocationError: the error
        struct Claim {
            std::vector<DeviceAllocation> devices;
            bool nodeLocal = false; // some device is the node's own: the claim is usable there only
        };
        std::vector<Claim> claims;
        std::vector<DeviceSlot> inUse; // the devices it makes busy (admin access makes none)
    };
    PodAllocation allocateOnePod(NodeId node) const;

    const std::vector<PodClaimSpec>& claims() const { return m_claims; }
    bool anyShared() const;

    struct Prepared; // selectors compiled, devices by node
private:
    std::shared_ptr<const Prepared> m_prepared;
    std::vector<PodClaimSpec> m_claims;
};

} // namespace topodeck
