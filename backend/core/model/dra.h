#pragma once
// Dynamic Resource Allocation (resource.k8s.io) objects as topodeck reads them, in one shape
// whatever version the server or file used (v1alpha3 in 1.31-1.33, v1beta1 from 1.32, v1beta2
// from 1.33, v1 from 1.34: the readers, formats/dra_object_readers.h, fold the `basic` wrapper,
// bare capacity quantities, flat requests and plain fields into v1's shape). Only what
// occupancy, GPU counting and DRA dry-runs read is kept.

#include "core/model/node.h"
#include "core/model/pod.h"
#include "core/values/device_attribute.h"
#include "core/values/quantity.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace topodeck {

using NamedQuantities = std::vector<std::pair<std::string, Quantity>>; // sorted by name

// A device's draw on a shared counter set (KEP-4815 partitionable devices: a GPU and the MIG
// slices that could be cut from it consume one set).
struct DeviceCounterConsumption {
    std::string counterSet;
    NamedQuantities counters;
    friend bool operator==(const DeviceCounterConsumption&, const DeviceCounterConsumption&) = default;
};

struct DeviceTaint {
    std::string key;
    std::string value;
    std::string effect; // NoSchedule, NoExecute or None
    friend bool operator==(const DeviceTaint&, const DeviceTaint&) = default;
};

struct Device {
    std::string name; // unique in its pool
    std::vector<DeviceAttribute> attributes; // sorted by name, names as written (bare = the driver's domain)
    std::vector<DeviceCapacity> capacity;    // sorted by name
    std::vector<DeviceCounterConsumption> consumesCounters;
    std::vector<DeviceTaint> taints;
    // Per-device node access (perDeviceNodeSelection): the node, allNodes or a node selector; all
    // empty when the slice says where its devices are.
    std::string nodeName;
    bool allNodes = false;
    std::vector<NodeSelectorTerm> nodeSelector{}; // per-device nodeSelector (one term)

    const DeviceAttributeValue* attribute(std::string_view qualifiedName, std::string_view driver) const;
    const Quantity* capacityOf(std::string_view qualifiedName, std::string_view driver) const;
    friend bool operator==(const Device&, const Device&) = default;
};

struct CounterSet {
    std::string name;
    NamedQuantities counters;
    friend bool operator==(const CounterSet&, const CounterSet&) = default;
};

struct ResourceSlice {
    std::string name;
    std::string driver;
    std::string pool;
    std::int64_t poolGeneration = 0;
    std::int64_t poolSliceCount = 1;
    // Node access: exactly one of these in a valid slice.
    std::string nodeName;
    bool allNodes = false;
    std::vector<NodeSelectorTerm> nodeSelector; // one term
    bool perDeviceNodeSelection = false;
    std::vector<Device> devices;
    std::vector<CounterSet> sharedCounters;
    std::string resourceVersion{}; // not part of what the object says
    friend bool operator==(const ResourceSlice& a, const ResourceSlice& b) {
        return a.name == b.name && a.driver == b.driver && a.pool == b.pool && a.poolGeneration == b.poolGeneration &&
               a.poolSliceCount == b.poolSliceCount && a.nodeName == b.nodeName && a.allNodes == b.allNodes &&
               a.nodeSelector == b.nodeSelector && a.perDeviceNodeSelection == b.perDeviceNodeSelection &&
               a.devices == b.devices && a.sharedCounters == b.sharedCounters;
    }
};

// A request's tolerance of device taints (DeviceTaints gate): it tolerates a taint whose effect it
// names (empty: every effect) and whose key it names (empty: every key), with Equal also the value
// (resourceclaim.ToleratesTaint in k8s.io/dynamic-resource-allocation).
struct DeviceToleration {
    enum class Operator : std::uint8_t { Equal, Exists }; // Equal when not written
    std::string key;
    Operator op = Operator::Equal;
    std::string value;
    std::string effect;
    std::optional<std::int64_t> tolerationSeconds{}; // eviction only: allocation ignores it
    friend bool operator==(const DeviceToleration&, const DeviceToleration&) = default;
};

// One way to ask for devices: a request's `exactly` or one of its `firstAvailable` alternatives.
struct DeviceSubRequest {
    enum class Mode : std::uint8_t { ExactCount, All };
    std::string name;
    std::string deviceClassName;
    std::vector<std::string> selectors; // CEL expressions, all must hold
    Mode mode = Mode::ExactCount;
    std::int64_t count = 1;
    bool adminAccess = false;
    std::vector<DeviceToleration> tolerations{}; // none: every NoSchedule or NoExecute taint excludes
    friend bool operator==(const DeviceSubRequest&, const DeviceSubRequest&) = default;
};

struct DeviceRequest {
    std::string name;
    std::optional<DeviceSubRequest> exactly;   // set unless firstAvailable is
    std::vector<DeviceSubRequest> firstAvailable; // tried in order
    friend bool operator==(const DeviceRequest&, const DeviceRequest&) = default;
};

struct DeviceConstraint {
    std::vector<std::string> requests; // empty: every request of the claim
    std::string matchAttribute;        // fully qualified
    friend bool operator==(const DeviceConstraint&, const DeviceConstraint&) = default;
};

struct ResourceClaimSpec {
    std::vector<DeviceRequest> requests;
    std::vector<DeviceConstraint> constraints;
    friend bool operator==(const ResourceClaimSpec&, const ResourceClaimSpec&) = default;
};

// One allocated device: status.allocation.devices.results[].
struct DeviceAllocation {
    std::string request; // "req" or "req/sub"
    std::string driver;
    std::string pool;
    std::string device;
    bool adminAccess = false; // such results do not make the device busy
    friend bool operator==(const DeviceAllocation&, const DeviceAllocation&) = default;
};

struct ClaimConsumer {
    std::string resource; // "pods" for a pod
    std::string name;
    std::string uid;
    friend bool operator==(const ClaimConsumer&, const ClaimConsumer&) = default;
};

struct ResourceClaim {
    std::string nameSpace;
    std::string name;
    std::string uid;
    ResourceClaimSpec spec;
    bool allocated = false;                  // status.allocation is set
    std::vector<DeviceAllocation> devices;   // status.allocation.devices.results
    std::vector<NodeSelectorTerm> allocationNodeSelector; // empty: usable on every node
    std::vector<ClaimConsumer> reservedFor;  // status.reservedFor
    bool deleting = false;                   // metadata.deletionTimestamp is set
    std::string podClaimName; // annotation resource.kubernetes.io/pod-claim-name (made from a template)
    std::string resourceVersion{};
    std::string key() const { return nameSpace + '/' + name; }
    friend bool operator==(const ResourceClaim& a, const ResourceClaim& b) {
        return a.nameSpace == b.nameSpace && a.name == b.name && a.uid == b.uid && a.spec == b.spec &&
               a.allocated == b.allocated && a.devices == b.devices &&
               a.allocationNodeSelector == b.allocationNodeSelector && a.reservedFor == b.reservedFor &&
               a.deleting == b.deleting && a.podClaimName == b.podClaimName;
    }
};

struct ResourceClaimTemplate {
    std::string nameSpace;
    std::string name;
    ResourceClaimSpec spec;
    std::string resourceVersion{};
    std::string key() const { return nameSpace + '/' + name; }
    friend bool operator==(const ResourceClaimTemplate& a, const ResourceClaimTemplate& b) {
        return a.nameSpace == b.nameSpace && a.name == b.name && a.spec == b.spec;
    }
};

struct DeviceClass {
    std::string name;
    std::vector<std::string> selectors; // CEL expressions, all must hold
    std::string extendedResourceName;   // KEP-5004: the extended resource this class also serves
    std::string creationTimestamp{};    // RFC 3339; the newer of two classes serving one name wins
    std::string resourceVersion{};
    friend bool operator==(const DeviceClass& a, const DeviceClass& b) {
        return a.name == b.name && a.selectors == b.selectors && a.extendedResourceName == b.extendedResourceName &&
               a.creationTimestamp == b.creationTimestamp;
    }
};

} // namespace topodeck
